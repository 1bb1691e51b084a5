"""A quote-aware pass over shell text for what bashlex gets wrong or hides.

bash removes backslash-newline before it tokenizes (except inside single
quotes, ``$'...'``, comments and here-documents with a quoted delimiter);
bashlex does not, so ``r\\<newline>m`` would read as an unknown program.
bashlex also refuses ``$((...))``, so arithmetic is set aside here (and its
body scanned by shell_expansions).
"""

from __future__ import annotations

import re
from typing import NamedTuple

ARITH_MARK = "__MEWCODE_ARITH_"
_BREAK = frozenset(" \t\n;&|()<>")
_DELIM_END = frozenset(" \t\n;&|<>()")


class Lexed(NamedTuple):
    """Text as bash would tokenize it, arithmetic replaced by ``${__MEWCODE_ARITH_n}``."""

    text: str
    arithmetic: list[str]  # the body of each replaced $((...)) / ((...))
    doubt: str | None  # why the joining or the replacing may differ from bash


def closing_paren(text: str, i: int) -> int:
    """Index of the ``)`` closing a group whose body starts at ``i``; -1 when unbalanced."""
    depth, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch in "'\"`":
            end = closing_quote(text, i)
            if end < 0:
                return -1
            i = end + 1
            continue
        if ch == "(":
            depth += 1
        elif ch == ")":
            if depth == 0:
                return i
            depth -= 1
        i += 1
    return -1


def closing_quote(text: str, i: int) -> int:
    """Index of the quote closing the one at ``i`` (backslashes honoured outside '...')."""
    quote, j, n = text[i], i + 1, len(text)
    while j < n:
        ch = text[j]
        if ch == "\\" and quote != "'":
            j += 2
            continue
        if ch == quote:
            return j
        if quote == '"' and text.startswith("$(", j):
            end = closing_paren(text, j + 2)
            if end < 0:
                return -1
            j = end + 1
            continue
        j += 1
    return -1


def arithmetic_end(text: str, i: int) -> int:
    """For ``((`` at ``i``: the index just past the closing ``))``; -1 when it is not arithmetic."""
    end = closing_paren(text, i + 2)
    if end < 0 or not text.startswith("))", end):
        return -1  # `$( (cmd) )` or `( (cmd) )`: nested groups, not arithmetic
    return end + 2


class _Frame:
    __slots__ = ("depth", "in_dq", "kind")

    def __init__(self, kind: str, in_dq: bool = False) -> None:
        self.kind = kind  # top | comsub | arith | " | ' | $' | ` | ${
        self.depth = 0
        self.in_dq = in_dq


