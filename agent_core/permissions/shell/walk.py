"""The bashlex tree walk: lists, pipelines, compounds, loops, words and redirects."""

from __future__ import annotations

import re
from typing import Any

from agent_core.permissions.shell.context import ParseContext, ParseState, known_in, sink_of, wrote
from agent_core.permissions.shell.emit import emit
from agent_core.permissions.shell.model import Redirect
from agent_core.permissions.shell.substitutions import param_doubts, substitutions_in
from agent_core.permissions.shell.text import HEREDOC_MARK
from agent_core.permissions.shell.words import expand_word, tilde_value
from agent_core.permissions.shell.wrappers import Assignment, Word

MAX_LOOP_VALUES = 8  # a for loop over more literal words is walked once, its variable unknown


def _children(node: Any) -> list[Any]:
    found: list[Any] = []
    for attr in ("parts", "list", "redirects"):
        found.extend(getattr(node, attr, None) or [])
    for attr in ("command", "output", "body"):
        child = getattr(node, attr, None)
        if child is not None and hasattr(child, "kind"):
            found.append(child)
    return found


def count_markers(trees: list[Any]) -> int:
    """How many here-document markers the parsed trees hold."""
    count, stack = 0, list(trees)
    while stack:
        node = stack.pop()
        if getattr(node, "kind", "") == "redirect" and node.type in ("<<", "<<-"):
            out = node.output
            count += getattr(out, "word", "").startswith(HEREDOC_MARK)
        stack.extend(_children(node))
    return count


def walk(node: Any, src: str, state: ParseState, ctx: ParseContext, depth: int) -> list[str]:
    """Visit one bashlex node; returns the programs it runs (for pipeline tracking)."""
    kind = node.kind
    names: list[str] = []
    if kind == "command":
        return _command(node, src, state, ctx, depth)
    if kind == "list":
        for part in node.parts:
            names += walk(part, src, state, ctx, depth)
    elif kind == "pipeline":
        upstream = list(ctx.upstream)
        stdin, piped = ctx.stdin, ctx.piped
        for part in node.parts:
            if part.kind in ("pipe", "reservedword"):
                continue
            before = len(sink_of(state, ctx))
            inner = ctx.fork(upstream=tuple(upstream), stdin=stdin, piped=piped)
            got = walk(part, src, state, inner, depth)
            made = sink_of(state, inner)[before:]
            stdin, piped = (state.last_stdout if len(made) == 1 else None), True
            names += got
            upstream += got
    elif kind == "compound":
        first = node.list[0] if node.list else None
        subshell = first is not None and first.kind == "reservedword" and first.word == "("
        inner = ctx.fork() if subshell else ctx
        for redirect in getattr(node, "redirects", None) or []:
            if (fed := _input_of(redirect, src, ctx)) is not None:
                inner = inner.fork() if inner is ctx else inner
                inner.stdin, inner.piped = fed
        for part in node.list:
            if part.kind != "reservedword":
                names += walk(part, src, state, inner, depth)
        if inner is not ctx and not subshell:
            ctx.cwd = inner.cwd
        for redirect in getattr(node, "redirects", None) or []:
            names += _redirect(redirect, src, state, ctx, depth)
    elif kind == "for":
        names += _for_loop(node, src, state, ctx, depth)
    elif kind in ("if", "while", "until"):
        for part in node.parts:
            if part.kind == "word":
                names += substitutions_in(part, src, state, ctx, depth)[0]
            elif part.kind != "reservedword":
                names += walk(part, src, state, ctx, depth)
    elif kind == "function":
        # A definition runs nothing yet; its body runs wherever it is called from.
        ctx.functions.add(node.name.word)
        names += walk(node.body, src, state, ctx.fork(cwd="?"), depth)
    elif kind == "word":
        names += substitutions_in(node, src, state, ctx, depth)[0]
    elif kind not in ("operator", "pipe", "reservedword"):
        state.doubt(f"unsupported shell syntax ({kind})", risky=True)
    return names


def _for_loop(node: Any, src: str, state: ParseState, ctx: ParseContext, depth: int) -> list[str]:
    """``for t in ~ /; do rm -rf "$t"; done`` is walked once per literal value of ``t``."""
    parts = list(node.parts)
    var = parts[1].word if len(parts) > 1 else ""
    has_in = any(p.kind == "reservedword" and p.word == "in" for p in parts)
    values: list[Word] = []
    body: list[Any] = []
    names: list[str] = []
    for part in parts[2:]:
        if part.kind == "word":
            names += substitutions_in(part, src, state, ctx, depth)[0]
            raw = src[part.pos[0] : part.pos[1]]
            param_doubts(raw, state, ctx, depth)
            values += expand_word(raw, part.word, known_in(ctx, {}))
        elif part.kind != "reservedword":
            body.append(part)
    literal = has_in and len(values) <= MAX_LOOP_VALUES and not any(v.dynamic for v in values)
    rounds = [tilde_value(v.text) for v in values] if literal else [None]
    for value in rounds or [None]:
        ctx.values[var] = value
        for part in body:
            names += walk(part, src, state, ctx, depth)
    ctx.values[var] = None
    return names


