"""bubblewrap backend: the command runs in private mount, PID (and network) namespaces.

The whole file system is bound read-only, the writable roots are bound back
read-write, read-only entries inside them are bound read-only again, and hidden
paths are covered last; mounts go shallow to deep so the deepest entry wins. The
command is PID 2 under bwrap's own init: when it exits, bwrap exits with its
status and the namespace's other processes are killed; ``--die-with-parent``
does the same when MewCode (precisely: the thread that started bwrap, the event
loop's) dies, even by SIGKILL.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Literal

from agent_core.sandbox.backend import Confinement
from agent_core.sandbox.policy import SandboxPolicy
from agent_core.sandbox.status import SandboxStatus

PathKind = Literal["dir", "file"] | None
# System locations first: a bwrap found earlier on a user-controlled PATH is not trusted more.
_KNOWN_LOCATIONS = ("/usr/bin/bwrap", "/usr/local/bin/bwrap", "/bin/bwrap")
_PROBE_TIMEOUT_S = 10.0
# The options every launch uses (mounts aside); the probe runs `true` with exactly these.
_NAMESPACE_OPTIONS = (
    "--new-session",
    "--die-with-parent",
    "--unshare-pid",
    "--cap-drop",
    "ALL",
)


# What Docker also keeps read-only in a container's /proc.
_PROC_READ_ONLY = (
    "/proc/sys",
    "/proc/sysrq-trigger",
    "/proc/irq",
    "/proc/bus",
    "/proc/fs",
    "/proc/acpi",
)


def path_kind(path: str) -> PathKind:
    """ "dir", "file" (anything that is not a directory) or None when nothing is there."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    return "dir" if stat.S_ISDIR(mode) else "file"


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def _depth(path: str) -> int:
    return len(Path(path).parts)


def mount_layers(
    policy: SandboxPolicy, kind: Callable[[str], PathKind] = path_kind
) -> list[tuple[str, bool]]:
    """(path, writable) binds to lay over a read-only root, shallow to deep.

    An entry listed both ways is read-only (fail closed); an entry that changes
    nothing (read-only under read-only, writable under writable) or that does not
    exist, or that lies under a hidden path, is left out.
    """
    mode: dict[str, bool] = {path: True for path in policy.writable}
    mode.update({path: False for path in policy.read_only})
    hidden = [h for h in policy.hidden if kind(h) is not None]
    layers: list[tuple[str, bool]] = []
    for path in sorted(mode, key=_depth):
        if kind(path) is None or any(_inside(path, h) for h in hidden):
            continue
        holders = [p for p in mode if p != path and _inside(path, p)]
        inherited = mode[max(holders, key=_depth)] if holders else False
        if mode[path] != inherited or path in policy.pinned:
            layers.append((path, mode[path]))
    return layers


def hidden_mounts(
    policy: SandboxPolicy, kind: Callable[[str], PathKind] = path_kind
) -> list[tuple[str, PathKind]]:
    """(path, kind) of the hidden paths to cover: existing ones, outermost only, shallow first."""
    present = [(h, kind(h)) for h in dict.fromkeys(policy.hidden)]
    present = [(h, k) for h, k in present if k is not None]
    outer = [(h, k) for h, k in present if not any(o != h and _inside(h, o) for o, _ in present)]
    return sorted(outer, key=lambda entry: _depth(entry[0]))


def reexposed(
    policy: SandboxPolicy, hidden: str, kind: Callable[[str], PathKind] = path_kind
) -> list[tuple[str, bool]]:
    """(path, writable) entries lying inside a hidden directory, shallow to deep."""
    entries = [(p, True) for p in policy.writable] + [(p, False) for p in policy.read_only]
    inner = [(p, w) for p, w in entries if p != hidden and _inside(p, hidden) and kind(p)]
    return sorted(dict(inner).items(), key=lambda entry: _depth(entry[0]))


