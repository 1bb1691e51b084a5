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
from dataclasses import dataclass, field
from typing import NamedTuple

from agent_core.permissions.shell_env import command_texts, var_kind


class Word(NamedTuple):
    """One shell word after quote removal; dynamic when it holds an expansion."""

    text: str
    dynamic: bool = False
    split: bool = False  # an unquoted expansion: may become several words (or none)


_OPAQUE = re.compile(r"[$`]|[<>]\(")


def unknown(word: Word) -> bool:
    """A word whose text is only known when it runs (``$X``, ``$(cmd)``, ``<(cmd)``).

    A substitution whose output the parser knows (``$(echo rm)``) stays dynamic,
    so no allow rule matches it, but its text is what runs.
    """
    return word.dynamic and bool(_OPAQUE.search(word.text))


class Assignment(NamedTuple):
    name: str
    value: str
    dynamic: bool


class Doubt(NamedTuple):
    """Why a command cannot be checked with certainty."""

    reason: str
    risky: bool = False  # the unknown part could amount to a blacklisted command


class Nested(NamedTuple):
    """A string some program runs as shell code."""

    text: str
    dynamic: bool = False
    indirect: bool = False  # run by a remote shell, a container or a program's settings


class XargsUse(NamedTuple):
    replace: str | None  # -I/-i: the string replaced by each input item
    from_file: bool  # -a FILE: items come from a file, not stdin


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


@dataclass(frozen=True)
class OptionSpec:
    """How a command's options look: which take a value, which end the wrapper."""

    short_values: str = ""
    long_values: frozenset[str] = frozenset()
    fixed_positionals: int = 0  # e.g. timeout's DURATION before the command
    not_a_wrapper: frozenset[str] = frozenset()  # e.g. `command -v`: a lookup, runs nothing
    two_values: frozenset[str] = frozenset()  # bwrap --bind SRC DEST


def _fs(*names: str) -> frozenset[str]:
    return frozenset(names)


