"""sed scripts: the files a script reads and writes (r, w, s///w) and the code it runs (e)."""

from __future__ import annotations

import re
from typing import NamedTuple


class SedScript(NamedTuple):
    """What a sed script does besides printing: files it reads and writes, code it runs."""

    reads: list[str]
    writes: list[str]
    runs_code: bool


def _to_line_end(script: str, i: int) -> tuple[str, int]:
    end = script.find("\n", i)
    end = len(script) if end < 0 else end
    return script[i:end].strip(), end


def _skip_delimited(script: str, i: int, delim: str) -> int | None:
    """Index after the text that ends at an unescaped ``delim`` (regex or replacement)."""
    while i < len(script):
        char = script[i]
        if char == "\\":
            i += 2
            continue
        if char == "\n" and delim != "\n":
            return None
        if char == delim:
            return i + 1
        i += 1
    return None


def _sed_address(script: str, i: int) -> int | None:
    """Index after the address(es) at ``i``, or None when they cannot be read."""
    for _ in range(2):
        if i < len(script) and script[i] in "/\\":
            delim = "/"
            if script[i] == "\\":
                i += 1
                if i >= len(script):
                    return None
                delim = script[i]
            end = _skip_delimited(script, i + 1, delim)
            if end is None:
                return None
            i = end
            while i < len(script) and script[i] in "IM":
                i += 1
        else:
            match = re.compile(r"\$|[0-9]+(~[0-9]+)?|[+~][0-9]+").match(script, i)
            if match:
                i = match.end()
        while i < len(script) and script[i] in " \t":
            i += 1
        if i < len(script) and script[i] == ",":
            i += 1
            while i < len(script) and script[i] in " \t":
                i += 1
            continue
        break
    while i < len(script) and script[i] in " \t!":
        i += 1
    return i


def sed_script(script: str) -> SedScript | None:
    """Read a GNU sed script; None when some part of it cannot be read with certainty."""
    reads: list[str] = []
    writes: list[str] = []
    code = False
    i = 0
    while i < len(script):
        char = script[i]
        if char in " \t\n;":
            i += 1
            continue
        if char == "#":
            i = script.find("\n", i)
            i = len(script) if i < 0 else i
            continue
        after = _sed_address(script, i)
        if after is None or after >= len(script):
            return None if after is None else SedScript(reads, writes, code)
        i = after
        command = script[i]
        i += 1
        if command in "{}=dDgGhHnNpPxzF":
            continue
        if command in "qQlL":
            while i < len(script) and (script[i].isdigit() or script[i] in " \t"):
                i += 1
        elif command in "aic":
            while True:  # text to the end of the line; a trailing backslash continues it
                end = script.find("\n", i)
                if end < 0:
                    i = len(script)
                    break
                if script[end - 1] == "\\":
                    i = end + 1
                    continue
                i = end
                break
        elif command in "btT:v":
            while i < len(script) and script[i] not in ";\n":
                i += 1
        elif command in "rRwW":
            name, i = _to_line_end(script, i)
            (reads if command in "rR" else writes).append(name)
        elif command == "e":
            code = True
            _, i = _to_line_end(script, i)
        elif command in "sy":
            if i >= len(script) or script[i] in "\\\n":
                return None
            delim = script[i]
            stop = _skip_delimited(script, i + 1, delim)
            stop = _skip_delimited(script, stop, delim) if stop is not None else None
            if stop is None:
                return None
            i = stop
            if command == "s":
                while i < len(script) and script[i] not in ";\n}#":
                    flag = script[i]
                    if flag == "e":
                        code = True
                    elif flag == "w":
                        name, i = _to_line_end(script, i + 1)
                        writes.append(name)
                        break
                    elif not (flag.isdigit() or flag in "gpiImM \t"):
                        return None
                    i += 1
        else:
            return None
    return SedScript(reads, writes, code)
