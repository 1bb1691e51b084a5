"""Split a shell command the way bash would run it: every simple command, every redirect.

A quote-aware pass first joins line continuations and sets arithmetic aside
(shell_lexer); bashlex then does the parsing, with shlex as the fallback for
syntax bashlex rejects. Anything neither can read with certainty (a variable
used as a command, eval of a computed string, hidden characters...) is
reported in ``uncertain`` so the engine asks a human instead of allowing; a
doubt whose unknown part could amount to a blacklisted command is also
listed in ``risky``.
"""

from __future__ import annotations

from dataclasses import replace

from agent_core.permissions.shell.context import ParseContext, ParseState
from agent_core.permissions.shell.lexer import closing_paren, join_continuations
from agent_core.permissions.shell.model import ParsedCommand, Redirect, SimpleCommand
from agent_core.permissions.shell.text import hidden_character, prepare_heredocs, substitutions

__all__ = ["ParsedCommand", "Redirect", "SimpleCommand", "parse_command"]

MAX_DEPTH = 6  # nested bash -c / eval / $(...) levels before giving up
MAX_LENGTH = 100_000


def parse_command(command: str) -> ParsedCommand:
    """Parse a Bash tool command into simple commands and redirects."""
    state = ParseState()
    if bad := hidden_character(command):
        state.doubt(f"the command contains a hidden character ({bad})")
    if len(command) > MAX_LENGTH:
        state.doubt("the command is too long to check", risky=True)
        from agent_core.permissions.shell.fallback import fallback  # local: it recurses here

        fallback(command, state, ParseContext(), 0)
    else:
        try:
            parse_text(command, state, ParseContext(), 0)
        except RecursionError:  # expansions nested thousands deep: whatever was read stays
            state.doubt("expansions are nested too deeply to check", risky=True)
    return ParsedCommand(
        state.commands, state.redirects, state.texts, state.uncertain, state.risky, state.indirect
    )


def parse_text(text: str, state: ParseState, ctx: ParseContext, depth: int) -> None:
    """Walk ``text`` into ``state``: every nested text comes back through here."""
    # local: these modules recurse back into parse_text
    from agent_core.permissions.shell.fallback import fallback
    from agent_core.permissions.shell.substitutions import SUBSCRIPT_CODE, arithmetic, as_commands
    from agent_core.permissions.shell.walk import count_markers, walk

    state.texts.append(text)
    if depth > MAX_DEPTH:
        state.doubt("commands are nested too deeply to check", risky=True)
        return
    if depth and (bad := hidden_character(text)):
        state.doubt(f"a nested command contains a hidden character ({bad})")
    if all(not line.strip() or line.lstrip().startswith("#") for line in text.splitlines()):
        return  # blank or comment-only: nothing runs
    lexed = join_continuations(text, len(state.arithmetic))
    if lexed.doubt:
        state.doubt(f"the command could not be read with certainty: {lexed.doubt}", risky=True)
    if lexed.text != text:
        state.texts.append(lexed.text)
    state.arithmetic += lexed.arithmetic
    for body in lexed.arithmetic:
        arithmetic(body, text, state, ctx, depth)
    for body in lexed.arithmetic:
        as_commands(body, state, ctx, depth)  # a syntax error in bash, commands in dash
    for match in SUBSCRIPT_CODE.finditer(lexed.text):
        # 'a[$(cmd)]' is data until arithmetic (declare -i, $((x)), let) evaluates it.
        end = closing_paren(lexed.text, match.end(1)) if match.group(1) == "$(" else -1
        if end > 0:
            as_commands(lexed.text[match.end(1) : end], state, ctx, depth)
    text = lexed.text
    prepared = prepare_heredocs(text)
    for doc in prepared.heredocs:
        inner = substitutions(doc.body) if not doc.quoted else []
        for sub in inner:
            state.doubt("a here-document runs a command substitution")
            parse_text(sub, state, ctx.fork(upstream=(), stdin=None, piped=False), depth + 1)
    import bashlex  # local: only the engine needs it

    try:
        trees = bashlex.parse(prepared.text)
    except Exception:  # bashlex raises several unrelated types on syntax it lacks
        fallback(text, state, ctx, depth)
        return
    if prepared.heredocs and count_markers(trees) != len(prepared.heredocs):
        state.doubt("a here-document could not be read with certainty", risky=True)
        fallback(text, state, ctx, depth)
        return
    walk_ctx = replace(ctx, heredocs=tuple(prepared.heredocs)) if prepared.heredocs else ctx
    for tree in trees:
        walk(tree, prepared.text, state, walk_ctx, depth)
    if walk_ctx is not ctx:
        ctx.cwd = walk_ctx.cwd
