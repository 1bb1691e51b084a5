"""Text-level helpers for shell parsing: hidden characters, quoting, here-documents.

bashlex gets the grammar right but not every lexical detail: it keeps quotes
in words like ``"r"'m'``, does not decode ``$'\\x72m'`` and rejects quoted
here-document delimiters. These helpers fill those gaps.
"""

from __future__ import annotations

import re
import shlex
import unicodedata
from typing import NamedTuple

HEREDOC_MARK = "MEWCODE_EOF"

_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cs"})


def hidden_character(text: str) -> str | None:
    """Describe the first control or invisible character in ``text`` (tab and newline are fine)."""
    for ch in text:
        if ch in "\t\n" or " " <= ch <= "~":
            continue
        category = unicodedata.category(ch)
        if category in _HIDDEN_CATEGORIES or (category == "Zs" and ch != " "):
            name = unicodedata.name(ch, "control character")
            return f"U+{ord(ch):04X} {name}"
    return None


_ANSI_SIMPLE = {
    "a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n", "r": "\r",
    "t": "\t", "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?",
}  # fmt: skip
_ANSI_ESCAPE = re.compile(
    r"\\(?:([abeEfnrtv\\'\"?])|([0-7]{1,3})|x([0-9A-Fa-f]{1,2})|u([0-9A-Fa-f]{1,4})"
    r"|U([0-9A-Fa-f]{1,8})|c(.))",
    re.DOTALL,
)


def _decode_ansi_c(body: str) -> str:
    """Decode the inside of a bash ``$'...'`` string."""

    def one(m: re.Match[str]) -> str:
        simple, octal, hx, u4, u8, ctrl = m.groups()
        if simple:
            return _ANSI_SIMPLE[simple]
        if ctrl:
            return chr(ord(ctrl) & 0x1F)
        number = int(octal, 8) if octal else int(hx or u4 or u8, 16)
        return chr(min(number, 0x10FFFF))

    return _ANSI_ESCAPE.sub(one, body)


_PRINT_ESCAPE = re.compile(
    r"\\(?:([abeEfnrtv\\'\"?])|(0[0-7]{0,3}|[0-7]{1,3})|x([0-9A-Fa-f]{1,2})|u([0-9A-Fa-f]{1,4})"
    r"|U([0-9A-Fa-f]{1,8})|(c))",
    re.DOTALL,
)


def decode_escapes(text: str, echo: bool) -> str:
    """Backslash escapes as ``echo -e``/``%b`` (echo=True) or a printf format decode them."""
    out: list[str] = []
    pos = 0
    for m in _PRINT_ESCAPE.finditer(text):
        out.append(text[pos : m.start()])
        pos = m.end()
        simple, octal, hx, u4, u8, stop = m.groups()
        if stop:
            return "".join(out)  # \c: no further output
        if simple:
            out.append(m.group(0) if echo and simple in "'\"?" else _ANSI_SIMPLE[simple])
        elif octal is not None:
            if echo and not octal.startswith("0"):
                out.append(m.group(0))  # echo only knows \0NNN
                continue
            digits, extra = (octal[1:], "") if echo else (octal[:3], octal[3:])
            out.append(chr(int(digits or "0", 8) & 0xFF) + extra)
        else:
            out.append(chr(min(int(hx or u4 or u8, 16), 0x10FFFF)))
    out.append(text[pos:])
    return "".join(out)


def _expand_ansi_c(raw: str) -> str:
    """Replace ``$'...'`` segments with plain single-quoted text; ``$"..."`` loses its ``$``."""
    out: list[str] = []
    i, n = 0, len(raw)
    quote = ""
    while i < n:
        ch = raw[i]
        if quote == "'":
            out.append(ch)
            quote = "" if ch == "'" else quote
        elif ch == "\\" and i + 1 < n:
            out.append(raw[i : i + 2])
            i += 1
        elif quote == '"':
            out.append(ch)
            quote = "" if ch == '"' else quote
        elif ch == "$" and raw.startswith("$'", i):
            j = i + 2
            while j < n and raw[j] != "'":
                j += 2 if raw[j] == "\\" else 1
            out.append(shlex.quote(_decode_ansi_c(raw[i + 2 : j])))
            i = j
        elif ch == "$" and raw.startswith('$"', i):
            pass  # locale translation: the rest is an ordinary double-quoted string
        else:
            out.append(ch)
            quote = ch if ch in "'\"" else ""
        i += 1
    return "".join(out)


