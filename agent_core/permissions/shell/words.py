"""Words as bash expands them: quote removal, tilde, brace lists, and values known in the line.

A variable assigned a literal earlier in the same command line (``X=/``, a
``for t in ~ /`` loop) and a substitution whose output is known
(``$(echo /)``) are put in place, so ``X=/; rm -rf $X`` is judged as
``rm -rf /``. Everything else stays a dynamic word.
"""

from __future__ import annotations

import re
import shlex
from typing import NamedTuple

from agent_core.permissions.shell.expansions import Expansion, expansions
from agent_core.permissions.shell.lexer import ARITH_MARK
from agent_core.permissions.shell.text import unquote
from agent_core.permissions.shell.wrappers import Word

_BRACE_LIST = re.compile(r"^([^{}'\"\\$`]*)\{([^{}'\"\\$`]*,[^{}'\"\\$`]*)\}([^{}'\"\\$`]*)$")
_PLAIN_VALUE = re.compile(r"^[A-Za-z0-9_./:@%+=,*?\[\]-]+$")
_HOME_VALUE = "$HOME"
_MANY = re.compile(r"^(?:[@*]|[A-Za-z_][A-Za-z0-9_]*\[[@*]\]|![A-Za-z_][A-Za-z0-9_]*[@*])$")


class Known(NamedTuple):
    """Values the expansions of a word take, when the command line itself decides them."""

    values: dict[str, str | None]  # variable -> literal value; None when set to unknown
    outputs: dict[int, str]  # raw offset of a $(...)/`...` -> what it prints
    pwd: str | None = None  # the directory the word is expanded in, when known


NOTHING_KNOWN = Known({}, {})


def tilde_value(text: str) -> str:
    """A value as bash stores it after tilde expansion (home is kept as ``$HOME``)."""
    if text == "~" or text.startswith("~/"):
        return _HOME_VALUE + text[1:]
    if text.startswith("~") and re.match(r"^~[A-Za-z0-9_.-]+(/|$)", text):
        return "/home/" + text[1:]
    return text


def _quoted_for(value: str, in_dq: bool) -> str:
    """``value`` written so quote removal gives it back (inside "..." when ``in_dq``)."""
    if in_dq:
        return re.sub(r'(["\\])', r"\\\1", value)  # quote removal here is shlex, not bash
    return value if _PLAIN_VALUE.match(value) else shlex.quote(value)


def expand_word(raw: str, fallback: str, known: Known = NOTHING_KNOWN) -> list[Word]:
    """The words one raw shell word becomes (more than one for brace lists and split values)."""
    found, _balanced = expansions(raw)
    if not found:
        return _literal_words(raw, fallback)
    pieces: list[str] = []
    pos = 0
    dynamic = split = home = False
    for exp in found:
        pieces.append(raw[pos : exp.start])
        pos = exp.end
        value = _known_value(exp, known)
        if value is None:
            pieces.append(raw[exp.start : exp.end])
            dynamic = True
            # "$@" and "${a[@]}" become several words even inside quotes
            split = split or not exp.quoted or bool(_MANY.match(exp.body))
            continue
        # A substitution's output stays dynamic: known to the blacklist, never to allow rules.
        computed = exp.kind in ("comsub", "backtick")
        home = home or _HOME_VALUE in value or computed
        if not exp.quoted and not _PLAIN_VALUE.match(value):
            if raw == raw[exp.start : exp.end] and value.split():
                return [Word(v, computed or _HOME_VALUE in v) for v in value.split()]  # splitting
            if re.search(r"\s", value) or not value:
                pieces.append(raw[exp.start : exp.end])
                dynamic = split = True
                continue
        pieces.append(_quoted_for(value, exp.quoted))
    pieces.append(raw[pos:])
    new_raw = "".join(pieces)
    text = unquote(new_raw)
    if text is None:
        return [Word(fallback, True, split or dynamic)]
    if text.startswith("~") and raw[:1] in ("'", '"', "\\"):
        text = "./" + text
    return [Word(text, dynamic or home, split)]


def _known_value(exp: Expansion, known: Known) -> str | None:
    kind, body, start = exp.kind, exp.body, exp.start
    if kind in ("var", "param") and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", body):
        if body.startswith(ARITH_MARK):
            return None
        if body == "PWD" and body not in known.values:
            return known.pwd
        return known.values.get(body)
    if kind in ("comsub", "backtick") and start in known.outputs:
        return known.outputs[start].rstrip("\n")
    return None


def _literal_words(raw: str, fallback: str) -> list[Word]:
    text = unquote(raw)
    if text is None:
        text = fallback
    elif text.startswith("~") and raw[:1] in ("'", '"', "\\"):
        text = "./" + text  # a quoted tilde is a literal name, not the home directory
    match = _BRACE_LIST.match(raw)
    if not match:
        return [Word(text)]
    head, items, tail = match.groups()
    return [Word(head + item + tail) for item in items.split(",")]