def bwrap_argv(
    policy: SandboxPolicy,
    cwd: Path,
    argv: list[str],
    *,
    bwrap: str = "bwrap",
    kind: Callable[[str], PathKind] = path_kind,
) -> list[str]:
    """The bwrap command line that runs argv in cwd under the policy."""
    out = [bwrap, *_NAMESPACE_OPTIONS]
    if not policy.network:
        out.append("--unshare-net")
    # A private /dev holds only null, zero, full, random, urandom, tty, ptys and shm:
    # no disks to read hidden files from underneath the mounts.
    out += ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
    # A fresh /proc leaves the kernel's knobs writable to uid 0, capabilities or not:
    # /proc/sys/kernel/core_pattern alone runs a program as root outside every namespace.
    for knob in _PROC_READ_ONLY:
        out += ["--ro-bind-try", knob, knob]
    for path, writable in mount_layers(policy, kind):
        out += ["--bind" if writable else "--ro-bind", path, path]
    for path, what in hidden_mounts(policy, kind):
        if what == "dir":
            out += ["--tmpfs", path]
            # Deeper entries are bound back into the empty directory (a session's own
            # folder inside the hidden projects/): one mount hides all the others.
            for inner, writable in reexposed(policy, path, kind):
                out += ["--bind" if writable else "--ro-bind", inner, inner]
            out += ["--remount-ro", path]
        else:
            out += ["--ro-bind", "/dev/null", path]
    out += ["--chdir", str(cwd), "--", *argv]
    return out


def find_bwrap() -> str | None:
    """The bwrap executable, preferring the system's own copy."""
    for candidate in _KNOWN_LOCATIONS:
        if os.access(candidate, os.X_OK):
            return candidate
    return shutil.which("bwrap")


def probe(bwrap: str) -> str | None:
    """None when bwrap really runs `true` with our namespaces here; otherwise why it cannot."""
    argv = [
        bwrap,
        *_NAMESPACE_OPTIONS,
        "--unshare-net",
        "--ro-bind",
        "/",
        "/",
        "--dev",
        "/dev",
        "--proc",
        "/proc",
        "--tmpfs",
        "/tmp",
        "--remount-ro",
        "/tmp",
        "--",
        "true",
    ]
    try:
        done = subprocess.run(
            argv,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=_PROBE_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return f"{bwrap} cannot run: {exc}"
    if done.returncode == 0:
        return None
    lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
    return lines[-1] if lines else f"{bwrap} exited with status {done.returncode}"


class BubblewrapBackend:
    """Confines commands with bwrap; chosen when bwrap can create its namespaces here."""

    name = "bubblewrap"

    def __init__(self, executable: str) -> None:
        self.executable = executable

    def confine(
        self, argv: list[str], policy: SandboxPolicy, cwd: Path, env: dict[str, str] | None
    ) -> Confinement:
        return Confinement(bwrap_argv(policy, cwd, argv, bwrap=self.executable), env)

    def status(self, policy: SandboxPolicy | None = None) -> SandboxStatus:
        enforced = [
            "writes: only in the writable roots (project, extra directories, session scratch,"
            " temp dir); everything else is mounted read-only",
            "read-only entries inside writable roots (.git/hooks, .git/config, .mewcode,"
            " .mcp.json) are mounted read-only again, and .git is a mount point a command"
            " cannot rename away",
            "the kernel's knobs (/proc/sys, /proc/sysrq-trigger...) are read-only",
            "servers that would run a command outside (the tmux and screen servers, D-Bus,"
            " systemd, docker) are unreachable: their sockets are hidden and TMUX/STY unset",
            "other sessions (of every project) under MEWCODE_HOME are hidden; this session's"
            " own folder is readable, its scratch dir writable",
            "hidden paths (credentials) are covered: an empty read-only directory, or /dev/null"
            " for a file",
            "devices: a private /dev with null, zero, full, random, urandom, tty and ptys only",
            "processes: a private PID namespace; every descendant dies when the command exits,"
            " is killed, or when MewCode dies (even by SIGKILL)",
            "other processes (MewCode included) are invisible: a private /proc",
            "capabilities: all dropped, and no new privileges (setuid programs do not elevate)",
        ]
        missing = [
            "other Unix sockets with a path stay reachable (connecting is not a write),"
            " ssh-agent's included",
            "git config or hooks a command creates where none existed when it started"
            " (git init, a nested repository, .git/commondir) run later, outside, when you"
            " use git there",
            "hidden files are found when a command starts: a credential file created while"
            " a background shell runs is readable to it",
            "a file reachable under another name (hard link, another mount) is not hidden",
            "the environment is passed through (less MewCode's own API key variables): other secrets in environment variables are readable",
            "a timeout or cancel kills at once: the command gets no SIGTERM grace",
        ]
        if policy is None or not policy.network:
            enforced.append(
                "network off: a private network namespace with loopback only (no TCP, UDP or"
                " abstract Unix sockets to the host)"
            )
        if policy is not None and policy.network:
            missing.append("network: on (sandbox.network), nothing is filtered")
        return SandboxStatus("bubblewrap", True, enforced, missing)
