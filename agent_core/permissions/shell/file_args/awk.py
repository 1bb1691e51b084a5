"""awk: getline reads, print redirects, system() and pipes in an awk program."""

from __future__ import annotations

import re
from typing import NamedTuple

from agent_core.permissions.shell.file_args.model import FileUse
from agent_core.permissions.shell.file_args.spec import fs
from agent_core.permissions.shell.wrappers import Word

_AWK_SAFE_OPTIONS = fs("-F", "-v", "--field-separator", "--assign")
_AWK_VALUE_OPTIONS = fs("-F", "-v", "-f", "-i", "-l", "-E", "-o", "-p", "-d", "-W")
_AWK_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_AWK_REGEX = re.compile(r"(?:(?<=^)|(?<=[(,!~{;&|\n]))\s*/(?:[^/\\\n]|\\.)*/")


class AwkProgram(NamedTuple):
    """What an awk program does besides printing."""

    reads: list[str]
    writes: list[str]
    unknown_reads: bool
    unknown_writes: bool
    runs_code: bool


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
    return AwkProgram(reads, writes, unknown_reads, unknown_writes, code)


def awk_uses(args: list[Word]) -> FileUse:
    """awk: the program (inline or -f), input files, and what the program reads and writes."""
    use = FileUse()
    program: Word | None = None
    positionals: list[Word] = []
    i, ended = 0, False
    while i < len(args):
        word = args[i]
        text = word.text
        if ended or not text.startswith("-") or text == "-":
            positionals.append(word)
        elif text == "--":
            ended = True
        else:
            option = text[:2] if not text.startswith("--") else text.split("=", 1)[0]
            if option not in _AWK_SAFE_OPTIONS:
                use.runs_code = True  # gawk -i inplace, -o, -p, -d, -l, --exec...
            if option in _AWK_VALUE_OPTIONS or (text.startswith("--") and "=" not in text
                                                 and option in _AWK_SAFE_OPTIONS):  # fmt: skip
                attached = text[2:] if not text.startswith("--") else ""
                value = Word(attached, word.dynamic) if attached else None
                if value is None:
                    i += 1
                    value = args[i] if i < len(args) else None
                if option in ("-f", "-E", "-i") and value is not None:
                    use.read(value)
                    program = program or Word("", True)
                if option in ("-o", "-p", "-d") and value is not None:
                    use.write(value)
        i += 1
    if program is None and positionals:
        program = positionals.pop(0)
    if program is not None and program.text and not program.dynamic:
        found = awk_program(program.text)
        use.runs_code = use.runs_code or found.runs_code
        use.unknown_reads = use.unknown_reads or found.unknown_reads
        use.unknown_writes = use.unknown_writes or found.unknown_writes
        for name in found.reads:
            use.read(Word(name))
        for name in found.writes:
            if name not in ("/dev/stdout", "/dev/stderr"):
                use.write(Word(name))
    elif program is not None:
        use.runs_code = use.unknown_reads = use.unknown_writes = True  # -f file or computed
    for word in positionals:
        if not re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", word.text):
            use.read(word)
    return use
