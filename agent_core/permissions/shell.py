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

import posixpath
import re
from dataclasses import dataclass, field, replace
from typing import Any

from agent_core.permissions.shell_flow import (
    builtin_effect,
    cron_commands,
    literal_output,
    next_cwd,
    program_from_stdin,
    shell_escapes,
)
from agent_core.permissions.shell_input import (
    interpreter_doubts,
    rule_view,
    script_argument,
    script_word,
    xargs_argvs,
)
from agent_core.permissions.shell_lexer import (
    ARITH_MARK,
    arithmetic_names,
    closing_paren,
    expansions,
    join_continuations,
    param_kind,
)
from agent_core.permissions.shell_model import Doubt, ParsedCommand, Redirect, SimpleCommand
from agent_core.permissions.shell_text import (
    HEREDOC_MARK,
    HereDoc,
    fallback_tokens,
    hidden_character,
    prepare_heredocs,
    substitutions,
)
from agent_core.permissions.shell_words import Known, expand_word, tilde_value
from agent_core.permissions.shell_wrappers import (
    SHELLS,
    Assignment,
    Nested,
    Unwrapped,
    Word,
    assignment_doubts,
    unwrap,
)

__all__ = ["ParsedCommand", "Redirect", "SimpleCommand", "parse_command"]

MAX_DEPTH = 6  # nested bash -c / eval / $(...) levels before giving up
MAX_LENGTH = 100_000
MAX_LOOP_VALUES = 8  # a for loop over more literal words is walked once, its variable unknown
_DOWNLOADERS = frozenset({"curl", "wget", "fetch", "xh", "aria2c", "http", "https"})
_SUBSCRIPT_CODE = re.compile(r"\[[^\]\n]{0,200}?(\$\(|`|\$\{)")


@dataclass
class _Ctx:
    cwd: str = ""
    upstream: tuple[str, ...] = ()
    stdin: str | None = None  # literal text fed to this part (echo ... |, here-document)
    piped: bool = False  # stdin is a pipe or here-document (unknown when stdin is None)
    heredocs: tuple[HereDoc, ...] = ()  # bodies cut out of the text being walked
    values: dict[str, str | None] = field(default_factory=dict)  # variables set in the line
    functions: set[str] = field(default_factory=set)  # shell functions defined in the line
    indirect: bool = False  # run by a remote shell, a container or a program's settings
    exec_redirected: bool = False  # an earlier `exec 3< x` changed this shell's descriptors
    files: dict[str, str | None] = field(default_factory=dict)  # written here: path -> text
    downloads: dict[str, str] = field(default_factory=dict)  # path -> the downloader

    def fork(self, **changes: Any) -> _Ctx:
        """A copy for a subshell or nested text: its assignments stay its own."""
        return replace(
            self,
            values=dict(self.values),
            functions=set(self.functions),
            files=dict(self.files),
            downloads=dict(self.downloads),
            **changes,
        )


@dataclass
class _State:
    commands: list[SimpleCommand] = field(default_factory=list)
    indirect: list[SimpleCommand] = field(default_factory=list)
    redirects: list[Redirect] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    uncertain: list[str] = field(default_factory=list)
    risky: list[str] = field(default_factory=list)
    arithmetic: list[str] = field(default_factory=list)
    procsub_output: dict[str, str] = field(default_factory=dict)
    last_stdout: str | None = None  # what the last simple command prints, when known

    def doubt(self, reason: str, risky: bool = False) -> None:
        if reason not in self.uncertain:
            self.uncertain.append(reason)
        if risky and reason not in self.risky:
            self.risky.append(reason)


def parse_command(command: str) -> ParsedCommand:
    """Parse a Bash tool command into simple commands and redirects."""
    state = _State()
    if bad := hidden_character(command):
        state.doubt(f"the command contains a hidden character ({bad})")
    if len(command) > MAX_LENGTH:
        state.doubt("the command is too long to check", risky=True)
        _fallback(command, state, _Ctx(), 0)
    else:
        try:
            _parse_text(command, state, _Ctx(), 0)
        except RecursionError:  # expansions nested thousands deep: whatever was read stays
            state.doubt("expansions are nested too deeply to check", risky=True)
    return ParsedCommand(
        state.commands, state.redirects, state.texts, state.uncertain, state.risky, state.indirect
    )