def _word_list(
    node: Any, src: str, state: ParseState, ctx: ParseContext, depth: int, shown: dict[int, Word]
) -> tuple[list[Word], list[str]]:
    """The words one bashlex word node becomes, and the programs its substitutions run.

    Where a substitution's output is known, ``shown`` maps each word to its form with the
    substitution left in: the rule view, so no allow rule matches a computed word.
    """
    raw = src[node.pos[0] : node.pos[1]]
    param_doubts(raw, state, ctx, depth)
    names, outputs = substitutions_in(node, src, state, ctx, depth)
    words = expand_word(raw, node.word, known_in(ctx, outputs))
    if outputs:
        plain = expand_word(raw, node.word, known_in(ctx, {}))
        for i, word in enumerate(words):
            shown[id(word)] = plain[min(i, len(plain) - 1)]
    return words, names


def _redirect(node: Any, src: str, state: ParseState, ctx: ParseContext, depth: int) -> list[str]:
    out = node.output
    if not hasattr(out, "kind"):
        return []  # fd duplication such as 2>&1 or >&-
    names = substitutions_in(out, src, state, ctx, depth)[0]
    raw = src[out.pos[0] : out.pos[1]]
    param_doubts(raw, state, ctx, depth)
    if node.type in ("<<", "<<-", "<<<"):
        return names
    write = node.type != "<" and node.type != "<&"
    if node.type == "<&" and out.word.isdigit():
        return names
    if ctx.indirect:
        return names
    targets = expand_word(raw, out.word, known_in(ctx, {}))
    target = targets[0] if len(targets) == 1 else Word(out.word, True, True)
    state.redirects.append(Redirect(node.type, target, ctx.cwd, write))
    return names


def _input_of(node: Any, src: str, ctx: ParseContext) -> tuple[str | None, bool] | None:
    """(stdin text or None when unknown, piped?) an input redirect gives; None for others.

    A file (``< script.sh``) counts as not piped: running it is like naming it.
    """
    out = node.output
    if node.type in ("<<", "<<-") and getattr(out, "word", "").startswith(HEREDOC_MARK):
        index = int(out.word[len(HEREDOC_MARK) :])
        if index >= len(ctx.heredocs):
            return None, True
        doc = ctx.heredocs[index]
        if doc.quoted:
            return doc.body, True
        if re.search(r"(?<!\\)[$`]", doc.body):
            return None, True  # expansions make the text known only at run time
        return re.sub(r"\\([$`\\])", r"\1", doc.body), True
    if node.type == "<<<" and hasattr(out, "kind"):
        raw = src[out.pos[0] : out.pos[1]]
        words = expand_word(raw, out.word, known_in(ctx, {}))
        text = " ".join(w.text for w in words)
        return (None if any(w.dynamic for w in words) else text), True
    if node.type == "<" and hasattr(out, "kind"):
        return None, out.word.startswith(("<(", ">("))  # a stream, or a file named here
    if node.type == "<&":  # stdin from another descriptor: whatever was opened there
        target = out.word if hasattr(out, "kind") else str(out)
        return None if target == "0" else (None, True)
    return None


def _command(node: Any, src: str, state: ParseState, ctx: ParseContext, depth: int) -> list[str]:
    assignments: list[Assignment] = []
    words: list[Word] = []
    shown: dict[int, Word] = {}
    spliced: list[str] = []
    stdin, piped = ctx.stdin, ctx.piped
    for part in node.parts:
        if part.kind == "redirect" and (fed := _input_of(part, src, ctx)) is not None:
            stdin, piped = fed
    for part in node.parts:
        if part.kind == "assignment" and not words:
            raw = src[part.pos[0] : part.pos[1]]
            name, _, value_raw = raw.partition("=")
            names, outputs = substitutions_in(part, src, state, ctx, depth)
            param_doubts(value_raw, state, ctx, depth)
            shift = len(name) + 1
            known = known_in(ctx, {k - shift: v for k, v in outputs.items()})
            value = expand_word(value_raw, part.word.partition("=")[2], known)
            spliced += names
            text = " ".join(w.text for w in value) if value_raw else ""
            dynamic = any(w.dynamic for w in value) or name.endswith("+")
            assignments.append(Assignment(name.rstrip("+"), text, dynamic))
        elif part.kind in ("word", "assignment"):
            got, names = _word_list(part, src, state, ctx, depth, shown)
            words += got
            spliced += names
        elif part.kind == "redirect":
            spliced += _redirect(part, src, state, ctx, depth)
    written: list[tuple[str, bool]] = []
    for part in node.parts:
        if part.kind != "redirect" or not hasattr(part.output, "kind"):
            continue
        target = src[part.output.pos[0] : part.output.pos[1]]
        if part.type == "<" and target in state.procsub_output:
            stdin, piped = state.procsub_output[target], True  # `sh < <(echo ...)`
        elif part.type in (">", ">|", ">>", "&>", "&>>") and "$" not in target:
            written.append((target, part.type.endswith(">>")))
    text = src[node.pos[0] : node.pos[1]]
    names = emit(assignments, words, spliced, state, ctx, depth, text, stdin, piped, shown)
    for target, append in written:
        wrote(ctx, target, state.last_stdout, append, names[0] if names else "")
    return names
