"""Strip command wrappers (sudo, env, timeout, xargs...) to find what really runs.

Two views come out of one pass: ``argv`` strips every wrapper (what the
blacklist judges), ``rule_words`` strips only wrappers that do not change
what a command may do, so ``Bash(npm test:*)`` never allows ``sudo npm test``.
Programs that run a string (``bash -c``, ``su -c``, ``tmux new``...) hand it
back as a nested text to parse again.
"""

from __future__ import annotations

import re
import shlex
from typing import NamedTuple

from agent_core.permissions.shell.env import command_texts, var_kind
from agent_core.permissions.shell.gnu import long_option
from agent_core.permissions.shell.launchers import Findings, launch
from agent_core.permissions.shell.model import (
    Assignment,
    Doubt,
    Nested,
    Word,
    XargsUse,
    unknown,
)
from agent_core.permissions.shell.names import (
    DESTRUCTIVE,
    SHELLS,
    basename,
    is_interpreter,
)
from agent_core.permissions.shell.wrapper_table import (
    ENV_LONG,
    ENV_SHORT_VALUES,
    RUNNERS,
    SHELL_WITHOUT_COMMAND,
    WRAPPERS,
    OptionSpec,
)

__all__ = [  # Word, basename and SHELLS are imported from here by the rest of the engine
    "DESTRUCTIVE",
    "SHELLS",
    "Assignment",
    "Doubt",
    "Nested",
    "Unwrapped",
    "Word",
    "assignment_doubts",
    "basename",
    "interesting",
    "is_interpreter",
    "safe_assignment",
    "unknown",
    "unwrap",
]


def safe_assignment(a: Assignment) -> bool:
    """True when ``NAME=value`` can be ignored for matching: no substitution, harmless name."""
    if a.dynamic or "$" in a.value or "`" in a.value:
        return False
    return var_kind(a.name) == "safe"


def assignment_doubts(a: Assignment, where: str) -> tuple[list[Doubt], list[Nested]]:
    """Doubts and command strings an environment assignment brings (``GIT_PAGER='cmd' git``)."""
    kind = var_kind(a.name)
    if kind == "safe":
        return [], []
    if kind == "loads":
        # a startup file given as <(...) or a descriptor is code read from a stream
        stream = a.value.startswith(("<(", "/dev/stdin", "/dev/fd/", "/proc/"))
        return [Doubt(f"{a.name} {where} changes what programs load or read", stream)], []
    if a.dynamic:
        return [Doubt(f"{a.name} {where} holds a command computed at run time", True)], []
    nested = [Nested(t) for t in command_texts(a.name, a.value)]
    return [Doubt(f"{a.name} {where} holds a command: {a.value[:80]}")], nested


def interesting(name: str) -> bool:
    """A program the blacklist judges, or one that runs other programs."""
    return (
        name in DESTRUCTIVE
        or name.startswith("mkfs")
        or name in SHELLS
        or name in WRAPPERS
        or name in ("eval", "source", ".", "env", "xargs", "parallel", "watch", "su", "sg")
        or is_interpreter(name)
    )


def option_end(args: list[Word], spec: OptionSpec) -> int | None:
    """Index of the first positional in ``args`` (after options); None if not a wrapper use."""
    i = 0
    while i < len(args):
        word = args[i]
        text = word.text
        if word.dynamic:
            return i
        if text in spec.not_a_wrapper or text.split("=", 1)[0] in spec.not_a_wrapper:
            return None
        if text == "--":
            return i + 1
        if text.startswith("--"):
            if "=" in text:
                i += 1
            elif text in spec.two_values:
                i += 3
            else:
                i += 2 if text in spec.long_values else 1
            continue
        if text.startswith("-") and len(text) > 1:
            cluster = text[1:]
            if any(f"-{c}" in spec.not_a_wrapper for c in cluster):
                return None
            for pos, c in enumerate(cluster):
                if c in spec.short_values:
                    i += 1 if pos < len(cluster) - 1 else 2
                    break
            else:
                i += 1
            continue
        return i
    return i


class Unwrapped(NamedTuple):
    """What one simple command really runs, seen two ways, plus what it runs in turn."""

    argv: list[Word]  # every wrapper stripped; argv[0] reduced to its basename
    rule_words: list[Word]  # only transparent wrappers and safe assignments stripped
    nested_texts: list[Nested]  # shell text run by -c, eval, su -c, tmux new...
    nested_argvs: list[list[Word]]  # commands run by find -exec, runners, option values
    doubts: list[Doubt]
    keeps_outer: bool  # False when the command is only a literal `bash -c`/`eval` envelope
    xargs: XargsUse | None = None  # set when xargs builds argv from its input
    stdin_shell: bool = False  # a launcher with no command starts a shell reading stdin
    wrapped: list[Word] = []  # the transparent wrappers stripped before rule_words


def _env_split(value: Word, rest: list[Word], state: Findings) -> None:
    """``env -S STRING ARGS``: the string is split into a command line, ARGS appended."""
    state.nested_texts.append(
        Nested(
            " ".join([value.text, *(w.text for w in rest)]),
            value.dynamic or any(w.dynamic for w in rest),
        )
    )
    state.doubt("env -S splits a string into a command", value.dynamic)