def _known(ctx: _Ctx, outputs: dict[int, str]) -> Known:
    """What the line itself decides: its variables, substitution outputs and $PWD."""
    pwd = None if ctx.cwd == "?" else tilde_value(ctx.cwd or ".")
    return Known(ctx.values, outputs, pwd)


def _sink(state: _State, ctx: _Ctx) -> list[SimpleCommand]:
    """Where the commands of ``ctx`` go: run here, or indirectly (remote, settings)."""
    return state.indirect if ctx.indirect else state.commands


def _parse_text(text: str, state: _State, ctx: _Ctx, depth: int) -> None:
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
        _arithmetic(body, text, state, ctx, depth)
    for body in lexed.arithmetic:
        _as_commands(body, state, ctx, depth)  # a syntax error in bash, commands in dash
    for match in _SUBSCRIPT_CODE.finditer(lexed.text):
        # 'a[$(cmd)]' is data until arithmetic (declare -i, $((x)), let) evaluates it.
        end = closing_paren(lexed.text, match.end(1)) if match.group(1) == "$(" else -1
        if end > 0:
            _as_commands(lexed.text[match.end(1) : end], state, ctx, depth)
    text = lexed.text
    prepared = prepare_heredocs(text)
    for doc in prepared.heredocs:
        inner = substitutions(doc.body) if not doc.quoted else []
        for sub in inner:
            state.doubt("a here-document runs a command substitution")
            _parse_text(sub, state, ctx.fork(upstream=(), stdin=None, piped=False), depth + 1)
    import bashlex  # local: only the engine needs it

    try:
        trees = bashlex.parse(prepared.text)
    except Exception:  # bashlex raises several unrelated types on syntax it lacks
        _fallback(text, state, ctx, depth)
        return
    if prepared.heredocs and _count_markers(trees) != len(prepared.heredocs):
        state.doubt("a here-document could not be read with certainty", risky=True)
        _fallback(text, state, ctx, depth)
        return
    walk_ctx = replace(ctx, heredocs=tuple(prepared.heredocs)) if prepared.heredocs else ctx
    for tree in trees:
        _walk(tree, prepared.text, state, walk_ctx, depth)
    if walk_ctx is not ctx:
        ctx.cwd = walk_ctx.cwd


def _arithmetic(body: str, text: str, state: _State, ctx: _Ctx, depth: int) -> None:
    """Doubts about one ``$((...))``/``((...))``: code in it runs, variables are evaluated."""
    if "[" in body:
        state.doubt(f"arithmetic with an array subscript: (({body[:80]}))")
    for inner in _code_in(body):
        state.doubt(f"arithmetic runs a command substitution: (({body[:80]}))")
        _parse_text(inner, state, ctx.fork(upstream=(), stdin=None, piped=False), depth + 1)
    _param_doubts(body, state, ctx, depth)
    names = arithmetic_names(body)
    if names:
        risky = bool(_SUBSCRIPT_CODE.search(text)) or any(
            "[" in (ctx.values.get(n) or "") for n in names
        )
        state.doubt(f"arithmetic evaluates variables as expressions: (({body[:80]}))", risky)


def _as_commands(text: str, state: _State, ctx: _Ctx, depth: int) -> None:
    """What ``text`` runs if read as commands: bash reads ``((rm x))`` as arithmetic, dash
    as two subshells. Only the blacklist sees these commands; their doubts are dropped."""
    if not re.search(r"[A-Za-z_]", text):
        return  # digits and operators: arithmetic in every shell
    scratch = _State()
    _parse_text(text, scratch, ctx.fork(indirect=True, upstream=()), depth + 1)
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


