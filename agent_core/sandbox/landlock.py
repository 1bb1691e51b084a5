"""Landlock backend: the kernel's allow-list, inherited by each command from a restricted thread.

Used where bubblewrap is missing or cannot create namespaces (containers,
restricted user namespaces). Landlock only adds access, it never takes any back
under a granted directory, so the policy is expressed as: full access beneath
each writable root; read and execute on everything else, granted child by
child along the branches that lead to a hidden path (worked out afresh for each
launch), so the hidden path itself is never granted; and in /dev only the
harmless devices. What this cannot express (read-only entries inside writable
roots, hidden paths inside writable roots) is stated in ``status``.

The ruleset is built in MewCode for each launch. The process is then created
from a fresh thread that has restricted itself (no_new_privs, the ruleset, no
capabilities, and the ``seccomp`` filter that refuses Unix sockets and io_uring:
all four are per thread, and a child inherits them from the thread that created
it), so subprocess can still use vfork: a preexec_fn would force a
full fork, which costs ~10 ms more per command once MewCode holds a few hundred MB.
The thread exits right after; MewCode's other threads are never restricted.
Process lifetime comes from ``orphans``.

Syscall numbers 444-446 are the generic ones, the same on x86_64 and aarch64.
"""

from __future__ import annotations

import ctypes
import os
import stat
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

from agent_core.sandbox import linux
from agent_core.sandbox.backend import Confinement, ConfinementError
from agent_core.sandbox.orphans import RUN_ENV, OrphanSweeper
from agent_core.sandbox.policy import TEMP_VARS, SandboxPolicy
from agent_core.sandbox.seccomp import SeccompFilter, command_filter
from agent_core.sandbox.status import SandboxStatus

_SYS_CREATE_RULESET = 444
_SYS_ADD_RULE = 445
_SYS_RESTRICT_SELF = 446
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1

# Filesystem access rights (linux/landlock.h).
EXECUTE = 1 << 0
WRITE_FILE = 1 << 1
READ_FILE = 1 << 2
READ_DIR = 1 << 3
REMOVE_DIR = 1 << 4
REMOVE_FILE = 1 << 5
MAKE_CHAR = 1 << 6
MAKE_DIR = 1 << 7
MAKE_REG = 1 << 8
MAKE_SOCK = 1 << 9
MAKE_FIFO = 1 << 10
MAKE_BLOCK = 1 << 11
MAKE_SYM = 1 << 12
REFER = 1 << 13  # ABI 2
TRUNCATE = 1 << 14  # ABI 3
# IOCTL_DEV (ABI 5) is left unhandled: only harmless devices can be opened at all.
NET_BIND_TCP = 1 << 0  # ABI 4
NET_CONNECT_TCP = 1 << 1
SCOPE_ABSTRACT_UNIX_SOCKET = 1 << 0  # ABI 6
SCOPE_SIGNAL = 1 << 1

FILE_RIGHTS = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE  # the rights a non-directory can take
READ = EXECUTE | READ_FILE | READ_DIR
DEV_IO = READ_FILE | WRITE_FILE | TRUNCATE
DEV = "/dev"
# Usable devices; everything else in /dev (disks above all) is out of reach.
DEV_GRANTS = (
    ("/dev", READ_DIR),
    ("/dev/null", DEV_IO),
    ("/dev/zero", DEV_IO),
    ("/dev/full", DEV_IO),
    ("/dev/random", READ_FILE),
    ("/dev/urandom", READ_FILE),
    ("/dev/tty", DEV_IO),
    ("/dev/ptmx", DEV_IO),
    ("/dev/pts", DEV_IO | READ_DIR),
)
DEV_WRITABLE = ("/dev/shm",)


def handled_fs(abi: int) -> int:
    """Every filesystem right this ABI knows that we restrict."""
    rights = (1 << 13) - 1  # ABI 1: EXECUTE .. MAKE_SYM
    if abi >= 2:
        rights |= REFER
    if abi >= 3:
        rights |= TRUNCATE
    return rights


def landlock_abi() -> int:
    """The running kernel's Landlock ABI version; 0 when Landlock is unavailable."""
    try:
        return linux.syscall(_SYS_CREATE_RULESET, None, 0, _CREATE_RULESET_VERSION)
    except OSError:
        return 0


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def read_grants(root: str, blocked: list[str]) -> Iterator[tuple[str, int]]:
    """(path, rights) that grant read on all of root except the blocked paths.

    A directory on the way to a blocked path gets READ_DIR only (so it can be
    listed; READ_DIR holds beneath it, so names inside a blocked directory can be
    listed too, never read); each of its children is granted whole, expanded in
    turn, or skipped if blocked. Symbolic links are skipped: what they point to is
    granted where it lives.
    """
    if any(_inside(root, b) for b in blocked):
        return
    if not any(_inside(b, root) for b in blocked):
        yield root, READ
        return
    yield root, READ_DIR
    try:
        entries = list(os.scandir(root))
    except OSError:
        return
    for entry in entries:
        try:
            if entry.is_symlink():
                continue
            is_dir = entry.is_dir(follow_symlinks=False)
        except OSError:
            continue
        if is_dir:
            yield from read_grants(entry.path, blocked)
        elif not any(_inside(entry.path, b) for b in blocked):
            yield entry.path, READ


