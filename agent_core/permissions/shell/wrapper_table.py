"""The wrapper table: programs that run another command, and how their options look.

``wrappers.py`` walks a command line with these rows; nothing here runs code.
A row of ``WRAPPERS`` is ``name: (OptionSpec(...), transparent)``. The spec
says which short options (``short_values``, one letter each) and which long
options (``long_values``) take a value, which take two (``two_values``), how
many operands come before the command (``fixed_positionals``: timeout's
DURATION) and which options mean it runs nothing (``not_a_wrapper``:
``command -v``). ``transparent`` is True only when stripping the wrapper does
not change what the command may do (``timeout``, ``nice``): rules then match
the command inside, so ``Bash(npm test:*)`` never allows ``sudo npm test``.
A row of ``RUNNERS`` names the subcommands that run the rest of the line
(``uv run CMD``; ``""`` when the command follows the options directly); a
runner is never transparent. ``env`` has its own options (``ENV_*``) because
its ``-S`` splits a string into a command line.

To add a program, read its ``--help`` and man page and add its row to
``WRAPPERS`` or ``RUNNERS``, and its name to ``SHELL_WITHOUT_COMMAND`` too if,
given no command, it starts a shell reading stdin. Leave out no option that
takes a value: an option the spec does not know makes the walker also judge
every later word that names a destructive program, a shell or an interpreter.
"""

from __future__ import annotations

from dataclasses import dataclass


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
WRAPPERS: dict[str, tuple[OptionSpec, bool]] = {
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
SHELL_WITHOUT_COMMAND = frozenset(
    {"doas", "pkexec", "unshare", "nsenter", "chroot", "fakeroot", "fakechroot",
     "firejail", "bwrap", "setpriv", "busybox", "dbus-run-session"}
)  # fmt: skip
# Task runners: `uv run CMD`, `poetry run CMD`, `npm exec -- CMD` run their arguments.
RUNNERS: dict[str, frozenset[str]] = {
    "uv": _fs("run", "tool"), "uvx": _fs(""), "poetry": _fs("run"), "pipenv": _fs("run"),
    "pdm": _fs("run"), "hatch": _fs("run"), "rye": _fs("run"), "pixi": _fs("run", "exec"),
    "conda": _fs("run"), "mamba": _fs("run"), "micromamba": _fs("run"), "npm": _fs("exec", "x"),
    "pnpm": _fs("exec", "dlx"), "yarn": _fs("exec", "dlx"), "bundle": _fs("exec"),
    "mise": _fs("exec", "x"), "rtx": _fs("exec", "x"), "asdf": _fs("exec"), "opam": _fs("exec"),
    "stack": _fs("exec"), "direnv": _fs("exec"), "devbox": _fs("run"), "nix": _fs("shell"),
    "ip": _fs("netns"), "lxc-attach": _fs(""), "schroot": _fs(""), "gosu": _fs(""),
    "su-exec": _fs(""), "with-contenv": _fs(""), "s6-setuidgid": _fs(""),
}  # fmt: skip

# GNU env's options (env --help, coreutils 9.1): those that take a value, short and long.
ENV_SHORT_VALUES = "uCSa"
ENV_LONG = {
    "--ignore-environment": "", "--null": "", "--unset": "value", "--chdir": "value",
    "--split-string": "value", "--block-signal": "optional", "--default-signal": "optional",
    "--ignore-signal": "optional", "--list-signal-handling": "", "--debug": "", "--argv0": "value",
}  # fmt: skip