def unquote(raw: str) -> str | None:
    """Quote removal as bash does it for one word; None when the word is not one token."""
    text = _expand_ansi_c(raw) if "$" in raw else raw
    try:
        tokens = shlex.split(text, comments=False, posix=True)
    except ValueError:
        return None
    if len(tokens) == 1:
        return tokens[0]
    return "" if not tokens and raw.strip() in ("''", '""') else None


class HereDoc(NamedTuple):
    body: str
    quoted: bool  # a quoted delimiter means the body is plain data (no expansions)


class PreparedText(NamedTuple):
    text: str  # the command with here-document bodies removed
    heredocs: list[HereDoc]


_DELIM_END = frozenset(" \t\n;&|<>()")


def _read_delimiter(text: str, i: int) -> tuple[str, bool, int]:
    """Read a here-document delimiter word starting at ``i``; returns (word, quoted, end)."""
    n = len(text)
    while i < n and text[i] in " \t":
        i += 1
    start, quote = i, ""
    while i < n and (quote or text[i] not in _DELIM_END):
        ch = text[i]
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "\\":
            i += 1
        i += 1
    raw = text[start:i]
    quoted = any(c in raw for c in "'\"\\")
    word = unquote(raw) if quoted else raw
    return word or "", quoted, i


def prepare_heredocs(text: str) -> PreparedText:
    """Cut here-document bodies out of ``text`` so bashlex can parse the rest.

    Each operator is rewritten to an unquoted marker delimiter with an empty body.
    The caller checks that bashlex found every marker where a redirect belongs;
    a mismatch means this light scanner misread the quoting.
    """
    if "<<" not in text:
        return PreparedText(text, [])
    out: list[str] = []
    docs: list[HereDoc] = []
    pending: list[tuple[str, bool, bool]] = []  # (delimiter, quoted, strip_tabs)
    i, n, quote = 0, len(text), ""
    while i < n:
        ch = text[i]
        if quote:
            out.append(ch)
            if ch == "\\" and quote == '"' and i + 1 < n:
                out.append(text[i + 1])
                i += 1
            elif ch == quote:
                quote = ""
            i += 1
            continue
        if ch == "\\" and i + 1 < n:
            out.append(text[i : i + 2])
            i += 2
            continue
        if ch in "'\"`":
            quote = ch
        elif ch == "#" and (i == 0 or text[i - 1] in " \t\n;&|("):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append(text[i:end])
            i = end
            continue
        elif text.startswith("<<", i) and not text.startswith("<<<", i):
            strip_tabs = text.startswith("<<-", i)
            word, quoted, end = _read_delimiter(text, i + (3 if strip_tabs else 2))
            if not word:
                return PreparedText(text, [])
            out.append(f"<<{HEREDOC_MARK}{len(docs) + len(pending)} ")
            pending.append((word, quoted, strip_tabs))
            i = end
            continue
        elif ch == "\n" and pending:
            out.append("\n")
            i += 1
            for word, quoted, strip_tabs in pending:
                body: list[str] = []
                while True:
                    if i >= n:
                        return PreparedText(text, [])
                    end = text.find("\n", i)
                    end = n if end < 0 else end
                    line = text[i:end]
                    i = end + 1
                    if (line.lstrip("\t") if strip_tabs else line) == word:
                        break
                    body.append(line)
                out.append(f"{HEREDOC_MARK}{len(docs)}\n")
                docs.append(HereDoc("\n".join(body), quoted))
            pending = []
            continue
        out.append(ch)
        i += 1
    if pending:
        return PreparedText(text, [])
    return PreparedText("".join(out), docs)


_SUBSTITUTION = re.compile(
    r"\$\(((?:[^()]|\([^()]*\))*)\)|`([^`]*)`|[<>]\(((?:[^()]|\([^()]*\))*)\)"
)


def substitutions(text: str) -> list[str]:
    """Best-effort inner texts of ``$(...)``, backticks and ``<(...)`` found in raw text."""
    return [a or b or c for a, b, c in _SUBSTITUTION.findall(text) if (a or b or c).strip()]


def fallback_tokens(text: str) -> tuple[list[str], bool]:
    """Tokenize with shlex (operators as their own tokens); returns (tokens, balanced)."""
    lexer = shlex.shlex(text, posix=True, punctuation_chars=";&|()<>\n")
    lexer.whitespace = " \t\r"
    lexer.whitespace_split = True  # every other character belongs to a word, as in bash
    lexer.commenters = ""  # a misread comment could hide the rest of a line
    try:
        return list(lexer), True
    except ValueError:
        return text.split(), False