_BWRAP_ONE = _fs(
    "--args", "--unsetenv", "--lock-file", "--sync-fd", "--chdir", "--hostname", "--uid",
    "--gid", "--userns", "--userns2", "--pidns", "--remount-ro", "--exec-label", "--file-label",
    "--proc", "--dev", "--tmpfs", "--mqueue", "--dir", "--seccomp", "--add-seccomp-fd",
    "--block-fd", "--userns-block-fd", "--info-fd", "--json-status-fd", "--cap-add",
    "--cap-drop", "--perms", "--size", "--overlay-src", "--tmp-overlay", "--ro-overlay",
    "--argv0",
)  # fmt: skip
_BWRAP_TWO = _fs(
    "--setenv", "--bind", "--bind-try", "--dev-bind", "--dev-bind-try", "--ro-bind",
    "--ro-bind-try", "--symlink", "--file", "--bind-data", "--ro-bind-data", "--chmod",
    "--bind-fd", "--ro-bind-fd",
)  # fmt: skip

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
        "--max-chars", "--process-slot-var", "--replace")), True),
    "sudo": (OptionSpec("ughpCDrtTUR", _fs(
        "--user", "--group", "--host", "--prompt", "--close-from", "--chdir", "--role",
        "--type", "--command-timeout", "--other-user", "--chroot"),
        not_a_wrapper=_fs("-e", "--edit", "-l", "--list", "-v", "--validate", "-k", "-K",
                          "-V", "--version", "-h", "--help")), False),
    "doas": (OptionSpec("uC"), False),
    "pkexec": (OptionSpec(long_values=_fs("--user")), False),
    # Launchers that run the rest of the line as a command (never stripped for rules).
    "strace": (OptionSpec("eopsuEIaSPXb"), False),
    "ltrace": (OptionSpec("eopsuEnaAlF"), False),
    "valgrind": (OptionSpec(), False),
    "unbuffer": (OptionSpec(), False),
    "torsocks": (OptionSpec("aPuwd"), False),
    "proxychains": (OptionSpec("f"), False),
    "proxychains4": (OptionSpec("f"), False),
    "tsocks": (OptionSpec(), False),
    "firejail": (OptionSpec(), False),
    "caffeinate": (OptionSpec("tw"), False),
    "systemd-run": (OptionSpec("pEMuHrSsd", _fs(
        "--unit", "--property", "--setenv", "--uid", "--gid", "--slice", "--working-directory",
        "--description", "--nice", "--service-type", "--on-active", "--on-boot",
        "--on-startup", "--on-calendar", "--timer-property", "--path-property",
        "--socket-property", "--machine", "--host", "--shell")), False),
    "chroot": (OptionSpec(long_values=_fs("--userspec", "--groups"), fixed_positionals=1), False),
    "taskset": (OptionSpec(fixed_positionals=1, not_a_wrapper=_fs("-p", "--pid")), False),
    "chrt": (OptionSpec("T", fixed_positionals=1, not_a_wrapper=_fs("-p", "--pid")), False),
    "setarch": (OptionSpec(fixed_positionals=1), False),
    "flock": (OptionSpec("wE", _fs("--timeout", "--conflict-exit-code"), fixed_positionals=1,
                         not_a_wrapper=_fs("-c", "--command")), False),
    "unshare": (OptionSpec("RwSG", _fs(
        "--root", "--wd", "--setuid", "--setgid", "--map-user", "--map-group", "--map-users",
        "--map-groups", "--propagation", "--setgroups", "--monotonic", "--boottime")), False),
    "nsenter": (OptionSpec("tSG", _fs("--target", "--setuid", "--setgid", "--net-socket")),
                False),
    "eatmydata": (OptionSpec(), False),
    "fakeroot": (OptionSpec("lsib", _fs("--lib", "--faked")), False),
    "fakechroot": (OptionSpec("lsdec", _fs("--lib", "--environment", "--config-dir")), False),
    "setpriv": (OptionSpec(long_values=_fs(
        "--reuid", "--regid", "--ruid", "--euid", "--rgid", "--egid", "--groups", "--inh-caps",
        "--ambient-caps", "--bounding-set", "--securebits", "--pdeathsig", "--selinux-label",
        "--apparmor-profile", "--landlock-access", "--landlock-rule", "--seccomp-filter")),
                False),
    "bwrap": (OptionSpec(long_values=_BWRAP_ONE, two_values=_BWRAP_TWO), False),
    "dbus-run-session": (OptionSpec(long_values=_fs("--config-file", "--dbus-daemon")), False),
    "dbus-launch": (OptionSpec(long_values=_fs("--config-file")), False),
    "cpulimit": (OptionSpec("lpe", _fs("--limit", "--pid", "--exe")), False),
    "prlimit": (OptionSpec(not_a_wrapper=_fs("-p", "--pid")), False),
    "numactl": (OptionSpec("imCNpP", _fs(
        "--interleave", "--membind", "--cpunodebind", "--physcpubind", "--preferred")), False),
    "trickle": (OptionSpec("dutlwn"), False),
    "nocache": (OptionSpec(), False),
    "catchsegv": (OptionSpec(), False),
    "xvfb-run": (OptionSpec("nsfepw", _fs(
        "--server-num", "--server-args", "--auth-file", "--error-file", "--xauth-protocol",
        "--wait")), False),
    "busybox": (OptionSpec(not_a_wrapper=_fs("--list", "--list-full", "--install", "--help")),
                False),
    "toybox": (OptionSpec(not_a_wrapper=_fs("--long", "--help")), False),
    "chpst": (OptionSpec("ugUebmdofpcrn"), False),
    "runcon": (OptionSpec("turl", _fs("--user", "--role", "--type", "--range")), False),
    "entr": (OptionSpec(not_a_wrapper=_fs("-s")), False),
    "daemonize": (OptionSpec("acepEloPu"), False),
    "ssh-agent": (OptionSpec("aEPt"), False),
    "keychain": (OptionSpec(), False),
    "dotenv": (OptionSpec("evc"), False),
    "env-cmd": (OptionSpec("fre", _fs("--file", "--rc-file", "--environments")), False),
    "cross-env": (OptionSpec(), False),
}  # fmt: skip
# Launchers that start an interactive shell (reading stdin) when given no command.
_SHELL_WITHOUT_COMMAND = frozenset(
    {"doas", "pkexec", "unshare", "nsenter", "chroot", "fakeroot", "fakechroot",
     "firejail", "bwrap", "setpriv", "busybox", "dbus-run-session"}
)  # fmt: skip
# Task runners: `uv run CMD`, `poetry run CMD`, `npm exec -- CMD` run their arguments.
_RUNNERS: dict[str, frozenset[str]] = {
    "uv": _fs("run", "tool"), "uvx": _fs(""), "poetry": _fs("run"), "pipenv": _fs("run"),
    "pdm": _fs("run"), "hatch": _fs("run"), "rye": _fs("run"), "pixi": _fs("run", "exec"),
    "conda": _fs("run"), "mamba": _fs("run"), "micromamba": _fs("run"), "npm": _fs("exec", "x"),
    "pnpm": _fs("exec", "dlx"), "yarn": _fs("exec", "dlx"), "bundle": _fs("exec"),
    "mise": _fs("exec", "x"), "rtx": _fs("exec", "x"), "asdf": _fs("exec"), "opam": _fs("exec"),
    "stack": _fs("exec"), "direnv": _fs("exec"), "devbox": _fs("run"), "nix": _fs("shell"),
    "ip": _fs("netns"), "lxc-attach": _fs(""), "schroot": _fs(""), "gosu": _fs(""),
    "su-exec": _fs(""), "with-contenv": _fs(""), "s6-setuidgid": _fs(""),
}  # fmt: skip