class _Lexer:
    """One pass: joins continuations, replaces arithmetic, copies here-document bodies."""

    def __init__(self, text: str, first: int) -> None:
        self.text = text
        self.first = first  # number of the first arithmetic placeholder
        self.i = 0
        self.out: list[str] = []
        self.stack = [_Frame("top")]
        self.pending: list[tuple[str, bool, bool]] = []  # here-documents waiting for a body
        self.arithmetic: list[str] = []
        self.doubt: str | None = None

    def emit(self, chunk: str) -> None:
        self.out.append(chunk)

    def at_word_start(self) -> bool:
        for chunk in reversed(self.out):
            if chunk:
                return chunk[-1] in _BREAK
        return True

    def previous_word(self) -> str:
        tail = "".join(self.out[-8:]).rstrip(" \t")
        return re.split(r"[\s;&|()]", tail)[-1] if tail else ""

    def run(self) -> Lexed:
        text, n = self.text, len(self.text)
        while self.i < n:
            frame = self.stack[-1]
            ch = text[self.i]
            if frame.kind == "'":
                self.emit(ch)
                self.i += 1
                if ch == "'":
                    self.stack.pop()
                continue
            if frame.kind == "$'":
                step = 2 if ch == "\\" else 1
                self.emit(text[self.i : self.i + step])
                self.i += step
                if ch == "'":
                    self.stack.pop()
                continue
            if ch == "\\":
                self.backslash(frame)
                continue
            if frame.kind in ("top", "comsub", "arith"):
                self.unquoted(frame, ch)
            elif frame.kind == '"':
                self.double_quoted(ch)
            elif frame.kind == "`":
                self.emit(ch)
                self.i += 1
                if ch == "`":
                    self.stack.pop()
            else:  # inside ${...}
                self.brace(frame, ch)
        if len(self.stack) > 1 or self.pending:
            self.doubt = self.doubt or "quoting or a here-document is left open"
        return Lexed("".join(self.out), self.arithmetic, self.doubt)

    def backslash(self, frame: _Frame) -> None:
        text, i = self.text, self.i
        nxt = text[i + 1] if i + 1 < len(text) else ""
        if nxt == "\n":
            self.i += 2  # a line continuation: bash joins the two lines
            return
        if frame.kind == "`" and nxt == "\\" and text.startswith("\n", i + 2):
            self.doubt = "a line continuation inside backquotes"
        self.emit(text[i : i + 2])
        self.i += 2

    def expansion(self, frame: _Frame, in_dq: bool) -> bool:
        """Open ``$(``, ``${``, ``$((`` or a backquote at the cursor; False when none starts."""
        text, i = self.text, self.i
        if text.startswith("$((", i) and (end := arithmetic_end(text, i + 1)) > 0:
            self.replace_arithmetic(i + 3, end - 2, end, command=False)
            return True
        if text.startswith("$(", i):
            self.stack.append(_Frame("comsub"))
            self.emit("$(")
            self.i += 2
            return True
        if text.startswith("${", i):
            self.stack.append(_Frame("${", in_dq))
            self.emit("${")
            self.i += 2
            return True
        if text[i] == "`":
            self.stack.append(_Frame("`"))
            self.emit("`")
            self.i += 1
            return True
        return False

    def replace_arithmetic(self, start: int, stop: int, end: int, command: bool) -> None:
        body = self.text[start:stop]
        if "\\\n" in body:
            body = join_continuations(body).text
        name = f"{ARITH_MARK}{self.first + len(self.arithmetic)}"
        self.arithmetic.append(body)
        if not command:
            self.emit("${" + name + "}")
        elif self.previous_word() == "for":
            self.emit(f"{name} in 1")  # `for ((i=0; ...))`: the body is walked once
        else:
            self.emit(f': "${{{name}}}"')
        self.i = end

    def unquoted(self, frame: _Frame, ch: str) -> None:
        text, i = self.text, self.i
        if self.expansion(frame, False):
            return
        if ch == "'":
            self.stack.append(_Frame("'"))
        elif ch == '"':
            self.stack.append(_Frame('"'))
        elif text.startswith("$'", i):
            self.stack.append(_Frame("$'"))
            self.emit("$'")
            self.i += 2
            return
        elif frame.kind != "arith" and ch == "#" and self.at_word_start():
            end = text.find("\n", i)
            end = len(text) if end < 0 else end
            self.emit(text[i:end])
            self.i = end
            return
        elif (
            text.startswith("((", i)
            and self.at_word_start()
            and (end := arithmetic_end(text, i)) > 0
        ):
            self.replace_arithmetic(i + 2, end - 2, end, command=True)
            return
        elif ch in "<>" and text.startswith("(", i + 1):
            self.stack.append(_Frame("comsub"))
            self.emit(text[i : i + 2])
            self.i += 2
            return
        elif frame.kind != "top" and ch == "(":
            frame.depth += 1
        elif frame.kind != "top" and ch == ")":
            if frame.depth == 0:
                self.stack.pop()
            else:
                frame.depth -= 1
        elif frame.kind != "arith" and text.startswith("<<", i) and not text.startswith("<<<", i):
            self.here_operator()
            return
        elif ch == "\n" and self.pending:
            self.emit("\n")
            self.i += 1
            self.here_bodies()
            return
        if frame.kind == "comsub" and text.startswith("case", i) and self.at_word_start():
            self.doubt = self.doubt or "a case statement inside a command substitution"
        self.emit(ch)
        self.i += 1

    def double_quoted(self, ch: str) -> None:
        if self.expansion(self.stack[-1], True):
            return
        if ch == '"':
            self.stack.pop()
        self.emit(ch)
        self.i += 1

    def brace(self, frame: _Frame, ch: str) -> None:
        if self.expansion(frame, frame.in_dq):
            return
        if ch == "'" and not frame.in_dq:
            self.stack.append(_Frame("'"))
        elif ch == '"':
            self.stack.append(_Frame('"'))
        elif ch == "{":
            frame.depth += 1
        elif ch == "}":
            if frame.depth == 0:
                self.stack.pop()
            else:
                frame.depth -= 1
        self.emit(ch)
        self.i += 1

    def here_operator(self) -> None:
        text, n = self.text, len(self.text)
        strip_tabs = text.startswith("<<-", self.i)
        i = self.i + (3 if strip_tabs else 2)
        self.emit(text[self.i : i])
        while i < n and text[i] in " \t":
            self.emit(text[i])
            i += 1
        raw: list[str] = []
        quote = ""
        while i < n and (quote or text[i] not in _DELIM_END):
            ch = text[i]
            if text.startswith("\\\n", i):
                i += 2
                continue
            if quote:
                quote = "" if ch == quote else quote
            elif ch in "'\"":
                quote = ch
            elif ch == "\\" and i + 1 < n:
                raw.append(text[i : i + 2])
                i += 2
                continue
            raw.append(ch)
            i += 1
        word = "".join(raw)
        self.emit(word)
        self.i = i
        quoted = any(c in word for c in "'\"\\")
        plain = re.sub(r"\\(.)", r"\1", word.replace("'", "").replace('"', ""))
        if plain:
            self.pending.append((plain, quoted, strip_tabs))

    def here_bodies(self) -> None:
        text, n = self.text, len(self.text)
        for word, quoted, strip_tabs in self.pending:
            while self.i < n:
                line, self.i = _here_line(text, self.i, join=not quoted)
                self.emit(line + "\n")
                if (line.lstrip("\t") if strip_tabs else line) == word:
                    break
        self.pending = []
        if self.out and self.i >= n and self.out[-1].endswith("\n") and not text.endswith("\n"):
            self.out[-1] = self.out[-1][:-1]


def _here_line(text: str, i: int, join: bool) -> tuple[str, int]:
    """One here-document line from ``i`` (continuations joined when the body is expanded)."""
    out: list[str] = []
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "\n":
            return "".join(out), i + 1
        if join and ch == "\\" and i + 1 < n:
            if text[i + 1] != "\n":
                out.append(text[i : i + 2])
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out), n


def join_continuations(text: str, first: int = 0) -> Lexed:
    """Join ``\\<newline>`` as bash does and replace arithmetic; a fast no-op for plain text."""
    if "\\\n" not in text and "((" not in text:
        return Lexed(text, [], None)
    return _Lexer(text, first).run()
