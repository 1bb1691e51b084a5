"""Strip command wrappers (sudo, env, timeout, xargs...) to find what really runs.

Two views come out of one pass: ``argv`` strips every wrapper (what the
blacklist judges), ``rule_words`` strips only wrappers that do not change
what a command may do, so ``Bash(npm test:*)`` never allows ``sudo npm test``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import NamedTuple


class Word(NamedTuple):
    """One shell word after quote removal; dynamic when it holds an expansion."""

    text: str
    dynamic: bool = False


class Assignment(NamedTuple):
    name: str
    value: str
    dynamic: bool


# Variables that change which program runs or what it loads: never "safe" to strip.
_DANGEROUS_VARS = frozenset({
    "PATH", "BASH_ENV", "ENV", "IFS", "PS4", "PROMPT_COMMAND", "SHELLOPTS", "BASHOPTS",
    "CDPATH", "GLOBIGNORE", "HOME", "NODE_OPTIONS", "PYTHONPATH", "PYTHONSTARTUP",
    "PYTHONHOME", "PERL5OPT", "PERL5LIB", "RUBYOPT", "RUBYLIB", "JAVA_TOOL_OPTIONS",
    "_JAVA_OPTIONS", "EDITOR", "VISUAL", "PAGER", "BROWSER", "SSH_ASKPASS", "SUDO_ASKPASS",
})  # fmt: skip
_DANGEROUS_PREFIXES = ("LD_", "DYLD_", "GIT_")
_DANGEROUS_SUFFIXES = ("_PAGER", "_EDITOR")


def safe_assignment(a: Assignment) -> bool:
    """True when ``NAME=value`` can be ignored for matching: no substitution, harmless name."""
    if a.dynamic or "$" in a.value or "`" in a.value:
        return False
    name = a.name.upper()
    return not (
        name in _DANGEROUS_VARS
        or name.startswith(_DANGEROUS_PREFIXES)
        or name.endswith(_DANGEROUS_SUFFIXES)
    )


@dataclass(frozen=True)
class OptionSpec:
    """How a command's options look: which take a value, which end the wrapper."""

    short_values: str = ""
    long_values: frozenset[str] = frozenset()
    fixed_positionals: int = 0  # e.g. timeout's DURATION before the command
    not_a_wrapper: frozenset[str] = frozenset()  # e.g. `command -v`: a lookup, runs nothing


def _fs(*names: str) -> frozenset[str]:
    return frozenset(names)


# transparent: stripping it does not change what the command may do.
_WRAPPERS: dict[str, tuple[OptionSpec, bool]] = {
    "timeout": (OptionSpec("sk", _fs("--signal", "--kill-after"), fixed_positionals=1), True),
    "time": (OptionSpec("of", _fs("--output", "--format")), True),
    "nice": (OptionSpec("n", _fs("--adjustment")), True),
    "nohup": (OptionSpec(), True),
    "command": (OptionSpec(not_a_wrapper=_fs("-v", "-V")), True),
    "builtin": (OptionSpec(), True),
    "exec": (OptionSpec("a"), True),
    "stdbuf": (OptionSpec("ioe", _fs("--input", "--output", "--error")), True),
    "ionice": (OptionSpec("cn", _fs("--class", "--classdata"),
                          not_a_wrapper=_fs("-p", "-P", "-u", "--pid", "--pgid", "--uid")), True),
    "setsid": (OptionSpec(), True),
    "xargs": (OptionSpec("adEILnPs", _fs(
        "--arg-file", "--delimiter", "--eof", "--max-lines", "--max-args", "--max-procs",
        "--max-chars", "--process-slot-var")), True),
    "sudo": (OptionSpec("ughpCDrtTU", _fs(
        "--user", "--group", "--host", "--prompt", "--close-from", "--chdir", "--role",
        "--type", "--command-timeout", "--other-user"),
        not_a_wrapper=_fs("-e", "--edit", "-l", "--list", "-v", "--validate", "-k", "-K")), False),
    "doas": (OptionSpec("uC"), False),
    # Launchers that run the rest of the line as a command (never stripped for rules).
    "strace": (OptionSpec("eopsuEIaSPX"), False),
    "ltrace": (OptionSpec("eopsuEnaAl"), False),
    "valgrind": (OptionSpec(), False),
    "unbuffer": (OptionSpec(), False),
    "torsocks": (OptionSpec("aPuwd"), False),
    "proxychains": (OptionSpec("f"), False),
    "proxychains4": (OptionSpec("f"), False),
    "firejail": (OptionSpec(), False),
    "caffeinate": (OptionSpec("tw"), False),
    "systemd-run": (OptionSpec("pEMuHr", _fs("--unit", "--property", "--setenv", "--uid",
                                              "--gid", "--slice", "--working-directory")), False),
    "chroot": (OptionSpec(long_values=_fs("--userspec", "--groups"), fixed_positionals=1), False),
    "taskset": (OptionSpec(fixed_positionals=1, not_a_wrapper=_fs("-p", "--pid")), False),
    "chrt": (OptionSpec("T", fixed_positionals=1, not_a_wrapper=_fs("-p", "--pid")), False),
    "setarch": (OptionSpec(fixed_positionals=1), False),
    "flock": (OptionSpec("wE", _fs("--timeout", "--conflict-exit-code"), fixed_positionals=1,
                         not_a_wrapper=_fs("-c", "--command")), False),
}  # fmt: skip
# Programs that run a string through a shell: `watch 'cmd'`, `su -c 'cmd'`.
_STRING_RUNNERS = frozenset({"su", "runuser", "sg", "flock", "script"})

SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "fish"})
_SHELL_VALUE_OPTS = frozenset({"-o", "+o", "-O", "+O", "--rcfile", "--init-file"})
_FIND_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})


def basename(text: str) -> str:
    """``/bin/rm`` -> ``rm``: the program a path names."""
    return text.rsplit("/", 1)[-1] if "/" in text.rstrip("/") else text


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
    nested_texts: list[tuple[str, bool]]  # (shell text run by -c/eval, literal?)
    nested_argvs: list[list[Word]]  # commands run by find -exec
    uncertain: list[str]
    keeps_outer: bool  # False when the command is only a literal `bash -c`/`eval` envelope


@dataclass
class _Pass:
    uncertain: list[str] = field(default_factory=list)
    nested_texts: list[tuple[str, bool]] = field(default_factory=list)


def _strip_env(args: list[Word], state: _Pass) -> tuple[list[Word], bool]:
    """env's options and VAR=value arguments; returns (rest, transparent)."""
    transparent, i = True, 0
    while i < len(args):
        word = args[i]
        text = word.text
        if word.dynamic:
            state.uncertain.append("env with a computed argument")
            return args[i:], False
        if text in ("-S", "--split-string") or text.startswith(("-S", "--split-string=")):
            value = text.split("=", 1)[1] if "=" in text else text[2:]
            if not value and i + 1 < len(args):
                i += 1
                value = args[i].text
            state.nested_texts.append((value, False))
            state.uncertain.append("env -S splits a string into a command")
            return args[i + 1 :], False
        if text in ("-u", "-C", "--unset", "--chdir"):
            transparent = transparent and text in ("-u", "--unset")
            i += 2
        elif text.startswith("-") and text != "-":
            transparent = transparent and not text.startswith(("-C", "--chdir"))
            i += 1
        elif text == "-":
            i += 1
        elif re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", text):
            name, value = text.split("=", 1)
            transparent = transparent and safe_assignment(Assignment(name, value, False))
            i += 1
        else:
            break
    return args[i:], transparent


def _shell_command_text(args: list[Word]) -> Word | None:
    """The string a shell runs with ``-c`` (``bash -lc 'x'``), or None without -c."""
    has_c, i = False, 0
    while i < len(args):
        text = args[i].text
        if text in _SHELL_VALUE_OPTS:
            i += 2
            continue
        if text == "--":
            i += 1
            break
        if text.startswith("-") and not text.startswith("--") and len(text) > 1:
            has_c = has_c or "c" in text[1:]
            i += 1
            continue
        if text.startswith(("--", "+")):
            i += 1
            continue
        break
    if has_c and i < len(args):
        return args[i]
    return None