def _param_doubts(raw: str, state: _State, ctx: _Ctx, depth: int) -> None:
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
            _parse_text(inner, state, ctx.fork(upstream=(), stdin=None, piped=False), depth + 1)


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
        stdin, piped = ctx.stdin, ctx.piped
        for part in node.parts:
            if part.kind in ("pipe", "reservedword"):
                continue
            before = len(_sink(state, ctx))
            inner = ctx.fork(upstream=tuple(upstream), stdin=stdin, piped=piped)
            got = _walk(part, src, state, inner, depth)
            made = _sink(state, inner)[before:]
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
                names += _walk(part, src, state, inner, depth)
        if inner is not ctx and not subshell:
            ctx.cwd = inner.cwd
        for redirect in getattr(node, "redirects", None) or []:
            names += _redirect(redirect, src, state, ctx, depth)
    elif kind == "for":
        names += _for_loop(node, src, state, ctx, depth)
    elif kind in ("if", "while", "until"):
        for part in node.parts:
            if part.kind == "word":
                names += _substitutions_in(part, src, state, ctx, depth)[0]
            elif part.kind != "reservedword":
                names += _walk(part, src, state, ctx, depth)
    elif kind == "function":
        # A definition runs nothing yet; its body runs wherever it is called from.
        ctx.functions.add(node.name.word)
        names += _walk(node.body, src, state, ctx.fork(cwd="?"), depth)
    elif kind == "word":
        names += _substitutions_in(node, src, state, ctx, depth)[0]
    elif kind not in ("operator", "pipe", "reservedword"):
        state.doubt(f"unsupported shell syntax ({kind})", risky=True)
    return names


def _for_loop(node: Any, src: str, state: _State, ctx: _Ctx, depth: int) -> list[str]:
    """``for t in ~ /; do rm -rf "$t"; done`` is walked once per literal value of ``t``."""
    parts = list(node.parts)
    var = parts[1].word if len(parts) > 1 else ""
    has_in = any(p.kind == "reservedword" and p.word == "in" for p in parts)
    values: list[Word] = []
    body: list[Any] = []
    names: list[str] = []
    for part in parts[2:]:
        if part.kind == "word":
            names += _substitutions_in(part, src, state, ctx, depth)[0]
            raw = src[part.pos[0] : part.pos[1]]
            _param_doubts(raw, state, ctx, depth)
            values += expand_word(raw, part.word, _known(ctx, {}))
        elif part.kind != "reservedword":
            body.append(part)
    literal = has_in and len(values) <= MAX_LOOP_VALUES and not any(v.dynamic for v in values)
    rounds = [tilde_value(v.text) for v in values] if literal else [None]
    for value in rounds or [None]:
        ctx.values[var] = value
        for part in body:
            names += _walk(part, src, state, ctx, depth)
    ctx.values[var] = None
    return names


