"""Recording one simple command, then parsing what it runs: nested text, stdin, scripts."""

from __future__ import annotations

from agent_core.permissions.shell.context import (
    DOWNLOADERS,
    ParseContext,
    ParseState,
    bind,
    file_key,
    sink_of,
)
from agent_core.permissions.shell.flow import (
    builtin_effect,
    cron_commands,
    literal_output,
    next_cwd,
    program_from_stdin,
    shell_escapes,
)
from agent_core.permissions.shell.input import (
    interpreter_doubts,
    rule_view,
    script_argument,
    script_word,
    xargs_argvs,
)
from agent_core.permissions.shell.model import Doubt, SimpleCommand
from agent_core.permissions.shell.parse import parse_text
from agent_core.permissions.shell.wrappers import (
    SHELLS,
    Assignment,
    Nested,
    Unwrapped,
    Word,
    assignment_doubts,
    unwrap,
)


def _nested(nested: Nested, state: ParseState, ctx: ParseContext, depth: int) -> list[str]:
    inner = ctx.fork(upstream=(), stdin=None, piped=False, indirect=ctx.indirect or nested.indirect)
    before = len(sink_of(state, inner))
    parse_text(nested.text, state, inner, depth + 1)
    return [c.name for c in sink_of(state, inner)[before:]]


def emit(
    assignments: list[Assignment],
    words: list[Word],
    spliced: list[str],
    state: ParseState,
    ctx: ParseContext,
    depth: int,
    text: str,
    stdin: str | None = None,
    piped: bool = False,
    shown: dict[int, Word] | None = None,
) -> list[str]:
    """Record one simple command (and what it runs in turn); returns the program names."""
    if not words:
        for a in assignments:  # `X=v` alone: later commands see it
            doubts, code = assignment_doubts(a, "for later commands")
            for d in doubts:
                state.doubt(d.reason, d.risky)
            for nested in code:
                spliced += _nested(nested, state, ctx, depth)
            bind(ctx, a.name, None if a.dynamic else a.value)
        state.last_stdout = None
        return spliced
    if not words[0].dynamic and words[0].text in ctx.functions:
        state.doubt(f"{words[0].text} runs a shell function defined in this command")
    if ctx.exec_redirected:
        state.doubt("an earlier exec changed where this command reads and writes")
        stdin, piped = None, True
    found = unwrap(assignments, words)
    for d in found.doubts:
        state.doubt(d.reason, d.risky)
    argvs = _xargs(found, stdin, piped, state) if found.xargs else [found.argv]
    names: list[str] = []
    for nested in found.nested_texts:
        names += _nested(nested, state, ctx, depth)
    for argv in found.nested_argvs:
        joined = " ".join(w.text for w in argv)
        names += emit([], argv, [], state, ctx.fork(), depth + 1, joined)
    argv = argvs[0] if argvs else []
    if len(argv) == 1 and argv[0].text == "exec":
        ctx.exec_redirected = True  # later parts: descriptors (stdin too) are unknown
        argv = []  # `exec 3< x` runs no program; its redirects are judged on their own
    if found.keeps_outer and argv:
        for one in argvs:
            rule_words = found.rule_words if one is found.argv else rule_view(found, one)
            if shown:
                rule_words = [shown.get(id(w), w) for w in rule_words]
            command = SimpleCommand(
                tuple(one),
                tuple(rule_words),
                ctx.cwd,
                ctx.upstream,
                tuple(spliced),
                text,
                tuple(found.wrapped),
            )
            (state.indirect if ctx.indirect else state.commands).append(command)
        names.insert(0, argv[0].text)
    names += _program_input(found, argv, stdin, piped, state, ctx, depth)
    names += _written_script(argv, state, ctx, depth, words[0].text if words else "")
    _downloads(argv, ctx)
    for d in interpreter_doubts(argv):
        state.doubt(d.reason, d.risky)
    if effect := builtin_effect(argv):
        for d in effect.doubts:
            state.doubt(d.reason, d.risky)
        for nested in effect.nested:
            names += _nested(nested, state, ctx, depth)
        for name, value in effect.assigned:
            bind(ctx, name, value)
    if argv:
        ctx.cwd = next_cwd(argv, ctx.cwd)
    state.last_stdout = literal_output(argv, stdin)
    return names


