"""The shlex reading for syntax bashlex rejects: certain only for plain command lists."""

from __future__ import annotations

from dataclasses import replace

from agent_core.permissions.shell.context import ParseContext, ParseState, sink_of
from agent_core.permissions.shell.emit import emit
from agent_core.permissions.shell.model import Redirect
from agent_core.permissions.shell.parse import parse_text
from agent_core.permissions.shell.substitutions import param_doubts
from agent_core.permissions.shell.text import fallback_tokens, substitutions
from agent_core.permissions.shell.wrappers import Assignment, Word

_SEPARATOR_CHARS = frozenset(";&|()\n")
_KEYWORDS = frozenset({
    "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "for", "case",
    "esac", "select", "function", "coproc", "{", "}",
})  # fmt: skip


def fallback(text: str, state: ParseState, ctx: ParseContext, depth: int) -> None:
    """shlex reading for syntax bashlex rejects; certain only for plain command lists."""
    tokens, balanced = fallback_tokens(text)
    if not balanced:
        state.doubt("the command has unbalanced quotes", risky=True)
    if any(mark in text for mark in ("$(", "`", "<(", ">(")):
        state.doubt("a command substitution could not be read with certainty", risky=True)
        for substituted in substitutions(text):
            parse_text(substituted, state, ctx.fork(upstream=()), depth + 1)
    if "<<" in text.replace("<<<", ""):
        state.doubt("a here-document could not be read with certainty", risky=True)
    part: list[str] = []
    upstream: list[str] = list(ctx.upstream)
    stdin, piped = ctx.stdin, ctx.piped
    for token in [*tokens, ";"]:
        if token and set(token) <= _SEPARATOR_CHARS:
            if "(" in token or ")" in token:
                state.doubt("subshell or case syntax the parser could not read", risky=True)
            before = len(sink_of(state, ctx))
            inner = replace(ctx, upstream=tuple(upstream))
            names = _fallback_part(part, state, inner, depth, stdin, piped)
            ctx.cwd = inner.cwd
            made = sink_of(state, inner)[before:]
            is_pipe = token.strip() in ("|", "|&")
            upstream = upstream + names if is_pipe else list(ctx.upstream)
            stdin = state.last_stdout if is_pipe and len(made) == 1 else None
            piped = is_pipe
            part = []
        else:
            part.append(token)


def _fallback_part(
    tokens: list[str],
    state: ParseState,
    ctx: ParseContext,
    depth: int,
    stdin: str | None,
    piped: bool,
) -> list[str]:
    i = 0
    while i < len(tokens) and (tokens[i] in _KEYWORDS or tokens[i] in ("!", "time")):
        if tokens[i] == "time" and i + 1 < len(tokens) and tokens[i + 1] == "-p":
            i += 1  # the `time -p` keyword: what follows is the command
        elif tokens[i] not in ("!", "time"):
            state.doubt(f"shell syntax the parser could not read ({tokens[i]})", risky=True)
        i += 1
    assignments: list[Assignment] = []
    words: list[Word] = []
    while i < len(tokens):
        token = tokens[i]
        if ("<" in token or ">" in token) and set(token) <= set("<>&|"):
            target = tokens[i + 1] if i + 1 < len(tokens) else ""
            if token == "<<<":  # a here-string: the command's stdin
                literal = "$" not in target and "`" not in target
                stdin, piped = (target if literal else None), True
            dup = token.endswith("&") and (target.isdigit() or target == "-")
            if target and not dup and token not in ("<<", "<<-", "<<<"):
                write = ">" in token
                dynamic = "$" in target or "`" in target
                state.redirects.append(
                    Redirect(token, Word(target, dynamic, dynamic), ctx.cwd, write)
                )
            i += 2
            continue
        if "${" in token:
            param_doubts(token, state, ctx, depth)
        name, eq, value = token.partition("=")
        dynamic = "$" in token or "`" in token
        if not words and eq and name.isidentifier():
            assignments.append(Assignment(name, value, "$" in value or "`" in value))
        else:
            words.append(Word(token, dynamic, dynamic))
        i += 1
    return emit(assignments, words, [], state, ctx, depth, " ".join(tokens), stdin, piped)
