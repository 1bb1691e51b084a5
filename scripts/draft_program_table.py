"""Draft a program table (agent_core/permissions/shell/programs/NAME.toml) from `NAME --help`.

Reads GNU-style help text (``-a, --all``, ``--width=COLS``, ``--color[=WHEN]``)
and prints one TOML line per option with a guessed value kind (FILE -> path,
PATTERN -> pattern, N -> number, else literal) and the help's own words as a
comment. The draft is a start, never the table: read every line against the
man page, drop or mark `unsafe` what writes, runs or reads unnamed files, and
set `read_only` and `operands` by hand.

    python scripts/draft_program_table.py ls          # runs `ls --help`
    python scripts/draft_program_table.py rg help.txt # reads saved help text
"""

from __future__ import annotations

import re
import subprocess
import sys

_LINE = re.compile(
    r"^\s{1,8}(?P<short>-[A-Za-z0-9#.?])?(?:,\s*)?"
    r"(?P<long>--[A-Za-z0-9][\w-]*)?(?P<arg>(?:\[?=|\s)[A-Z<\[][^\s,]*)?[, ]*(?P<desc>.*)$"
)
_KINDS = [
    (re.compile(r"FILE|PATH|DIR", re.I), "path"),
    (re.compile(r"PATTERN|REGEX|GLOB", re.I), "pattern"),
    (re.compile(r"^(?:N|NUM|NUMBER|COLS|SIZE|BYTES|LINES|DEPTH|COUNT|SECS)$"), "number"),
]


def kind_of(metavar: str) -> str:
    """A guess at a value's kind from its name in the help text."""
    name = metavar.strip("[]=<> ")
    for pattern, kind in _KINDS:
        if pattern.search(name):
            return kind
    return "literal"


def draft(help_text: str) -> list[str]:
    """TOML lines for the options the help text lists."""
    lines: list[str] = []
    for raw in help_text.splitlines():
        match = _LINE.match(raw)
        if not match or not (match["short"] or match["long"]):
            continue
        names = " ".join(n for n in (match["short"], match["long"]) if n)
        arg = match["arg"] or ""
        kind = "none"
        if arg:
            kind = kind_of(arg) + ("?" if arg.startswith("[") else "")
        lines.append(f'"{names}" = "{kind}"  # {match["desc"].strip()[:70]}')
    return lines


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    if len(argv) > 1:
        with open(argv[1], encoding="utf-8") as fh:
            text = fh.read()
    else:
        done = subprocess.run([argv[0], "--help"], capture_output=True, text=True, check=False)
        text = done.stdout or done.stderr
    print(f'doc = "{argv[0]} --help"\nread_only = true\noperands = "path*"\n\n[options]')
    print("\n".join(draft(text)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