def landlock_rules(policy: SandboxPolicy, abi: int, root: str = "/") -> list[tuple[str, int]]:
    """Every (path, rights) rule for the policy: reads, devices, then the writable roots."""
    hidden = [h for h in policy.hidden if os.path.lexists(h)]
    blocked = [*hidden, os.path.join(root, DEV.lstrip("/"))]
    rules = list(read_grants(root, blocked))
    full = handled_fs(abi)
    rules += [(os.path.join(root, p.lstrip("/")), r) for p, r in DEV_GRANTS]
    rules += [(os.path.join(root, p.lstrip("/")), full) for p in DEV_WRITABLE]
    rules += [(path, full) for path in policy.writable]
    # Read-only entries inside a hidden directory are let back in (this session's own
    # folder and the skills in the hidden MEWCODE_HOME).
    rules += [(p, READ) for p in policy.read_only if any(_inside(p, h) for h in hidden)]
    return rules


class _RulesetAttr(ctypes.Structure):
    _fields_ = [
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),  # ABI 4
        ("scoped", ctypes.c_uint64),  # ABI 6
    ]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def build_ruleset(policy: SandboxPolicy, abi: int) -> int:
    """A ruleset fd (close-on-exec) holding the policy's rules; raises OSError."""
    attr = _RulesetAttr(handled_access_fs=handled_fs(abi))
    size = 8
    if abi >= 4:
        size = 16
        if not policy.network:
            attr.handled_access_net = NET_BIND_TCP | NET_CONNECT_TCP
    if abi >= 6:
        size = 24
        attr.scoped = SCOPE_SIGNAL | (0 if policy.network else SCOPE_ABSTRACT_UNIX_SOCKET)
    fd = linux.syscall(_SYS_CREATE_RULESET, ctypes.byref(attr), size, 0)
    try:
        beneath = _PathBeneathAttr()
        for path, rights in landlock_rules(policy, abi):
            try:
                target = os.open(path, os.O_PATH | os.O_CLOEXEC)
            except OSError:
                continue  # gone since it was listed, or never there: nothing to grant
            try:
                if not stat.S_ISDIR(os.fstat(target).st_mode):
                    rights &= FILE_RIGHTS
                if rights:
                    beneath.allowed_access = rights
                    beneath.parent_fd = target
                    linux.syscall(_SYS_ADD_RULE, fd, _RULE_PATH_BENEATH, ctypes.byref(beneath), 0)
            finally:
                os.close(target)
    except BaseException:
        os.close(fd)
        raise
    return fd


T = TypeVar("T")


def restrict_this_thread(ruleset_fd: int, syscalls: SeccompFilter) -> None:
    """Confine the calling thread (and whatever it creates from now on) for good."""
    linux.prctl(linux.PR_SET_NO_NEW_PRIVS, 1)
    linux.syscall(_SYS_RESTRICT_SELF, ruleset_fd, 0)
    linux.drop_capabilities()
    syscalls.install()


def spawn_confined(ruleset_fd: int, start: Callable[[], T], syscalls: SeccompFilter) -> T:
    """Run start() in a new thread restricted by the ruleset and the syscall filter;
    raise what it raised."""
    outcome: list[T] = []
    failure: list[BaseException] = []

    def confined() -> None:
        try:
            restrict_this_thread(ruleset_fd, syscalls)
        except OSError as exc:
            failure.append(ConfinementError(f"cannot apply Landlock: {exc}"))
            return
        try:
            outcome.append(start())
        except BaseException as exc:
            failure.append(exc)

    thread = threading.Thread(target=confined, name="mewcode-landlock-spawn", daemon=True)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return outcome[0]


class LandlockConfinement(Confinement):
    """One launch under a ruleset, registered with the sweeper for its leftovers."""

    def __init__(
        self,
        argv: list[str],
        env: dict[str, str],
        ruleset_fd: int,
        syscalls: SeccompFilter,
        sweeper: OrphanSweeper,
        token: str,
    ) -> None:
        super().__init__(argv, env)
        self._fd: int | None = ruleset_fd
        self._syscalls = syscalls
        self._sweeper = sweeper
        self._token = token

    def spawn(self, start: Callable[[], T]) -> T:
        if self._fd is None:
            raise ConfinementError("this launch was already used")
        return spawn_confined(self._fd, start, self._syscalls)

    def started(self, pid: int) -> None:
        self._close()
        self._sweeper.started(self._token, pid)

    def ended(self) -> None:
        self._sweeper.end(self._token)

    def abandon(self) -> None:
        self._close()
        self._sweeper.forget(self._token)

    def _close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


