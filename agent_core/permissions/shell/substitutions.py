"""Code inside words: $(...), backticks, <(...), ${...} and arithmetic, each parsed in turn."""

from __future__ import annotations

import re
from typing import Any

from agent_core.permissions.shell.context import ParseContext, ParseState, sink_of
from agent_core.permissions.shell.expansions import arithmetic_names, expansions, param_kind
from agent_core.permissions.shell.lexer import ARITH_MARK
from agent_core.permissions.shell.model import SimpleCommand
from agent_core.permissions.shell.parse import MAX_DEPTH, parse_text

SUBSCRIPT_CODE = re.compile(r"\[[^\]\n]{0,200}?(\$\(|`|\$\{)")


def arithmetic(body: str, text: str, state: ParseState, ctx: ParseContext, depth: int) -> None:
    """Doubts about one ``$((...))``/``((...))``: code in it runs, variables are evaluated."""
    if "[" in body:
        state.doubt(f"arithmetic with an array subscript: (({body[:80]}))")
    for inner in _code_in(body):
        state.doubt(f"arithmetic runs a command substitution: (({body[:80]}))")
        parse_text(inner, state, ctx.fork(upstream=(), stdin=None, piped=False), depth + 1)
    param_doubts(body, state, ctx, depth)
    names = arithmetic_names(body)
    if names:
        risky = bool(SUBSCRIPT_CODE.search(text)) or any(
            "[" in (ctx.values.get(n) or "") for n in names
        )
        state.doubt(f"arithmetic evaluates variables as expressions: (({body[:80]}))", risky)


def as_commands(text: str, state: ParseState, ctx: ParseContext, depth: int) -> None:
    """What ``text`` runs if read as commands: bash reads ``((rm x))`` as arithmetic, dash
    as two subshells. Only the blacklist sees these commands; their doubts are dropped."""
    if not re.search(r"[A-Za-z_]", text):
        return  # digits and operators: arithmetic in every shell
    scratch = ParseState()
    parse_text(text, scratch, ctx.fork(indirect=True, upstream=()), depth + 1)
    state.indirect += scratch.commands + scratch.indirect
    state.texts += scratch.texts


def _code_in(text: str, depth: int = 0, in_dq: bool = False) -> list[str]:
    """Command substitutions inside ``text``, also those nested in ``${...}``."""
    if depth > 2 * MAX_DEPTH:
        return [text]  # parsed as it is: too deep to follow, and the doubt says so
    found, _ = expansions(text, in_dq)
    inner: list[str] = []
    for exp in found:
        if exp.kind in ("comsub", "backtick", "procsub") and exp.body.strip():
            inner.append(exp.body)
        elif exp.kind == "param":
            inner += _code_in(exp.body, depth + 1, exp.quoted)
    return inner


def param_doubts(raw: str, state: ParseState, ctx: ParseContext, depth: int) -> None:
    """Doubts about ``${...}`` expansions in a word; code hidden inside them is parsed."""
    found, balanced = expansions(raw)
    if not balanced:
        state.doubt(f"an expansion is not closed: {raw[:80]}", risky=True)
    for exp in found:
        if exp.kind != "param" or exp.body.startswith(ARITH_MARK):
            continue
        kind = param_kind(exp.body)
        if kind.operator:
            state.doubt(
                f"a parameter expansion with an operator: ${{{exp.body[:80]}}}", kind.runs_code
            )
        for inner in _code_in(exp.body, 1, exp.quoted):
            state.doubt(f"a command substitution inside ${{...}}: {inner[:80]}")
            parse_text(inner, state, ctx.fork(upstream=(), stdin=None, piped=False), depth + 1)


def substitutions_in(
    node: Any, src: str, state: ParseState, ctx: ParseContext, depth: int
) -> tuple[list[str], dict[int, str]]:
    """Parse the command and process substitutions of a word; returns (programs, outputs).

    The inner text is cut from the word itself: bashlex keeps only the first line of a
    multi-line ``$(...)``.
    """
    names: list[str] = []
    outputs: dict[int, str] = {}
    raw = src[node.pos[0] : node.pos[1]]
    if not any(mark in raw for mark in ("$(", "`", "<(", ">(")):
        return names, outputs
    found, _ = expansions(raw)
    for exp in found:
        if exp.kind not in ("comsub", "backtick", "procsub"):
            continue
        body = exp.body
        if exp.kind == "backtick":
            body = re.sub(r"\\([\\`$])", r"\1", body)
        writes_to_it = exp.kind == "procsub" and raw[exp.start] == ">"
        inner = ctx.fork(upstream=(), stdin=None, piped=writes_to_it)
        before = len(sink_of(state, inner))
        parse_text(body, state, inner, depth + 1)
        made = sink_of(state, inner)[before:]
        names += [c.name for c in made]
        output = _known_output(made, state, inner)
        if output is None:
            continue
        if exp.kind == "procsub":
            state.procsub_output[raw[exp.start : exp.end]] = output
        else:
            outputs[exp.start] = output
    return names, outputs


def _known_output(made: list[SimpleCommand], state: ParseState, ctx: ParseContext) -> str | None:
    if len(made) != 1:
        return None
    if made[0].name == "pwd" and len(made[0].argv) == 1 and ctx.cwd != "?":
        return ctx.cwd or "."
    if state.last_stdout is None:
        return None
    # `echo ~` printed the home directory: a `~` word in the parser's view is home.
    return re.sub(r"(?:(?<=\s)|^)~(?=/|\s|$)", "$HOME", state.last_stdout)
