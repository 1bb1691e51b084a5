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
import subprocess
from pathlib import Path

from agent_core.sandbox.backend import Confinement
from agent_core.sandbox.bwrap_plan import (
    KindOf,
    hidden_mounts,
    mount_layers,
    path_kind,
    placeholders,
    reexposed,
)
from agent_core.sandbox.bwrap_stubs import STUBS, StubbedConfinement
from agent_core.sandbox.policy import SHARED_TMP, TEMP_VARS, SandboxPolicy
from agent_core.sandbox.status import SandboxStatus

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


def bwrap_argv(
    policy: SandboxPolicy,
    cwd: Path,
    argv: list[str],
    *,
    bwrap: str = "bwrap",
    kind: KindOf = path_kind,
    stand_ins: list[tuple[str, str]] | None = None,
) -> list[str]:
    """The bwrap command line that runs argv in cwd under the policy (``stand_ins``: the
    placeholders already worked out for this launch)."""
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
    if policy.temp_dir is not None:
        # The session's own temp dir stands in for the shared one (other users' and
        # other programs' files, sockets and repositories are there).
        out += ["--bind", policy.temp_dir, SHARED_TMP]
        for name in TEMP_VARS:
            out += ["--setenv", name, SHARED_TMP]
    for path, writable in mount_layers(policy, kind):
        out += ["--bind" if writable else "--ro-bind", path, path]
    for path, what in hidden_mounts(policy, kind):
        if what == "dir":
            out += ["--tmpfs", path]
            # Deeper entries are bound back into the empty directory (a session's own
            # folder inside the hidden MEWCODE_HOME): one mount hides all the others.
            for inner, writable in reexposed(policy, path, kind):
                out += ["--bind" if writable else "--ro-bind", inner, inner]
            out += ["--remount-ro", path]
        else:
            out += ["--ro-bind", "/dev/null", path]
    # A protected folder that does not exist yet: an empty read-only stand-in, so a command
    # cannot create it (bubblewrap makes its mount point on the host; see StubLedger).
    for path, _ in placeholders(policy, kind) if stand_ins is None else stand_ins:
        out += ["--tmpfs", path, "--remount-ro", path]
    # The Unix sockets the user lets commands reach (sandbox.allowUnixSockets), let back in
    # where the private /tmp or a hidden directory would hide them (connect needs no write).
    for socket_path in policy.unix_sockets:
        if kind(socket_path) is not None:
            out += ["--ro-bind", socket_path, socket_path]
    out += ["--chdir", str(cwd), "--", *argv]
    return out


_MOUNTS = {"--bind": 2, "--ro-bind": 2, "--tmpfs": 1}


def prepare_tmp_mount_points(policy: SandboxPolicy, argv: list[str]) -> None:
    """Make, private (0700 / 0600), the mount points bubblewrap would otherwise create
    itself (0755) inside the session's temp dir, which stands in for /tmp: the project,
    the home or MEWCODE_HOME may live under /tmp."""
    if policy.temp_dir is None:
        return
    i = 0
    while i < len(argv) and argv[i] != "--":
        option = argv[i]
        if option in _MOUNTS:
            dest = argv[i + _MOUNTS[option]]
            if dest != SHARED_TMP and dest.startswith(SHARED_TMP + "/"):
                source = argv[i + 1] if option != "--tmpfs" else None
                _make_point(policy.temp_dir, dest[len(SHARED_TMP) + 1 :], source)
            i += _MOUNTS[option] + 1
        else:
            i += 1


def _make_point(temp_dir: str, rel: str, source: str | None) -> None:
    parts = [p for p in rel.split("/") if p]
    here = temp_dir
    try:
        for n, part in enumerate(parts):
            here = os.path.join(here, part)
            leaf = n == len(parts) - 1
            if leaf and source is not None and not os.path.isdir(source):
                if not os.path.lexists(here):
                    os.close(
                        os.open(here, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
                    )
            elif not os.path.lexists(here):
                os.mkdir(here, 0o700)
    except OSError:
        pass  # bubblewrap makes what is missing itself


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
        stand_ins = STUBS.hold(policy)
        stubs = [path for path, _ in stand_ins]
        try:
            command = bwrap_argv(policy, cwd, argv, bwrap=self.executable, stand_ins=stand_ins)
            prepare_tmp_mount_points(policy, command)
        except BaseException:
            STUBS.release(stubs)
            raise
        launch = StubbedConfinement(command, env, stubs, STUBS)
        launch.stand_ins = stubs
        return launch

    def status(self, policy: SandboxPolicy | None = None) -> SandboxStatus:
        enforced = [
            "writes: only in the writable roots (project, extra directories, the session's"
            " scratch dir); everything else is mounted read-only",
            "temp dir: /tmp and $TMPDIR are the session's own scratch dir; the shared /tmp"
            " (other programs' files, sockets and repositories) is out of sight",
            "files that start programs stay read-only: .mewcode/, .claude/, .mcp.json,"
            " .gitmodules, .envrc, .vscode/, .idea/, .husky/, the core.hooksPath folder, and"
            " .git/hooks and .git/config of the project and of nested repositories; a missing"
            " folder among them gets an empty read-only stand-in (an empty folder on the host"
            " while the command runs, removed after it); .git is a mount point a command"
            " cannot rename away",
            "what a mount cannot cover (a missing .mcp.json or .git/config, a repository a"
            " command creates, a .git/commondir) is checked when the command ends: what git or"
            " MewCode would run is put back or moved out to the session's quarantine folder",
            "the kernel's knobs (/proc/sys, /proc/sysrq-trigger...) are read-only",
            "servers that would run a command outside (the tmux and screen servers, D-Bus,"
            " systemd, docker) are unreachable: their sockets are hidden and TMUX/STY unset",
            "MEWCODE_HOME is hidden (settings, credentials, logs, cache, memory, other"
            " sessions, the warm-start server) but for skills/ and this session's own folder"
            " (readable; its scratch dir writable)",
            "credentials are hidden: ~/.ssh, ~/.aws, ~/.gnupg, ~/.azure, ~/.kube, ~/.docker,"
            " ~/.config/gcloud, ~/.config/gh, ~/.git-credentials, ~/.netrc, ~/.npmrc,"
            " ~/.pypirc, ~/.pgpass, ~/.claude/.credentials.json... and sandbox.hiddenPaths"
            " (an empty read-only directory, or /dev/null for a file)",
            "devices: a private /dev with null, zero, full, random, urandom, tty and ptys only",
            "processes: a private PID namespace; every descendant dies when the command exits,"
            " is killed, or when MewCode dies (even by SIGKILL)",
            "other processes (MewCode included) are invisible: a private /proc",
            "capabilities: all dropped, and no new privileges (setuid programs do not elevate)",
        ]
        missing = [
            "other Unix sockets with a path outside /tmp stay reachable (connecting is not a"
            " write)",
            "a repository a command creates is checked when the command ends (a background"
            " shell's, when it ends): until then the user's own git in it would run its hooks",
            "hook managers' hooks run project files (husky's npm test runs package.json's"
            " script; python -m imports from the project folder): those stay writable",
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