def _downloads(argv: list[Word], ctx: ParseContext) -> None:
    """``curl -o F URL``, ``wget -O F URL``: F holds a download."""
    if not argv or argv[0].text not in DOWNLOADERS:
        return
    for i, word in enumerate(argv[1:-1], 1):
        if word.text in ("-o", "--output", "-O", "--output-document") and i + 1 < len(argv):
            target = argv[i + 1]
            if not target.dynamic and (key := file_key(ctx, target.text)):
                ctx.downloads[key] = argv[0].text
                ctx.files[key] = None


def _xargs(found: Unwrapped, stdin: str | None, piped: bool, state: ParseState) -> list[list[Word]]:
    doubts: list[Doubt] = []
    argvs = xargs_argvs(found, stdin, piped, doubts)
    for d in doubts:
        state.doubt(d.reason, d.risky)
    return argvs


_WHAT_IT_READS = {
    "shell": "shell commands",
    "code": "its program",
    "repl": "commands",
    "cron": "a crontab",
    "at": "commands to run later",
}


def _program_input(
    found: Unwrapped,
    argv: list[Word],
    stdin: str | None,
    piped: bool,
    state: ParseState,
    ctx: ParseContext,
    depth: int,
) -> list[str]:
    """Code a program takes from stdin or from a ``<(...)`` script argument."""
    use = program_from_stdin(argv) or ("shell" if found.stdin_shell else None)
    name = argv[0].text if argv else ""
    code: str | None = None
    if use is None:
        script = script_argument(argv)
        if script is None:
            return []
        use = "shell" if name in SHELLS or name in (".", "source") else "code"
        code = state.procsub_output.get(script.text)
        if code is None:
            state.doubt(f"{name} runs code produced by a command: {script.text[:80]}", risky=True)
            return []
    elif piped and stdin is None:
        what = _WHAT_IT_READS[use]
        state.doubt(f"{name} reads {what} from input computed at run time", risky=True)
        return []
    elif not piped:
        return []  # the tool's stdin is /dev/null
    else:
        code = stdin
    if use == "code":
        return []  # a literal program in another language, as with `python3 -c '...'`
    if use == "repl":
        code = shell_escapes(code or "")
    elif use == "cron":
        code = cron_commands(code or "")
    sink = sink_of(state, ctx)
    before = len(sink)
    parse_text(code or "", state, ctx.fork(upstream=(), stdin=None, piped=False), depth + 1)
    return [c.name for c in sink[before:]]


def _written_script(
    argv: list[Word], state: ParseState, ctx: ParseContext, depth: int, program: str
) -> list[str]:
    """A file this line wrote and now runs: its text is checked, a download is one."""
    if not argv:
        return []
    if "/" in program and not argv[0].dynamic:
        script: Word | None = argv[0]
        runner = "sh"
    else:
        script = script_word(argv)
        runner = argv[0].text
    if script is None or script.dynamic:
        return []
    key = file_key(ctx, script.text)
    if key is None or (key not in ctx.files and key not in ctx.downloads):
        return []
    if key in ctx.downloads:  # `curl -o i.sh URL; bash i.sh` pipes a download into a shell
        fed = SimpleCommand((Word(runner),), (Word(runner),), ctx.cwd, (ctx.downloads[key],))
        state.indirect.append(fed)
    code = ctx.files.get(key)
    if code is None:
        state.doubt(f"{program} runs {script.text}, written in this command", risky=True)
        return []
    if runner not in SHELLS and runner not in (".", "source", "sh"):
        return []  # another language: like `python3 -c` with literal code
    sink = sink_of(state, ctx)
    before = len(sink)
    parse_text(code, state, ctx.fork(upstream=(), stdin=None, piped=False), depth + 1)
    return [c.name for c in sink[before:]]
