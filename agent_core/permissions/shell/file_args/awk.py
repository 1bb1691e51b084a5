"""awk programs: getline reads, print redirects, system(), pipes and ARGV rewrites."""

from __future__ import annotations

import re
from typing import NamedTuple

# Arrays that decide what the program reads (or what commands it starts would see):
# any use of them is judged as a rewrite, reading ENVIRON["X"] included.
_AWK_SELF = re.compile(r"\b(?:ARGV|ARGC|ENVIRON|PROCINFO)\b")
_AWK_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_AWK_REGEX = re.compile(r"(?:(?<=^)|(?<=[(,!~{;&|\n]))\s*/(?:[^/\\\n]|\\.)*/")


class AwkProgram(NamedTuple):
    """What an awk program does besides printing."""

    reads: list[str]
    writes: list[str]
    unknown_reads: bool
    unknown_writes: bool
    runs_code: bool
    rewrites_arguments: bool  # changes ARGV/ARGC (which files it reads) or ENVIRON


def awk_program(program: str) -> AwkProgram:
    """Find system(), pipes, output redirects and getline reads in an awk program."""
    strings: list[str] = []

    def keep(match: re.Match[str]) -> str:
        strings.append(match.group(0)[1:-1])
        return f'"{len(strings) - 1}"'

    text = _AWK_STRING.sub(keep, program)
    text = re.sub(r"#[^\n]*", "", text)
    text = _AWK_REGEX.sub(" /re/", text)
    code = bool(re.search(r"\bsystem\s*\(|@load|\|&?", text.replace("||", "  ")))
    reads: list[str] = []
    writes: list[str] = []
    unknown_reads = unknown_writes = False
    for match in re.finditer(r"\bprintf?\b[^;{}\n]*?(>>?)\s*(\"(\d+)\"|[^;{}\s]+)?", text):
        if match.group(3) is not None:
            writes.append(strings[int(match.group(3))])
        else:
            unknown_writes = True
    for match in re.finditer(r"\bgetline\b[^;{}\n]*?<\s*(\"(\d+)\"|[^;{}\s]+)?", text):
        if match.group(2) is not None:
            reads.append(strings[int(match.group(2))])
        else:
            unknown_reads = True
    for match in re.finditer(r"@include\s+\"(\d+)\"", text):
        reads.append(strings[int(match.group(1))])
    code = code or bool(writes) or unknown_writes
    rewrites = bool(_AWK_SELF.search(text))
    return AwkProgram(reads, writes, unknown_reads, unknown_writes, code, rewrites)
