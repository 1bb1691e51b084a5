"""Split a shell command the way bash would run it: every simple command, every redirect.

bashlex does the parsing; shlex is the fallback for syntax bashlex rejects.
Anything neither can read with certainty (a variable used as a command, eval
of a computed string, hidden characters...) is reported in ``uncertain`` so
the engine asks a human instead of allowing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from agent_core.permissions.shell_flow import literal_output, next_cwd, reads_program_from_stdin
from agent_core.permissions.shell_model import ParsedCommand, Redirect, SimpleCommand
from agent_core.permissions.shell_text import (
    HEREDOC_MARK,
    HereDoc,
    fallback_tokens,
    hidden_character,
    prepare_heredocs,
    substitutions,
    unquote,
)
from agent_core.permissions.shell_wrappers import Assignment, Word, unwrap

__all__ = ["ParsedCommand", "Redirect", "SimpleCommand", "parse_command"]

MAX_DEPTH = 6  # nested bash -c / eval / $(...) levels before giving up
MAX_LENGTH = 100_000
_BRACE_LIST = re.compile(r"^([^{}'\"\\$`]*)\{([^{}'\"\\$`]*,[^{}'\"\\$`]*)\}([^{}'\"\\$`]*)$")


@dataclass
class _Ctx:
    cwd: str = ""
    upstream: tuple[str, ...] = ()
    stdin: str | None = None  # literal text fed to this part (echo ... |, here-document)
    heredocs: tuple[HereDoc, ...] = ()  # bodies cut out of the text being walked


@dataclass
class _State:
    commands: list[SimpleCommand] = field(default_factory=list)
    redirects: list[Redirect] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    uncertain: list[str] = field(default_factory=list)
    last_stdout: str | None = None  # what the last simple command prints, when known

    def doubt(self, reason: str) -> None:
        if reason not in self.uncertain:
            self.uncertain.append(reason)


def parse_command(command: str) -> ParsedCommand:
    """Parse a Bash tool command into simple commands and redirects."""
    state = _State()
    if bad := hidden_character(command):
        state.doubt(f"the command contains a hidden character ({bad})")
    if len(command) > MAX_LENGTH:
        state.doubt("the command is too long to check")
        _fallback(command, state, _Ctx(), 0)
    else:
        _parse_text(command, state, _Ctx(), 0)
    return ParsedCommand(state.commands, state.redirects, state.texts, state.uncertain)


def _parse_text(text: str, state: _State, ctx: _Ctx, depth: int) -> None:
    state.texts.append(text)
    if depth > MAX_DEPTH:
        state.doubt("commands are nested too deeply to check")
        return
    if depth and (bad := hidden_character(text)):
        state.doubt(f"a nested command contains a hidden character ({bad})")
    if all(not line.strip() or line.lstrip().startswith("#") for line in text.splitlines()):
        return  # blank or comment-only: nothing runs
    prepared = prepare_heredocs(text)
    for doc in prepared.heredocs:
        inner = substitutions(doc.body) if not doc.quoted else []
        for sub in inner:
            state.doubt("a here-document runs a command substitution")
            _parse_text(sub, state, replace(ctx, upstream=()), depth + 1)
    import bashlex  # local: only the engine needs it

    try:
        trees = bashlex.parse(prepared.text)
    except Exception:  # bashlex raises several unrelated types on syntax it lacks
        _fallback(text, state, ctx, depth)
        return
    if prepared.heredocs and _count_markers(trees) != len(prepared.heredocs):
        state.doubt("a here-document could not be read with certainty")
        _fallback(text, state, ctx, depth)
        return
    walk_ctx = replace(ctx, heredocs=tuple(prepared.heredocs)) if prepared.heredocs else ctx
    for tree in trees:
        _walk(tree, prepared.text, state, walk_ctx, depth)


def _children(node: Any) -> list[Any]:
    found: list[Any] = []
    for attr in ("parts", "list", "redirects"):
        found.extend(getattr(node, attr, None) or [])
    for attr in ("command", "output", "body"):
        child = getattr(node, attr, None)
        if child is not None and hasattr(child, "kind"):
            found.append(child)
    return found


def _count_markers(trees: list[Any]) -> int:
    count, stack = 0, list(trees)
    while stack:
        node = stack.pop()
        if getattr(node, "kind", "") == "redirect" and node.type in ("<<", "<<-"):
            out = node.output
            count += getattr(out, "word", "").startswith(HEREDOC_MARK)
        stack.extend(_children(node))
    return count


def _walk(node: Any, src: str, state: _State, ctx: _Ctx, depth: int) -> list[str]:
    """Visit one bashlex node; returns the programs it runs (for pipeline tracking)."""
    kind = node.kind
    names: list[str] = []
    if kind == "command":
        return _command(node, src, state, ctx, depth)
    if kind == "list":
        for part in node.parts:
            names += _walk(part, src, state, ctx, depth)
    elif kind == "pipeline":
        upstream = list(ctx.upstream)
        stdin = ctx.stdin
        for part in node.parts:
            if part.kind in ("pipe", "reservedword"):
                continue
            before = len(state.commands)
            inner = replace(ctx, upstream=tuple(upstream), stdin=stdin)
            got = _walk(part, src, state, inner, depth)
            made = state.commands[before:]
            stdin = state.last_stdout if len(made) == 1 else None
            names += got
            upstream += got
    elif kind == "compound":
        first = node.list[0] if node.list else None
        subshell = first is not None and first.kind == "reservedword" and first.word == "("
        inner = replace(ctx) if subshell else ctx
        for part in node.list:
            if part.kind != "reservedword":
                names += _walk(part, src, state, inner, depth)
        for redirect in getattr(node, "redirects", None) or []:
            names += _redirect(redirect, src, state, ctx, depth)
    elif kind in ("if", "for", "while", "until"):
        for part in node.parts:
            if part.kind == "word":
                names += _substitutions_in(part, src, state, ctx, depth)
            elif part.kind != "reservedword":
                names += _walk(part, src, state, ctx, depth)
    elif kind == "function":
        # A definition runs nothing yet, but its body is what a later call runs.
        names += _walk(node.body, src, state, replace(ctx), depth)
    elif kind == "word":
        names += _substitutions_in(node, src, state, ctx, depth)
    elif kind not in ("operator", "pipe", "reservedword"):
        state.doubt(f"unsupported shell syntax ({kind})")
    return names


def _substitutions_in(node: Any, src: str, state: _State, ctx: _Ctx, depth: int) -> list[str]:
    names: list[str] = []
    for part in getattr(node, "parts", None) or []:
        if part.kind in ("commandsubstitution", "processsubstitution"):
            inner = replace(ctx, upstream=(), stdin=None)
            names += _walk(part.command, src, state, inner, depth)
    return names


def _is_dynamic(node: Any) -> bool:
    for part in getattr(node, "parts", None) or []:
        if part.kind in ("commandsubstitution", "processsubstitution"):
            return True
        if part.kind == "parameter" and getattr(part, "value", None):
            return True
    return False


def _word(node: Any, src: str) -> Word:
    raw = src[node.pos[0] : node.pos[1]]
    text = unquote(raw)
    if text is None:
        text = node.word
    elif text.startswith("~") and raw[:1] in ("'", '"', "\\"):
        text = "./" + text  # a quoted tilde is a literal name, not the home directory
    return Word(text, _is_dynamic(node))


def _words(node: Any, src: str) -> list[Word]:
    """One word, or the words an unquoted brace list expands to (``{rm,-rf,x}``)."""
    word = _word(node, src)
    raw = src[node.pos[0] : node.pos[1]]
    match = _BRACE_LIST.match(raw)
    if word.dynamic or not match:
        return [word]
    head, items, tail = match.groups()
    return [Word(head + item + tail) for item in items.split(",")]


def _redirect(node: Any, src: str, state: _State, ctx: _Ctx, depth: int) -> list[str]:
    out = node.output
    if not hasattr(out, "kind"):
        return []  # fd duplication such as 2>&1 or >&-
    names = _substitutions_in(out, src, state, ctx, depth)
    if node.type in ("<<", "<<-", "<<<"):
        return names
    write = node.type != "<" and node.type != "<&"
    if node.type == "<&" and out.word.isdigit():
        return names
    state.redirects.append(Redirect(node.type, _word(out, src), ctx.cwd, write))
    return names


def _fed_text(node: Any, src: str, ctx: _Ctx) -> str | None:
    """The literal text a here-document or here-string feeds to the command's stdin."""
    out = node.output
    if node.type in ("<<", "<<-") and getattr(out, "word", "").startswith(HEREDOC_MARK):
        index = int(out.word[len(HEREDOC_MARK) :])
        return ctx.heredocs[index].body if index < len(ctx.heredocs) else None
    if node.type == "<<<" and hasattr(out, "kind") and not _is_dynamic(out):
        return _word(out, src).text
    return None


