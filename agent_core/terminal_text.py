"""Untrusted text made safe to show on a terminal: control and invisible characters escaped.

Whatever a repository, an MCP server, a hook or a program controls can carry terminal
escape sequences (an OSC 52 clipboard write, a screen erase) or invisible and
bidirectional characters that make what is shown differ from what is there. Neither a
plain write to stdout nor Textual (which strips only BEL, BS, VT, FF and CR) stops an
ESC from reaching the terminal. ``visible_text`` shows each such character as an escape
instead (``\\x1b``, ``\\u202e``), so the user sees that something was there; all other
text (é, 中文, emoji) is returned unchanged. It is applied where text is shown, never
where it is stored or sent to the model: those keep the exact bytes.
"""

from __future__ import annotations

import re
import unicodedata

# Categories never shown raw: controls (C0, DEL, C1), format characters (zero-width,
# bidirectional overrides and isolates, BOM, tags), lone surrogates (a file name that is
# not UTF-8; writing one raises) and the line and paragraph separators.
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
# Invisible characters outside those categories: the combining grapheme joiner, the
# Hangul and Khmer fillers that print as nothing, and the unassigned U+2065 inside the
# invisible-operator block.
_HIDDEN_EXTRA = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u2065\u3164\uffa0")
_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}
_ZWJ = "\u200d"
_VARIATION_SELECTOR_16 = "\ufe0f"
# Everything but printable ASCII is looked at (one run at a time); the rest is fast.
_LOOK_AT = re.compile(r"[^\x20-\x7e]+")
_LOOK_AT_MULTILINE = re.compile(r"[^\x20-\x7e\n\t]+")


def visible_text(text: str, *, multiline: bool = False) -> str:
    """``text`` with every control, format or invisible character shown escaped.

    With ``multiline``, newline and tab stay as they are and CRLF becomes a newline;
    otherwise they are escaped too (``\\n``, ``\\t``), so the text stays on one line.
    """
    if multiline:
        if "\r" in text:
            text = text.replace("\r\n", "\n")
        return _LOOK_AT_MULTILINE.sub(_escape_run, text)
    return _LOOK_AT.sub(_escape_run, text)


def is_hidden(char: str) -> bool:
    """Whether ``char`` (one character) is never shown raw."""
    return unicodedata.category(char) in _HIDDEN_CATEGORIES or char in _HIDDEN_EXTRA


def _escape_run(match: re.Match[str]) -> str:
    run, start, whole = match.group(), match.start(), match.string
    if run.isprintable() and _HIDDEN_EXTRA.isdisjoint(run):
        return run  # 中文, é, 🐱: printable (no control, format or separator among them)
    out = []
    for offset, char in enumerate(run):
        if not is_hidden(char):
            out.append(char)
        elif char == _ZWJ and _joins_emoji(whole, start + offset):
            out.append(char)  # 👩‍💻: a joiner between two emoji only joins their pictures
        else:
            out.append(_escape(char))
    return "".join(out)


def _joins_emoji(text: str, at: int) -> bool:
    """A zero-width joiner at ``at`` between an emoji (or its modifier) and an emoji."""
    before = text[at - 1] if at > 0 else ""
    after = text[at + 1] if at + 1 < len(text) else ""
    if not before or not after or unicodedata.category(after) != "So":
        return False
    return before == _VARIATION_SELECTOR_16 or unicodedata.category(before) in ("So", "Sk")


def _escape(char: str) -> str:
    code = ord(char)
    if char in _NAMED:
        return _NAMED[char]
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"