def _find_exec_argvs(args: list[Word]) -> list[list[Word]]:
    """Commands run by ``find ... -exec CMD {} ;`` (also -execdir, -ok, -okdir)."""
    found: list[list[Word]] = []
    i = 0
    while i < len(args):
        if args[i].text in _FIND_EXEC:
            j = i + 1
            while j < len(args) and args[j].text not in (";", "+"):
                j += 1
            if j > i + 1:
                found.append(args[i + 1 : j])
            i = j
        i += 1
    return found


def _option_value(args: list[Word], names: tuple[str, ...]) -> Word | None:
    """The value of ``-c CMD`` / ``--command=CMD`` style options."""
    for i, word in enumerate(args):
        if word.text in names and i + 1 < len(args):
            return args[i + 1]
        for name in names:
            if name.startswith("--") and word.text.startswith(name + "="):
                return Word(word.text[len(name) + 1 :], word.dynamic)
    return None


def _watch_text(args: list[Word]) -> Word | None:
    """``watch -n 1 cmd args``: the shell string watch runs."""
    i = 0
    while i < len(args) and args[i].text.startswith("-"):
        i += 2 if args[i].text in ("-n", "--interval") else 1
    rest = args[i:]
    if not rest or any(w.text in ("-x", "--exec") for w in args[:i]):
        return None
    return Word(" ".join(w.text for w in rest), any(w.dynamic for w in rest))


def unwrap(assignments: list[Assignment], words: list[Word]) -> Unwrapped:
    """Strip assignments and wrappers; find nested shells, eval strings and find -exec."""
    state = _Pass()
    rule_prefix = [
        Word(f"{a.name}={a.value}", a.dynamic) for a in assignments if not safe_assignment(a)
    ]
    view = list(words)
    frozen: list[Word] | None = rule_prefix + view if rule_prefix else None
    for _ in range(32):
        if not view or view[0].dynamic:
            break
        name = basename(view[0].text)
        if name == "env":
            rest, transparent = _strip_env(view[1:], state)
        elif name in _WRAPPERS:
            spec, transparent = _WRAPPERS[name]
            end = option_end(view[1:], spec)
            if end is None:
                break
            rest = view[1 + end + spec.fixed_positionals :]
            if name == "xargs" and not rest:
                rest = [Word("echo")]
        else:
            break
        if not transparent and frozen is None:
            frozen = view
        view = rest
    rule_words = frozen if frozen is not None else view
    keeps_outer = True
    nested_argvs: list[list[Word]] = []
    if view and view[0].dynamic:
        state.uncertain.append(f"a variable is used as a command: {view[0].text}")
    elif view:
        name = basename(view[0].text)
        if name == "" or (name not in ("[", "[[") and any(c in view[0].text for c in "*?[{}")):
            state.uncertain.append(f"the command name is a pattern: {view[0].text}")
        nested: Word | None = None
        if name in SHELLS:
            nested = _shell_command_text(view[1:])
        elif name == "eval" and len(view) > 1:
            nested = Word(" ".join(w.text for w in view[1:]), any(w.dynamic for w in view[1:]))
        elif name == "find":
            nested_argvs = _find_exec_argvs(view[1:])
        elif name == "watch":
            nested = _watch_text(view[1:])
        elif name in _STRING_RUNNERS:
            nested = _option_value(view[1:], ("-c", "--command"))
        if nested is not None:
            state.nested_texts.append((nested.text, not nested.dynamic))
            if nested.dynamic:
                state.uncertain.append(f"{name} runs a computed string: {nested.text}")
            keeps_outer = nested.dynamic or rule_words is not view or name in _STRING_RUNNERS
    argv = [Word(basename(view[0].text), view[0].dynamic), *view[1:]] if view else []
    return Unwrapped(
        argv, rule_words, state.nested_texts, nested_argvs, state.uncertain, keeps_outer
    )