SHELLS = frozenset({
    "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "fish", "hush", "posh",
    "rbash", "oksh", "loksh", "pdksh", "ksh93", "csh", "tcsh", "elvish", "nu", "xonsh", "pwsh",
})  # fmt: skip
# Shells whose syntax differs from bash enough that our reading of a -c string is a guess.
_FOREIGN_SHELLS = frozenset(
    {"zsh", "fish", "csh", "tcsh", "elvish", "nu", "xonsh", "pwsh", "ksh", "ksh93", "yash"}
)
_INTERPRETER = re.compile(
    r"(python|pypy|perl|ruby|php|lua|luajit|tclsh|wish|jython|julia|guile|racket|sbcl|"
    r"gawk|Rscript|R|irb|node|nodejs|deno|bun|osascript|expect|groovy|scala|jshell|pwsh)"
    r"[\d.]*"
)
# What the blacklist judges: a wrapper option value naming one of these is looked at too.
DESTRUCTIVE = frozenset({
    "rm", "rmdir", "unlink", "shred", "dd", "mkfs", "mke2fs", "mkswap", "mkdosfs", "newfs",
    "wipefs", "sgdisk", "sfdisk", "parted", "fdisk", "gdisk", "cfdisk", "cgdisk", "blkdiscard",
    "cryptsetup", "mdadm", "chmod", "chown", "chgrp", "mv", "find", "truncate", "shutdown",
    "reboot", "halt", "poweroff", "init", "telinit", "systemctl", "tee", "cp", "ln",
    "install", "pv", "srm", "wipe", "zpool", "lvremove", "vgremove", "pvremove", "dmsetup",
    "hdparm", "nvme", "flashrom", "kexec",
})  # fmt: skip
_SHELL_VALUE_OPTS = frozenset({"-o", "+o", "-O", "+O", "--rcfile", "--init-file"})
_FIND_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})


def basename(text: str) -> str:
    """``/bin/rm`` -> ``rm``: the program a path names."""
    return text.rsplit("/", 1)[-1] if "/" in text.rstrip("/") else text


def is_interpreter(name: str) -> bool:
    """Python, Perl, Node... : programs that run code given as a file, -c/-e or stdin."""
    return bool(_INTERPRETER.fullmatch(name))


