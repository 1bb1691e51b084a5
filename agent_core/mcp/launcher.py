"""Runs one stdio MCP server so that nothing it starts outlives it or mewcode.

``python -S launcher.py PARENT_PID -- COMMAND ARGS...``. The SDK starts this in
a new session (its own process group); it starts the server inside that group
with the same stdin/stdout, and:

- asks the kernel for SIGTERM when mewcode dies, however it dies (SIGKILL too);
- becomes a child subreaper, so the server's own children that detach
  (``daemon &``, ``setsid``) are re-parented here rather than to init;
- when the server exits, or on SIGTERM/SIGINT/SIGHUP, ends the rest of the group
  and every adopted descendant (SIGTERM, then SIGKILL after a grace period) and
  exits with the server's status.

The SDK alone stops a server by closing its stdin and kills the process group
only if the server does not exit: a server that exits cleanly leaves its children
running. Standard library only, run with ``-S``: it starts in a few milliseconds.
"""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
import time

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
GRACE_S = 1.0  # per signal; the SIGKILL round also bounds how long a daemon chain is chased


def _prctl(option: int, value: int) -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(option, value, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _children(me: int) -> list[int]:
    """Our direct children (the server, and descendants re-parented to us)."""
    return [pid for pid, parent, _ in _processes() if parent == me]


def _members(group: int, me: int) -> list[int]:
    """The living processes of our process group, other than us."""
    return [pid for pid, _, pgrp in _processes() if pgrp == group and pid != me]


def _processes() -> list[tuple[int, int, int]]:
    """``(pid, parent, process group)`` of every living process (from /proc)."""
    found = []
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else ():
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                fields = fh.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        if fields[0] not in (b"Z", b"X"):
            found.append((int(entry), int(fields[1]), int(fields[2])))
    return found


def _signal_all(sig: int, group: int, me: int) -> None:
    targets = set(_children(me)) | set(_members(group, me))
    for pid in targets:
        try:
            os.kill(pid, sig)
        except OSError:
            pass
    if not os.path.isdir("/proc"):
        try:
            os.killpg(group, sig)  # no /proc to list the group: SIGKILL ends us too, last
        except OSError:
            pass


def _reap() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


class _Stop(Exception):
    """A stop signal arrived while waiting for the server."""


def _stop(signum: int, _frame: object) -> None:
    raise _Stop(signum)


def end_everything(group: int) -> None:
    """SIGTERM the group and our children, SIGKILL what is left after the grace period."""
    me = os.getpid()
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN)  # killpg reaches us too
    for sig in (signal.SIGTERM, signal.SIGKILL):
        _signal_all(sig, group, me)
        deadline = time.monotonic() + GRACE_S
        while time.monotonic() < deadline:
            _reap()
            if not _children(me) and not _group_alive(group, me):
                return
            if sig == signal.SIGKILL:
                # A killed daemon's own children (setsid, ignoring SIGTERM) are adopted
                # by us only now: kill each newcomer too, or a chain of them survives.
                _signal_all(sig, group, me)
            time.sleep(0.02)
    _reap()


def _group_alive(group: int, me: int) -> bool:
    return bool(_members(group, me))


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[1] != "--":
        sys.stderr.write("usage: launcher.py PARENT_PID -- COMMAND [ARGS...]\n")
        return 2
    parent, command = int(argv[0]), argv[2:]
    _prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != parent:  # mewcode died before the request above took effect
        return 1
    _prctl(PR_SET_CHILD_SUBREAPER, 1)
    group = os.getpgrp()
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, _stop)
    stopped_by = 0
    try:
        try:
            server = subprocess.Popen(command)
        except OSError as exc:
            sys.stderr.write(f"cannot start MCP server {command[0]}: {exc.strerror or exc}\n")
            return 127
        # The server holds the pipes now: without our copies, its exit is the SDK's EOF.
        null = os.open(os.devnull, os.O_RDWR)
        os.dup2(null, 0)
        os.dup2(null, 1)
        server.wait()
    except _Stop as stop:
        stopped_by = int(stop.args[0])
    end_everything(group)
    if stopped_by:
        return 128 + stopped_by
    return server.returncode if server.returncode >= 0 else 128 - server.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