def _env_option(args: list[Word], i: int, state: Findings) -> tuple[int, bool] | None:
    """Read the option at ``args[i]``: (next index, transparent), or None after -S."""
    word = args[i]
    text = word.text
    if text.startswith("--"):
        name, eq, attached = text.partition("=")
        option = long_option(name, ENV_LONG)
        if option is None:
            state.doubt(f"env option {name} is not known", True)
            return i + 1, False
        value: Word | None = None
        step = 1
        if eq:
            value = Word(attached, word.dynamic)
        elif ENV_LONG[option] == "value":
            value = args[i + 1] if i + 1 < len(args) else None
            step = 2
        if option == "--split-string":
            if value is not None:
                _env_split(value, args[i + step :], state)
            return None
        return i + step, option in ("--unset", "--ignore-environment", "--null", "--debug")
    for pos, char in enumerate(text[1:]):
        if char in ENV_SHORT_VALUES:
            attached = text[pos + 2 :]
            value = Word(attached, word.dynamic) if attached else None
            step = 1 if attached else 2
            if value is None:
                value = args[i + 1] if i + 1 < len(args) else None
            if char == "S":
                if value is not None:
                    _env_split(value, args[i + step :], state)
                return None
            return i + step, char == "u"
        if char not in "i0v":
            state.doubt(f"env option -{char} is not known", True)
            return i + 1, False
    return i + 1, True


def _strip_env(args: list[Word], state: Findings) -> tuple[list[Word], bool]:
    """env's options and VAR=value arguments; returns (rest, transparent)."""
    transparent, i = True, 0
    while i < len(args):
        word = args[i]
        text = word.text
        if word.dynamic and not re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", text):
            state.doubt(f"env with a computed argument: {text}", True)
            return args[i:], False
        if text == "--":
            i += 1
            break
        if text.startswith("-") and text != "-":
            step = _env_option(args, i, state)
            if step is None:
                return [], False
            i, plain = step
            transparent = transparent and plain
        elif text == "-":
            i += 1
        elif re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", text):
            name, value = text.split("=", 1)
            assignment = Assignment(name, value, word.dynamic)
            doubts, nested = assignment_doubts(assignment, "set by env")
            state.doubts += doubts
            state.nested_texts += nested
            transparent = transparent and safe_assignment(assignment)
            i += 1
        else:
            break
    while i < len(args) and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", args[i].text):
        i += 1  # assignments after `--`
    return args[i:], transparent


def _xargs_use(args: list[Word]) -> XargsUse:
    replace, from_file = None, False
    for i, word in enumerate(args):
        text = word.text
        if text in ("-I", "--replace") and i + 1 < len(args):
            replace = args[i + 1].text
        elif text.startswith("-I") and len(text) > 2:
            replace = text[2:]
        elif text == "-i" or text.startswith("--replace="):
            replace = text.split("=", 1)[1] if "=" in text else "{}"
        elif text in ("-a", "--arg-file") or text.startswith(("--arg-file=", "-a")):
            from_file = True
        if not text.startswith("-"):
            break
    return XargsUse(replace, from_file)


def _runner_rest(name: str, args: list[Word]) -> list[Word] | None:
    """``uv run pytest`` -> ``pytest``; None when the subcommand runs nothing given."""
    subs = RUNNERS[name]
    if any(w.text in ("-c", "--call") or w.text.startswith("--call=") for w in args):
        return None  # `npm exec -c 'cmd'`: a string, see _launch
    i = 0
    if "" not in subs:
        while i < len(args) and args[i].text.startswith("-"):
            i += 1
        if i >= len(args) or args[i].text not in subs:
            return None
        i += 1
        if name == "ip":  # ip netns exec NAME CMD
            if i >= len(args) or args[i].text != "exec":
                return None
            i += 2
        elif name == "direnv":  # direnv exec DIR CMD
            i += 1
        elif name == "nix":  # nix shell PKGS... --command CMD
            texts = [w.text for w in args]
            marks = [j for j, t in enumerate(texts) if t in ("-c", "--command")]
            return args[marks[0] + 1 :] or None if marks else None
    texts = [w.text for w in args[i:]]
    if "--" in texts:
        return args[i + texts.index("--") + 1 :] or None
    # Option values are unknown here: take the first word that names an interesting program,
    # or else the first non-option word.
    for j in range(i, len(args)):
        if interesting(basename(args[j].text)) and not args[j].text.startswith("-"):
            return args[j:]
    j = i
    while j < len(args) and args[j].text.startswith("-"):
        j += 1
    return args[j:] or None


def _unaccounted(options: list[Word], spec: OptionSpec) -> bool:
    """Whether an option might take a value the spec does not know (so the command may
    start later than it seems: `nice --foo bar rm -rf ~`)."""
    for word in options:
        text = word.text
        if text == "--" or not text.startswith("-") or "=" in text:
            continue
        if text.startswith("--"):
            if text not in spec.long_values and text not in spec.two_values:
                return True
        elif not any(c in spec.short_values for c in text[1:]):
            return True
    return False