def _command(node: Any, src: str, state: _State, ctx: _Ctx, depth: int) -> list[str]:
    assignments: list[Assignment] = []
    words: list[Word] = []
    spliced: list[str] = []
    stdin = ctx.stdin
    for part in node.parts:
        if part.kind == "redirect" and (fed := _fed_text(part, src, ctx)) is not None:
            stdin = fed
    for part in node.parts:
        if part.kind == "assignment" and not words:
            raw = src[part.pos[0] : part.pos[1]]
            name, _, value = raw.partition("=")
            plain = unquote(value) if value else ""
            plain = part.word.partition("=")[2] if plain is None else plain
            assignments.append(Assignment(name, plain, _is_dynamic(part)))
            spliced += _substitutions_in(part, src, state, ctx, depth)
        elif part.kind in ("word", "assignment"):
            words.extend(_words(part, src))
            spliced += _substitutions_in(part, src, state, ctx, depth)
        elif part.kind == "redirect":
            spliced += _redirect(part, src, state, ctx, depth)
    text = src[node.pos[0] : node.pos[1]]
    return _emit(assignments, words, spliced, state, ctx, depth, text, stdin)


def _emit(
    assignments: list[Assignment],
    words: list[Word],
    spliced: list[str],
    state: _State,
    ctx: _Ctx,
    depth: int,
    text: str,
    stdin: str | None = None,
) -> list[str]:
    """Record one simple command (and what it runs in turn); returns the program names."""
    if not words:
        return spliced
    found = unwrap(assignments, words)
    for reason in found.uncertain:
        state.doubt(reason)
    names: list[str] = []
    for nested, _literal in found.nested_texts:
        before = len(state.commands)
        _parse_text(nested, state, replace(ctx), depth + 1)
        names += [c.name for c in state.commands[before:]]
    for argv in found.nested_argvs:
        names += _emit([], argv, [], state, replace(ctx), depth + 1, " ".join(w.text for w in argv))
    if found.keeps_outer and found.argv:
        state.commands.append(
            SimpleCommand(
                tuple(found.argv),
                tuple(found.rule_words),
                ctx.cwd,
                ctx.upstream,
                tuple(spliced),
                text,
            )
        )
        names.insert(0, found.argv[0].text)
    if stdin and reads_program_from_stdin(found.argv):
        before = len(state.commands)
        _parse_text(stdin, state, replace(ctx, upstream=(), stdin=None), depth + 1)
        names += [c.name for c in state.commands[before:]]
    if found.argv:
        ctx.cwd = next_cwd(found.argv, ctx.cwd)
    state.last_stdout = literal_output(found.argv, stdin)
    return names


