"""Bash rule specifiers against one simple command.

Allow rules match the command's text exactly (``bash_matches``); deny and ask rules
match whatever the command could run (``bash_could_match``): a word built at run
time (``$X``, ``$(..)``) stands for any text there.
"""

from __future__ import annotations

import functools
import re
import shlex

from agent_core.permissions.actions import Action
from agent_core.permissions.shell.file_args import split_git
from agent_core.permissions.shell.wrappers import Word, basename

_SHELL_SAFE = re.compile(r"^[^\s'\"\\]+$")


def shell_word(text: str) -> str:
    """A word as rule text: quoted only when it holds spaces, quotes or backslashes."""
    if text == "":
        return "''"
    return text if _SHELL_SAFE.match(text) else shlex.quote(text)


def command_text(words: tuple[Word, ...] | list[Word]) -> str:
    """The normalized text rules match a simple command against."""
    return " ".join(shell_word(w.text) for w in words)


def _normalized_specifier(spec: str) -> str:
    """A Bash specifier in the form command texts are compared in: ``git:*`` is ``git *``,
    words re-quoted as ``command_text`` quotes them, a safe word's ``*`` kept as a wildcard."""
    text = spec.strip()
    if text.endswith(":*"):
        text = text[:-2].rstrip() + " *"
    try:
        tokens = shlex.split(text)
    except ValueError:
        tokens = text.split()
    return " ".join(t if "*" in t and _SHELL_SAFE.match(t) else shell_word(t) for t in tokens)


@functools.lru_cache(maxsize=1024)
def _bash_pattern(spec: str) -> re.Pattern[str]:
    normalized = _normalized_specifier(spec)
    tail = ""
    if normalized.endswith(" *"):
        normalized, tail = normalized[:-2], "(?: .*)?"
    body = ".*".join(re.escape(piece) for piece in normalized.split("*"))
    return re.compile(body + tail, re.DOTALL)


def bash_matches(spec: str | None, texts: list[str]) -> bool:
    """Whether a Bash specifier matches any of the command's texts."""
    if spec is None:
        return True
    pattern = _bash_pattern(spec)
    return any(pattern.fullmatch(text) for text in texts)


# --- Matching words built at run time ---------------------------------------------------

_WILD = None  # a position that may hold any text (a word built at run time)
_Template = tuple[str | None, ...]


def _expansion_end(text: str, i: int) -> int:
    """Index after the expansion starting at ``text[i]`` (``$X``, ``${..}``, ``$(..)``, backticks)."""
    if text[i] == "`":
        end = text.find("`", i + 1)
        return len(text) if end < 0 else end + 1
    if text.startswith(("$(", "${"), i):
        opening, closing = text[i + 1], ")" if text[i + 1] == "(" else "}"
        depth, j = 0, i + 1
        while j < len(text):
            if text[j] == opening:
                depth += 1
            elif text[j] == closing:
                depth -= 1
                if depth == 0:
                    return j + 1
            j += 1
        return len(text)
    match = re.compile(r"\$(?:[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])").match(text, i)
    return match.end() if match else i + 1


def _word_template(word: Word) -> list[str | None]:
    """A word as characters, with every expansion in it standing for any text."""
    if not word.dynamic:
        return list(shell_word(word.text))
    out: list[str | None] = []
    i = 0
    text = word.text
    while i < len(text):
        if text[i] == "`" or (text[i] == "$" and i + 1 < len(text)):
            end = _expansion_end(text, i)
            if end > i + 1 or text[i] == "`":
                if not out or out[-1] is not _WILD:
                    out.append(_WILD)
                i = end
                continue
        out.append(text[i])
        i += 1
    return out


def _template(words: list[Word]) -> _Template:
    out: list[str | None] = []
    for index, word in enumerate(words):
        if index:
            out.append(" ")
        out.extend(_word_template(word))
    return tuple(out)


@functools.lru_cache(maxsize=1024)
def _pattern_templates(spec: str) -> tuple[_Template, ...]:
    """A Bash specifier as templates: ``*`` is any text; a trailing `` *`` is optional."""
    normalized = _normalized_specifier(spec)
    variants = [normalized]
    if normalized.endswith(" *"):
        variants = [normalized[:-2], normalized]
    return tuple(tuple(_WILD if c == "*" else c for c in v) for v in variants)


def could_match(pattern: _Template, text: _Template) -> bool:
    """Whether some string fits both templates (each ``_WILD`` stands for any text)."""
    if _WILD not in text:
        spec_like = "".join("*" if c is _WILD else c for c in pattern)
        body = ".*".join(re.escape(piece) for piece in spec_like.split("*"))
        return re.fullmatch(body, "".join(c for c in text if c is not None), re.DOTALL) is not None
    seen: set[tuple[int, int]] = set()
    stack = [(0, 0)]
    while stack:
        i, j = stack.pop()
        if (i, j) in seen:
            continue
        seen.add((i, j))
        if i == len(pattern) and j == len(text):
            return True
        if i < len(pattern) and pattern[i] is _WILD:
            stack.append((i + 1, j))
            if j < len(text):
                stack.append((i, j + 1))
        elif j < len(text) and text[j] is _WILD:
            stack.append((i, j + 1))
            if i < len(pattern):
                stack.append((i + 1, j))
        elif i < len(pattern) and j < len(text) and pattern[i] == text[j]:
            stack.append((i + 1, j + 1))
    return False


def _bash_views(action: Action, aliases: frozenset[str] = frozenset()) -> list[list[Word]]:
    """The command as rules see it, and normalised: program basename, wrappers, git globals."""
    cmd = action.command
    if cmd is None:
        return []
    views = [list(cmd.words)]
    words = list(cmd.words)
    first = next((i for i, w in enumerate(words) if "=" not in w.text.split("/")[0]), 0)
    if words:
        words[first] = Word(basename(words[first].text), words[first].dynamic)
    views += [words, list(cmd.argv)]
    if cmd.name == "git":
        views.append(_without_git_globals(list(cmd.argv), aliases))
    return views


def bash_texts(action: Action, permissive: bool) -> list[str]:
    """The command's texts rules match: as written when ``permissive``, else every view."""
    views = _bash_views(action)
    if permissive:
        views = views[:1]
    return [command_text(v) for v in views]


def _without_git_globals(argv: list[Word], configured: frozenset[str] = frozenset()) -> list[Word]:
    """``git -C x -c k=v --no-pager push`` -> ``git push``, so deny rules still see the push.

    A subcommand that an alias defines (``-c alias.NAME=...``, ``--config-env``, or the
    ``[alias]`` section of a git config file) could run anything: it is a wildcard.
    """
    call = split_git(argv[1:])
    rest = list(argv[len(argv) - len(call.args) - 1 :]) if call.sub else []
    if call.sub and rest:
        aliases = set(configured) | {
            v.text.split("=", 1)[0][len("alias.") :].lower()
            for o, v in call.globals_
            if o in ("-c", "--config-env") and v is not None and v.text.lower().startswith("alias.")
        }
        if rest[0].dynamic or rest[0].text.lower() in aliases:
            rest[0] = Word("$ALIAS", True)
    return [argv[0], *rest]


def bash_could_match(spec: str | None, action: Action, aliases: frozenset[str]) -> bool:
    """Deny/ask matching: true when the rule matches what could run (dynamic words are wild)."""
    if spec is None:
        return action.command is not None
    patterns = _pattern_templates(spec)
    texts = {_template(view) for view in _bash_views(action, aliases)}
    return any(could_match(p, t) for p in patterns for t in texts)