def interesting(name: str) -> bool:
    """A program the blacklist judges, or one that runs other programs."""
    return (
        name in DESTRUCTIVE
        or name.startswith("mkfs")
        or name in SHELLS
        or name in _WRAPPERS
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


@dataclass
class _Pass:
    doubts: list[Doubt] = field(default_factory=list)
    nested_texts: list[Nested] = field(default_factory=list)
    nested_argvs: list[list[Word]] = field(default_factory=list)
    xargs: XargsUse | None = None
    stdin_shell: bool = False

    def doubt(self, reason: str, risky: bool = False) -> None:
        self.doubts.append(Doubt(reason, risky))


def _strip_env(args: list[Word], state: _Pass) -> tuple[list[Word], bool]:
    """env's options and VAR=value arguments; returns (rest, transparent)."""
    transparent, i = True, 0
    while i < len(args):
        word = args[i]
        text = word.text
        if word.dynamic and not re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", text):
            state.doubt(f"env with a computed argument: {text}", True)
            return args[i:], False
        if text in ("-S", "--split-string") or text.startswith(("-S", "--split-string=")):
            value = text.split("=", 1)[1] if "=" in text else text[2:]
            dynamic = word.dynamic
            if not value and i + 1 < len(args):
                i += 1
                value, dynamic = args[i].text, args[i].dynamic
            state.nested_texts.append(
                Nested(
                    " ".join([value, *(w.text for w in args[i + 1 :])]),
                    dynamic or any(w.dynamic for w in args[i + 1 :]),
                )
            )
            state.doubt("env -S splits a string into a command", dynamic)
            return [], False
        if text in ("-u", "-C", "-P", "--unset", "--chdir"):
            transparent = transparent and text in ("-u", "--unset")
            i += 2
        elif text.startswith("-") and text != "-":
            transparent = transparent and not text.startswith(("-C", "--chdir", "-P"))
            i += 1
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
    """The value of ``-c CMD`` / ``--command=CMD`` style options (also ``-lc CMD``)."""
    for i, word in enumerate(args):
        text = word.text
        if text in names and i + 1 < len(args):
            return args[i + 1]
        for name in names:
            if name.startswith("--") and text.startswith(name + "="):
                return Word(text[len(name) + 1 :], word.dynamic)
            if (
                len(name) == 2
                and not text.startswith("--")
                and text.startswith("-")
                and text.endswith(name[1])
                and len(text) > 2
                and i + 1 < len(args)
            ):
                return args[i + 1]
    return None


def _joined(words: list[Word]) -> Nested:
    return Nested(" ".join(w.text for w in words), any(w.dynamic for w in words))


def _watch(args: list[Word], state: _Pass) -> Nested | None:
    """``watch -n 1 cmd args``: the shell string watch runs (``-x``: an argv)."""
    i, exec_form = 0, False
    while i < len(args) and args[i].text.startswith("-"):
        text = args[i].text
        exec_form = (
            exec_form or text in ("-x", "--exec") or (not text.startswith("--") and "x" in text[1:])
        )
        takes = text in ("-n", "--interval", "-d", "-q", "--equexit") or (
            not text.startswith("--") and text[-1] in "nq" and len(text) == 2
        )
        i += 2 if takes else 1
    rest = args[i:]
    if not rest:
        return None
    if exec_form:
        state.nested_argvs.append(rest)
        return None
    return _joined(rest)


_TMUX_RUNS = _fs(
    "new",
    "new-session",
    "new-window",
    "neww",
    "split-window",
    "splitw",
    "respawn-pane",
    "respawnp",
    "respawn-window",
    "respawnw",
    "run-shell",
    "run",
    "display-popup",
    "popup",
    "pipe-pane",
    "pipep",
    "if-shell",
    "if",
)
_TMUX_KEYS = _fs("send-keys", "send")
# Options that take a value, per tmux command (the same letter is a flag elsewhere).
_TMUX_VALUES = {
    "new": "cefFnstxy", "new-session": "cefFnstxy", "new-window": "cefFnt", "neww": "cefFnt",
    "split-window": "celtF", "splitw": "celtF", "respawn-pane": "cet", "respawnp": "cet",
    "respawn-window": "cet", "respawnw": "cet", "run-shell": "cdt", "run": "cdt",
    "display-popup": "bcdehsStTwxy", "popup": "bcdehsStTwxy", "pipe-pane": "t", "pipep": "t",
    "if-shell": "t", "if": "t", "send-keys": "Nt", "send": "Nt",
}  # fmt: skip


def _tmux(args: list[Word], state: _Pass) -> None:
    """``tmux new 'cmd'``, ``tmux send-keys 'cmd' Enter``, ``tmux -c 'cmd'``."""
    i = 0
    while i < len(args) and args[i].text.startswith("-"):
        text = args[i].text
        if text == "-c" and i + 1 < len(args):
            state.nested_texts.append(Nested(args[i + 1].text, args[i + 1].dynamic))
        i += 2 if text in ("-L", "-S", "-f", "-c", "-T") else 1
    commands = args[i:]
    while commands:
        # tmux chains commands with a lone ';' (written \; in the shell)
        end = next((j for j, w in enumerate(commands) if w.text == ";"), len(commands))
        _tmux_command(commands[:end], state)
        commands = commands[end + 1 :]


def _tmux_command(words: list[Word], state: _Pass) -> None:
    if not words:
        return
    sub = words[0].text
    j = 1
    values = _TMUX_VALUES.get(sub, "t")
    while j < len(words) and words[j].text.startswith("-") and words[j].text != "-":
        text = words[j].text
        j += 2 if text[-1] in values and len(text) >= 2 else 1
    rest = words[j:]
    if sub in _TMUX_RUNS and rest:
        if sub in ("if-shell", "if"):
            rest = rest[:1]
        state.nested_texts.append(_joined(rest))
    elif sub in _TMUX_KEYS and rest:
        keys = [w for w in rest if w.text not in ("Enter", "C-m", "KPEnter", "C-j")]
        state.nested_texts.append(_joined(keys))
        state.doubt("tmux send-keys types into a shell whose state is unknown")


def _screen(args: list[Word], state: _Pass) -> list[Word] | None:
    """``screen -dmS name cmd args`` runs argv; ``screen -X stuff 'cmd'`` types a string."""
    i = 0
    while i < len(args) and args[i].text.startswith("-"):
        text = args[i].text
        if text in ("-X", "-Q"):
            rest = args[i + 1 :]
            if rest and rest[0].text in ("stuff", "exec", "screen"):
                state.nested_texts.append(_joined(rest[1:]))
                state.doubt(f"screen {rest[0].text} runs a command in a session")
            return None
        takes = text[-1] in "ScehpTtsL" and not text.startswith("--")
        if text in ("-s",):
            state.doubt("screen -s chooses the shell it runs")
        i += 2 if takes else 1
    return args[i:] or None


_SSH_VALUES = "BbcDEeFIiJLlmOoPpQRSWw"


def _ssh(args: list[Word], state: _Pass) -> None:
    """``ssh host cmd``: the words after the host are one string the remote shell runs."""
    i = 0
    while i < len(args) and args[i].text.startswith("-"):
        text = args[i].text
        i += 2 if len(text) == 2 and text[1] in _SSH_VALUES else 1
    rest = args[i + 1 :]
    if i >= len(args):
        return
    if rest:
        nested = _joined(rest)
        state.nested_texts.append(Nested(nested.text, nested.dynamic, indirect=True))
        state.doubt(f"ssh runs a command on another machine: {nested.text[:80]}", nested.dynamic)
    else:
        state.doubt("ssh starts a remote shell that reads its input")
        state.stdin_shell = True


_CONTAINER_VALUES = _fs(
    "-e",
    "--env",
    "--env-file",
    "-u",
    "--user",
    "-w",
    "--workdir",
    "--detach-keys",
    "-c",
    "--container",
    "-n",
    "--namespace",
    "--context",
    "--kubeconfig",
    "-f",
    "--filename",
    "--pod-running-timeout",
    "-l",
    "--selector",
    "--cluster",
    "-s",
    "--server",
    "--as",
)


def _container_exec(tool: str, args: list[Word], state: _Pass) -> None:
    """``docker exec c cmd``, ``kubectl exec pod -- cmd``: a command run in a container."""
    if "--" in [w.text for w in args]:
        rest = args[[w.text for w in args].index("--") + 1 :]
    else:
        i = 0
        while i < len(args) and args[i].text.startswith("-"):
            text = args[i].text
            i += 2 if text in _CONTAINER_VALUES else 1
        rest = args[i + 1 :]
    if rest:
        nested = Nested(shlex.join(w.text for w in rest), any(w.dynamic for w in rest), True)
        state.nested_texts.append(nested)
        state.doubt(f"{tool} exec runs a command in a container: {nested.text[:80]}",
                    nested.dynamic)  # fmt: skip


_GIT_COMMAND_KEY = re.compile(
    r"^(alias\.|core\.(pager|editor|sshcommand|fsmonitor|askpass|gitproxy|hookspath|"
    r"alternaterefscommand)$|pager\.|sequence\.editor$|credential\.(.*\.)?helper$|"
    r"diff\.(.*\.)?(external|textconv|command)$|merge\..*\.driver$|filter\..*\.(clean|smudge|"
    r"process)$|gpg\.(.*\.)?program$|web\.browser$|browser\..*\.(cmd|path)$|"
    r"remote\..*\.(uploadpack|receivepack|proxy)$|uploadpack\.packobjectshook$|"
    r"sendemail\.(smtpserver|tocmd|cccmd)$|http\.proxy$|include\.|includeif\.|"
    r"mergetool\..*\.cmd$|difftool\..*\.cmd$|man\..*\.cmd$|protocol\.)",
    re.IGNORECASE,
)


def _git_globals(args: list[Word], state: _Pass) -> None:
    """``git -c alias.x='!cmd' x``, ``-c core.pager=cmd``: configuration that runs commands.

    A literal value is parsed as the command it names (an alias without ``!`` is a git
    command), so it is judged like any other; a value computed at run time is a doubt.
    """
    i = 0
    while i < len(args) and args[i].text.startswith("-"):
        text = args[i].text
        if text in ("-c", "--config-env") and i + 1 < len(args):
            value = args[i + 1]
            key, _, setting = value.text.partition("=")
            if text == "--config-env":
                state.doubt(f"git takes the setting {key} from the environment", True)
            elif value.dynamic:
                state.doubt(f"git -c sets {key} to a value computed at run time", True)
            elif _GIT_COMMAND_KEY.match(key) and setting.strip():
                command = setting.strip()
                if key.lower().startswith("alias.") and not command.startswith("!"):
                    command = "git " + command
                state.nested_texts.append(Nested(command.removeprefix("!"), indirect=True))
            i += 2
            continue
        i += 2 if text in ("-C", "--git-dir", "--work-tree", "--namespace", "--exec-path") else 1
        if text.split("=", 1)[0] in ("--exec-path", "--git-dir", "--work-tree"):
            state.doubt(f"git {text.split('=', 1)[0]} changes which repository or helpers it uses")
    if i < len(args) and args[i].text == "config":
        _git_config(args[i + 1 :], state)


def _git_config(args: list[Word], state: _Pass) -> None:
    """``git config core.pager 'cmd'``: a command stored now runs at the next git call."""
    words = [w for w in args if not w.text.startswith("-")]
    if words and words[0].text in ("set", "add"):
        words = words[1:]
    if len(words) >= 2 and _GIT_COMMAND_KEY.match(words[0].text):
        value = words[1]
        command = value.text.strip()
        if words[0].text.lower().startswith("alias.") and not command.startswith("!"):
            command = "git " + command
        state.nested_texts.append(Nested(command.removeprefix("!"), value.dynamic, True))
        if value.dynamic:
            state.doubt(f"git config stores a command computed at run time: {value.text}", True)


_PARALLEL_VALUES = _fs(
    "-j",
    "--jobs",
    "-S",
    "--sshlogin",
    "-a",
    "--arg-file",
    "-d",
    "--delimiter",
    "-E",
    "--eof",
    "--joblog",
    "--tmpdir",
    "--results",
    "--res",
    "-I",
    "--env",
    "--timeout",
    "--delay",
    "-n",
    "--max-args",
    "-N",
    "--colsep",
    "-C",
    "--workdir",
    "--wd",
    "--tag-string",
    "--memfree",
    "--load",
    "-l",
    "--basefile",
    "--bf",
    "--return",
    "--transfer-file",
    "--tf",
    "--shebang",
)


def _parallel(args: list[Word], state: _Pass) -> None:
    """GNU parallel: a command template filled from ``:::`` arguments or stdin lines."""
    i = 0
    while i < len(args) and args[i].text.startswith("-") and args[i].text not in (":::", "::::"):
        i += 2 if args[i].text in _PARALLEL_VALUES else 1
    rest = args[i:]
    texts = [w.text for w in rest]
    cut = next((j for j, t in enumerate(texts) if t in (":::", "::::", ":::+", "::::+")), None)
    template = rest[:cut] if cut is not None else rest
    items = [w for w in rest[cut + 1 :] if w.text not in (":::", ":::+")] if cut is not None else []
    from_file = cut is not None and texts[cut].startswith("::::")
    if cut is None or from_file or any(w.dynamic for w in items):
        state.doubt("parallel builds commands from input read at run time", not template)
        state.nested_texts.append(_joined(template) if template else Nested("", True))
        return
    state.doubt("parallel builds commands from its arguments")
    for item in items or [Word("")]:
        if not template:
            state.nested_texts.append(Nested(item.text))
            continue
        line = _joined(template).text
        line = line.replace("{}", item.text) if "{}" in line else f"{line} {item.text}"
        state.nested_texts.append(Nested(line))


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
    subs = _RUNNERS[name]
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


def _strip_one(view: list[Word], state: _Pass) -> tuple[list[Word], bool] | None:
    """Strip the wrapper at ``view[0]``; (rest, transparent), or None when it is not one."""
    name = basename(view[0].text)
    if name == "env":
        return _strip_env(view[1:], state)
    if name in _RUNNERS:
        rest = _runner_rest(name, view[1:])
        return (rest, False) if rest else None
    if name not in _WRAPPERS:
        return None
    spec, transparent = _WRAPPERS[name]
    if name == "flock" and any(w.text in ("-c", "--command") for w in view[1:]):
        return None  # flock FILE -c 'cmd': a string runner, see _launch
    end = option_end(view[1:], spec)
    if end is None:
        return None
    rest = view[1 + end + spec.fixed_positionals :]
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
    if not rest and name in _SHELL_WITHOUT_COMMAND:
        state.stdin_shell = True
    return rest, transparent


def _launch(name: str, view: list[Word], state: _Pass) -> Nested | None:
    """The shell string a program runs (``bash -c``, ``eval``, ``su -c``...), and side effects."""
    args = view[1:]
    if name in SHELLS:
        nested = _shell_command_text(args)
        if nested is not None and name in _FOREIGN_SHELLS:
            state.doubt(f"{name} syntax differs from bash: {nested.text[:80]}", nested.dynamic)
        return Nested(nested.text, nested.dynamic) if nested else None
    if name == "eval":
        return _joined(args) if args else None
    if name == "find":
        state.nested_argvs += _find_exec_argvs(args)
    elif name == "watch":
        return _watch(args, state)
    elif name in _STRING_OPTIONS:
        value = _option_value(args, _STRING_OPTIONS[name])
        if value is not None:
            return Nested(value.text, value.dynamic)
        if name == "runuser" and (rest := _after_option(args, ("-u", "--user"))):
            state.nested_argvs.append(rest)
        elif name == "sg" and len(args) >= 2 and not args[0].text.startswith("-"):
            return _joined(args[1:])
        elif name in ("su", "runuser", "script"):
            state.stdin_shell = True
    elif name == "capsh":
        texts = [w.text for w in args]
        if "--" in texts:
            state.nested_argvs.append([Word("bash"), *args[texts.index("--") + 1 :]])
    elif name == "tmux":
        _tmux(args, state)
    elif name == "screen":
        if rest := _screen(args, state):
            state.nested_argvs.append(rest)
    elif name in ("ssh", "autossh", "mosh"):
        _ssh(args, state)
    elif name in ("docker", "podman", "nerdctl", "kubectl", "oc", "lxc"):
        if args and args[0].text == "exec":
            _container_exec(name, args[1:], state)
    elif name == "git":
        _git_globals(args, state)
    elif name in ("parallel", "sem"):
        _parallel(args, state)
    elif name in ("npx", "pnpx", "bunx") or (name == "npm" and args and args[0].text == "exec"):
        value = _option_value(args, ("-c", "--call"))
        if value is not None:
            return Nested(value.text, value.dynamic)
    return None


_STRING_OPTIONS: dict[str, tuple[str, ...]] = {
    "su": ("-c", "--command"), "runuser": ("-c", "--command"), "script": ("-c", "--command"),
    "flock": ("-c", "--command"), "sg": ("-c", "--command"), "nix-shell": ("--run", "--command"),
    "entr": ("-s",),
}  # fmt: skip


def _after_option(args: list[Word], names: tuple[str, ...]) -> list[Word]:
    for i, word in enumerate(args):
        if word.text in names and i + 2 <= len(args):
            rest = args[i + 2 :]
            return rest[1:] if rest and rest[0].text == "--" else rest
    return []


def unwrap(assignments: list[Assignment], words: list[Word]) -> Unwrapped:
    """Strip assignments and wrappers; find nested shells, eval strings and find -exec."""
    state = _Pass()
    for a in assignments:
        doubts, nested = assignment_doubts(a, "before the command")
        state.doubts += doubts
        state.nested_texts += nested
    rule_prefix = [
        Word(f"{a.name}={a.value}", a.dynamic) for a in assignments if not safe_assignment(a)
    ]
    view = list(words)
    frozen: list[Word] | None = rule_prefix + view if rule_prefix else None
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
        nested = _launch(name, view, state)
        if nested is not None:
            state.nested_texts.append(nested)
            if nested.dynamic:
                state.doubt(f"{name} runs a computed string: {nested.text}", True)
            keeps_outer = (
                nested.dynamic or rule_words is not view or name not in ({"eval"} | SHELLS)
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
    )