_SEPARATOR_CHARS = frozenset(";&|()\n")
_KEYWORDS = frozenset({
    "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "for", "case",
    "esac", "select", "function", "coproc", "{", "}",
})  # fmt: skip


def _fallback(text: str, state: _State, ctx: _Ctx, depth: int) -> None:
    """shlex reading for syntax bashlex rejects; certain only for plain command lists."""
    tokens, balanced = fallback_tokens(text)
    if not balanced:
        state.doubt("the command has unbalanced quotes")
    if any(mark in text for mark in ("$(", "`", "<(", ">(")):
        state.doubt("a command substitution could not be read with certainty")
        for inner in substitutions(text):
            _parse_text(inner, state, replace(ctx, upstream=()), depth + 1)
    if "<<" in text.replace("<<<", ""):
        state.doubt("a here-document could not be read with certainty")
    part: list[str] = []
    upstream: list[str] = list(ctx.upstream)
    stdin = ctx.stdin
    for token in [*tokens, ";"]:
        if token and set(token) <= _SEPARATOR_CHARS:
            if "(" in token or ")" in token:
                state.doubt("subshell or case syntax the parser could not read")
            before = len(state.commands)
            inner = replace(ctx, upstream=tuple(upstream), stdin=stdin)
            names = _fallback_part(part, state, inner, depth)
            made = state.commands[before:]
            piped = token.strip() in ("|", "|&")
            upstream = upstream + names if piped else list(ctx.upstream)
            stdin = state.last_stdout if piped and len(made) == 1 else None
            part = []
        else:
            part.append(token)


def _fallback_part(tokens: list[str], state: _State, ctx: _Ctx, depth: int) -> list[str]:
    i = 0
    while i < len(tokens) and (tokens[i] in _KEYWORDS or tokens[i] == "!"):
        if tokens[i] != "!":
            state.doubt(f"shell syntax the parser could not read ({tokens[i]})")
        i += 1
    assignments: list[Assignment] = []
    words: list[Word] = []
    while i < len(tokens):
        token = tokens[i]
        if ("<" in token or ">" in token) and set(token) <= set("<>&|"):
            target = tokens[i + 1] if i + 1 < len(tokens) else ""
            dup = token.endswith("&") and (target.isdigit() or target == "-")
            if target and not dup and token not in ("<<", "<<-", "<<<"):
                write = ">" in token
                state.redirects.append(Redirect(token, Word(target, "$" in target), ctx.cwd, write))
            i += 2
            continue
        name, eq, value = token.partition("=")
        if not words and eq and name.isidentifier():
            assignments.append(Assignment(name, value, "$" in value or "`" in value))
        else:
            words.append(Word(token, "$" in token or "`" in token))
        i += 1
    return _emit(assignments, words, [], state, ctx, depth, " ".join(tokens), ctx.stdin)