class LandlockBackend:
    """Confines commands with Landlock; MewCode becomes a subreaper on first use."""

    name = "landlock"

    def __init__(self, abi: int, sweeper: OrphanSweeper) -> None:
        self.abi = abi
        self._sweeper = sweeper

    def confine(
        self, argv: list[str], policy: SandboxPolicy, cwd: Path, env: dict[str, str] | None
    ) -> Confinement:
        # A filter cannot allow single paths: an allowlist opens every Unix socket.
        syscalls = command_filter(block_unix=not policy.unix_sockets)
        fd = build_ruleset(policy, self.abi)
        self._sweeper.adopt_orphans()
        token = self._sweeper.begin()
        run_env = dict(os.environ if env is None else env)
        run_env[RUN_ENV] = token
        if policy.temp_dir is not None:
            run_env.update(dict.fromkeys(TEMP_VARS, policy.temp_dir))
        return LandlockConfinement(argv, run_env, fd, syscalls, self._sweeper, token)

    def status(self, policy: SandboxPolicy | None = None) -> SandboxStatus:
        abi = self.abi
        network_off = policy is None or not policy.network
        enforced = [
            f"writes: only in the writable roots (project, extra directories, the session's"
            f" scratch dir) — Landlock ABI {abi}",
            "temp dir: $TMPDIR is the session's own scratch dir; the shared /tmp is read-only",
            "files that start programs (.mewcode/, .claude/, .mcp.json, .git/hooks, .git/config,"
            " the core.hooksPath folder...) are checked when each command ends: what a command"
            " changed is put back (its version moved to the session's quarantine folder), or,"
            " for editor settings, .envrc and .gitmodules, reported",
            "MEWCODE_HOME is hidden but for skills/ and this session's own folder",
            "hidden paths (credentials) cannot be read: read access is granted around them,"
            " worked out when each command starts",
            "devices: only null, zero, full, random, urandom, tty, ptys and /dev/shm (no disks)",
            "processes: MewCode is a child subreaper; whatever a command leaves running (even"
            " after setsid) is killed when the command exits or is killed",
            "capabilities: all dropped, and no new privileges (setuid programs do not elevate)",
            "other processes' memory and environment cannot be read (no ptrace outside the"
            " command)",
        ]
        missing = [
            "files that start programs inside writable roots (.git/hooks, .git/config,"
            " .mewcode, .mcp.json...) stay writable while a command runs (Landlock cannot take"
            " back access under a writable root): they are put back when it ends, so a"
            " background shell's change lasts until that shell ends",
            "names inside a hidden directory can be listed (their contents cannot be read)",
            "files created after a command starts, beside a hidden path (e.g. in the home"
            " directory), are unreadable to that command",
            "if MewCode is killed by SIGKILL, its running commands and what they left keep"
            " running (still confined)",
            "a leftover process that clears its environment and starts its own session"
            " outlives its command (still confined) until MewCode exits, which kills it and"
            " checks the protected files once more (a SIGKILLed MewCode cannot)",
            "a .git directory a command replaces (renamed away, another put in its place) is"
            " reported, not put back",
            "a leftover process that keeps re-forking can outrun the sweep and outlive its"
            " command (still confined)",
            "a file reachable under another name (hard link, another mount) is not hidden",
            "the environment is passed through (less MewCode's own API key variables): other secrets in environment variables are readable",
            "other processes are visible in /proc",
            "/dev/shm is the machine's own (writable), and the user's other terminals"
            " (/dev/pts/N) can be written to",
        ]
        held, open_ = _syscall_facts(policy)
        enforced += held
        missing += open_
        if abi >= 6:
            enforced.append(
                "signals: the command cannot signal processes outside its own tree"
                " (MewCode included)"
            )
        if network_off and abi >= 4:
            enforced.append("network off: TCP connect and bind are denied")
            missing.append("network off: UDP (DNS included) and MPTCP are not restricted")
            if abi >= 6:
                enforced.append(
                    "network off: abstract Unix sockets outside the command are unreachable"
                )
        elif network_off:
            missing.append(f"network: not restricted (needs Landlock ABI 4, this kernel has {abi})")
        else:
            missing.append("network: on (sandbox.network), nothing is filtered")
        if policy is not None:
            for hidden in policy.hidden:
                holder = next((w for w in policy.writable if _inside(hidden, w)), None)
                if holder and os.path.lexists(hidden):
                    missing.append(f"{hidden} is inside writable {holder}: it stays readable")
        return SandboxStatus("landlock", True, enforced, missing)


def _syscall_facts(policy: SandboxPolicy | None) -> tuple[list[str], list[str]]:
    """What the seccomp filter enforces, and what an allowlist of sockets leaves open."""
    facts: list[str] = []
    gaps: list[str] = []
    if policy is not None and policy.unix_sockets:
        gaps.append(
            "Unix sockets: not filtered, because sandbox.allowUnixSockets is set"
            " (~/.mewcode/settings.yaml) and Landlock cannot allow single sockets: every"
            " Unix socket is reachable, so your tmux or screen server, D-Bus (systemd-run)"
            " or docker could run a command outside the sandbox; bypassPermissions is refused"
        )
    else:
        facts.append("Unix sockets: refused (no socket(AF_UNIX)); socketpair allowed")
    facts.append("io_uring: refused (io_uring_setup fails), so it cannot open sockets either")
    facts.append("system calls of another ABI (32-bit, x32) kill the process")
    return facts, gaps