def _as_typed(word: Word) -> str:
    """A word as shell text again: plain words (``~`` too) stay as they are."""
    if word.dynamic or re.fullmatch(r"[\w@%+=:,./~-]+", word.text):
        return word.text
    return shlex.quote(word.text)


def _behind_unknown_options(rest: list[Word], state: Findings) -> None:
    """Commands that may start at a later word: the blacklist judges each of them."""
    for j in range(1, len(rest)):
        name = basename(rest[j].text)
        if not rest[j].dynamic and (name in DESTRUCTIVE or name in SHELLS or is_interpreter(name)):
            text = " ".join(_as_typed(w) for w in rest[j:])
            state.nested_texts.append(Nested(text, indirect=True))


def _strip_one(view: list[Word], state: Findings) -> tuple[list[Word], bool] | None:
    """Strip the wrapper at ``view[0]``; (rest, transparent), or None when it is not one."""
    name = basename(view[0].text)
    if name == "env":
        return _strip_env(view[1:], state)
    if name in RUNNERS:
        rest = _runner_rest(name, view[1:])
        return (rest, False) if rest else None
    if name not in WRAPPERS:
        return None
    spec, transparent = WRAPPERS[name]
    if name == "flock" and any(w.text in ("-c", "--command") for w in view[1:]):
        return None  # flock FILE -c 'cmd': a string runner, see _launch
    end = option_end(view[1:], spec)
    if end is None:
        return None
    rest = view[1 + end + spec.fixed_positionals :]
    if _unaccounted(view[1 : 1 + end], spec):
        _behind_unknown_options(rest, state)
    if name in ("sudo", "doas", "pkexec"):
        while rest and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", rest[0].text):  # sudo VAR=x cmd
            name_, _, value = rest[0].text.partition("=")
            doubts, nested = assignment_doubts(Assignment(name_, value, rest[0].dynamic), "by sudo")
            state.doubts += doubts
            state.nested_texts += nested
            rest = rest[1:]
    if name == "sudo" and any(
        w.text in ("-s", "-i", "--shell", "--login") for w in view[1 : end + 1]
    ):
        state.doubt("sudo -s/-i hands the command to a shell")
        state.stdin_shell = not rest
    # A word inside the option region that names a program may be a misread option value.
    for j in range(1, min(1 + end + spec.fixed_positionals, len(view))):
        if interesting(basename(view[j].text)) and not view[j].text.startswith("-"):
            state.nested_argvs.append(view[j:])
            break
    if name == "xargs":
        state.xargs = _xargs_use(view[1:])
        if not rest:
            rest = [Word("echo")]
    elif name == "busybox" and rest and rest[0].text.startswith("-"):
        return None
    if not rest and name in SHELL_WITHOUT_COMMAND:
        state.stdin_shell = True
    return rest, transparent


def unwrap(assignments: list[Assignment], words: list[Word]) -> Unwrapped:
    """Strip assignments and wrappers; find nested shells, eval strings and find -exec."""
    state = Findings()
    for a in assignments:
        doubts, nested = assignment_doubts(a, "before the command")
        state.doubts += doubts
        state.nested_texts += nested
    rule_prefix = [
        Word(f"{a.name}={a.value}", a.dynamic) for a in assignments if not safe_assignment(a)
    ]
    view = list(words)
    frozen: list[Word] | None = rule_prefix + view if rule_prefix else None
    wrapped: list[Word] = []
    for _ in range(32):
        if not view or unknown(view[0]):
            break
        step = _strip_one(view, state)
        if step is None:
            break
        rest, transparent = step
        if not rest:
            break  # a wrapper given no command is the command (`nohup`, `sudo -s`)
        if not transparent and frozen is None:
            frozen = view
        if frozen is None:  # what was stripped (xargs alone runs an echo of its own)
            tail = view[len(view) - len(rest) :] == rest
            wrapped += view[: len(view) - len(rest)] if tail else view
        view = rest
    rule_words = frozen if frozen is not None else view
    keeps_outer = True
    if view and unknown(view[0]):
        state.doubt(f"a variable is used as a command: {view[0].text}", True)
    elif view:
        if view[0].dynamic:
            state.doubt(f"the command name is printed by another command: {view[0].text}")
        name = basename(view[0].text)
        if name == "" or (name not in ("[", "[[") and any(c in view[0].text for c in "*?[{}")):
            state.doubt(f"the command name is a pattern: {view[0].text}", True)
        launched = launch(name, view, state)
        if launched is not None:
            state.nested_texts.append(launched)
            if launched.dynamic:
                state.doubt(f"{name} runs a computed string: {launched.text}", True)
            keeps_outer = (
                launched.dynamic or rule_words is not view or name not in ({"eval"} | SHELLS)
            )
    if view and unknown(view[0]):
        argv = list(view)
    else:
        argv = [Word(basename(view[0].text)), *view[1:]] if view else []
    return Unwrapped(
        argv,
        rule_words,
        state.nested_texts,
        state.nested_argvs,
        state.doubts,
        keeps_outer,
        state.xargs,
        state.stdin_shell,
        wrapped,
    )