def _substitutions_in(
    node: Any, src: str, state: _State, ctx: _Ctx, depth: int
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
        before = len(_sink(state, inner))
        _parse_text(body, state, inner, depth + 1)
        made = _sink(state, inner)[before:]
        names += [c.name for c in made]
        output = _known_output(made, state, inner)
        if output is None:
            continue
        if exp.kind == "procsub":
            state.procsub_output[raw[exp.start : exp.end]] = output
        else:
            outputs[exp.start] = output
    return names, outputs


def _known_output(made: list[SimpleCommand], state: _State, ctx: _Ctx) -> str | None:
    if len(made) != 1:
        return None
    if made[0].name == "pwd" and len(made[0].argv) == 1 and ctx.cwd != "?":
        return ctx.cwd or "."
    if state.last_stdout is None:
        return None
    # `echo ~` printed the home directory: a `~` word in the parser's view is home.
    return re.sub(r"(?:(?<=\s)|^)~(?=/|\s|$)", "$HOME", state.last_stdout)


def _word_list(
    node: Any, src: str, state: _State, ctx: _Ctx, depth: int, shown: dict[int, Word]
) -> tuple[list[Word], list[str]]:
    """The words one bashlex word node becomes, and the programs its substitutions run.

    Where a substitution's output is known, ``shown`` maps each word to its form with the
    substitution left in: the rule view, so no allow rule matches a computed word.
    """
    raw = src[node.pos[0] : node.pos[1]]
    _param_doubts(raw, state, ctx, depth)
    names, outputs = _substitutions_in(node, src, state, ctx, depth)
    words = expand_word(raw, node.word, _known(ctx, outputs))
    if outputs:
        plain = expand_word(raw, node.word, _known(ctx, {}))
        for i, word in enumerate(words):
            shown[id(word)] = plain[min(i, len(plain) - 1)]
    return words, names


def _redirect(node: Any, src: str, state: _State, ctx: _Ctx, depth: int) -> list[str]:
    out = node.output
    if not hasattr(out, "kind"):
        return []  # fd duplication such as 2>&1 or >&-
    names = _substitutions_in(out, src, state, ctx, depth)[0]
    raw = src[out.pos[0] : out.pos[1]]
    _param_doubts(raw, state, ctx, depth)
    if node.type in ("<<", "<<-", "<<<"):
        return names
    write = node.type != "<" and node.type != "<&"
    if node.type == "<&" and out.word.isdigit():
        return names
    if ctx.indirect:
        return names
    targets = expand_word(raw, out.word, _known(ctx, {}))
    target = targets[0] if len(targets) == 1 else Word(out.word, True, True)
    state.redirects.append(Redirect(node.type, target, ctx.cwd, write))
    return names


def _input_of(node: Any, src: str, ctx: _Ctx) -> tuple[str | None, bool] | None:
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
        words = expand_word(raw, out.word, _known(ctx, {}))
        text = " ".join(w.text for w in words)
        return (None if any(w.dynamic for w in words) else text), True
    if node.type == "<" and hasattr(out, "kind"):
        return None, out.word.startswith(("<(", ">("))  # a stream, or a file named here
    if node.type == "<&":  # stdin from another descriptor: whatever was opened there
        target = out.word if hasattr(out, "kind") else str(out)
        return None if target == "0" else (None, True)
    return None


def _command(node: Any, src: str, state: _State, ctx: _Ctx, depth: int) -> list[str]:
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
            names, outputs = _substitutions_in(part, src, state, ctx, depth)
            _param_doubts(value_raw, state, ctx, depth)
            shift = len(name) + 1
            known = _known(ctx, {k - shift: v for k, v in outputs.items()})
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
    names = _emit(assignments, words, spliced, state, ctx, depth, text, stdin, piped, shown)
    for target, append in written:
        _wrote(ctx, target, state.last_stdout, append, names[0] if names else "")
    return names


def _file_key(ctx: _Ctx, path: str) -> str | None:
    """A path as the line's file table keys it (None where the directory is unknown)."""
    path = tilde_value(path)
    if path.startswith(("/", "$HOME")):
        return posixpath.normpath(path)
    if ctx.cwd == "?":
        return None
    return posixpath.normpath(posixpath.join(tilde_value(ctx.cwd) or ".", path))


def _wrote(ctx: _Ctx, path: str, text: str | None, append: bool, program: str) -> None:
    """Remember what a command wrote to ``path``, so running that file later is judged."""
    key = _file_key(ctx, path)
    if key is None:
        return
    if program in _DOWNLOADERS:
        ctx.downloads[key] = program
    previous = ctx.files.get(key, "") if append else ""
    ctx.files[key] = None if text is None or previous is None else previous + text


def _bind(ctx: _Ctx, name: str, value: str | None) -> None:
    """Remember a variable's literal value; a second assignment makes it unknown."""
    if name in ctx.values or value is None:
        ctx.values[name] = None
    else:
        ctx.values[name] = tilde_value(value)


def _nested(nested: Nested, state: _State, ctx: _Ctx, depth: int) -> list[str]:
    inner = ctx.fork(upstream=(), stdin=None, piped=False, indirect=ctx.indirect or nested.indirect)
    before = len(_sink(state, inner))
    _parse_text(nested.text, state, inner, depth + 1)
    return [c.name for c in _sink(state, inner)[before:]]


def _emit(
    assignments: list[Assignment],
    words: list[Word],
    spliced: list[str],
    state: _State,
    ctx: _Ctx,
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
            _bind(ctx, a.name, None if a.dynamic else a.value)
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
        names += _emit([], argv, [], state, ctx.fork(), depth + 1, joined)
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
                tuple(one), tuple(rule_words), ctx.cwd, ctx.upstream, tuple(spliced), text
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
            _bind(ctx, name, value)
    if argv:
        ctx.cwd = next_cwd(argv, ctx.cwd)
    state.last_stdout = literal_output(argv, stdin)
    return names


def _downloads(argv: list[Word], ctx: _Ctx) -> None:
    """``curl -o F URL``, ``wget -O F URL``: F holds a download."""
    if not argv or argv[0].text not in _DOWNLOADERS:
        return
    for i, word in enumerate(argv[1:-1], 1):
        if word.text in ("-o", "--output", "-O", "--output-document") and i + 1 < len(argv):
            target = argv[i + 1]
            if not target.dynamic and (key := _file_key(ctx, target.text)):
                ctx.downloads[key] = argv[0].text
                ctx.files[key] = None


def _xargs(found: Unwrapped, stdin: str | None, piped: bool, state: _State) -> list[list[Word]]:
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
    state: _State,
    ctx: _Ctx,
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
    sink = _sink(state, ctx)
    before = len(sink)
    _parse_text(code or "", state, ctx.fork(upstream=(), stdin=None, piped=False), depth + 1)
    return [c.name for c in sink[before:]]


def _written_script(
    argv: list[Word], state: _State, ctx: _Ctx, depth: int, program: str
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
    key = _file_key(ctx, script.text)
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
    sink = _sink(state, ctx)
    before = len(sink)
    _parse_text(code, state, ctx.fork(upstream=(), stdin=None, piped=False), depth + 1)
    return [c.name for c in sink[before:]]


_SEPARATOR_CHARS = frozenset(";&|()\n")
_KEYWORDS = frozenset({
    "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "for", "case",
    "esac", "select", "function", "coproc", "{", "}",
})  # fmt: skip


def _fallback(text: str, state: _State, ctx: _Ctx, depth: int) -> None:
    """shlex reading for syntax bashlex rejects; certain only for plain command lists."""
    tokens, balanced = fallback_tokens(text)
    if not balanced:
        state.doubt("the command has unbalanced quotes", risky=True)
    if any(mark in text for mark in ("$(", "`", "<(", ">(")):
        state.doubt("a command substitution could not be read with certainty", risky=True)
        for inner in substitutions(text):
            _parse_text(inner, state, ctx.fork(upstream=()), depth + 1)
    if "<<" in text.replace("<<<", ""):
        state.doubt("a here-document could not be read with certainty", risky=True)
    part: list[str] = []
    upstream: list[str] = list(ctx.upstream)
    stdin, piped = ctx.stdin, ctx.piped
    for token in [*tokens, ";"]:
        if token and set(token) <= _SEPARATOR_CHARS:
            if "(" in token or ")" in token:
                state.doubt("subshell or case syntax the parser could not read", risky=True)
            before = len(_sink(state, ctx))
            inner = replace(ctx, upstream=tuple(upstream))
            names = _fallback_part(part, state, inner, depth, stdin, piped)
            ctx.cwd = inner.cwd
            made = _sink(state, inner)[before:]
            is_pipe = token.strip() in ("|", "|&")
            upstream = upstream + names if is_pipe else list(ctx.upstream)
            stdin = state.last_stdout if is_pipe and len(made) == 1 else None
            piped = is_pipe
            part = []
        else:
            part.append(token)


def _fallback_part(
    tokens: list[str], state: _State, ctx: _Ctx, depth: int, stdin: str | None, piped: bool
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
            _param_doubts(token, state, ctx, depth)
        name, eq, value = token.partition("=")
        dynamic = "$" in token or "`" in token
        if not words and eq and name.isidentifier():
            assignments.append(Assignment(name, value, "$" in value or "`" in value))
        else:
            words.append(Word(token, dynamic, dynamic))
        i += 1
    return _emit(assignments, words, [], state, ctx, depth, " ".join(tokens), stdin, piped)
