"""Process lifetime without a PID namespace (the Landlock backend): no command outlives itself.

MewCode makes itself a child subreaper, so a process that a command leaves
running — ``(sleep 300 &)``, ``setsid sleep 300 &``, a daemon — is re-parented
to MewCode instead of init. Each launch carries a run token in its environment
(``MEWCODE_RUN``) and leads its own session. When a command's own process ends,
MewCode's children that carry its token, or that are still in its session, are
killed and reaped; round after round, since killing one re-parents its children
to MewCode. A background shell's leftovers are left alone while its run is live.

Known gaps: a leftover that both clears its environment and starts its own
session is not recognised; if MewCode is killed by SIGKILL, leftovers survive;
and as a subreaper MewCode also inherits orphans of the unsandboxed programs it
runs, which stay zombies until it exits unless they carry a run token.
"""

from __future__ import annotations

import itertools
import os
import secrets
import signal
import time

from agent_core.sandbox import linux

RUN_ENV = "MEWCODE_RUN"
_MAX_ROUNDS = 32  # kill, reap, look again: each round reaches one generation deeper
_REAP_WAIT_S = 0.5


class OrphanSweeper:
    """Run tokens for launches, and the sweep that kills what an ended run left behind."""

    def __init__(self, proc_root: str = "/proc") -> None:
        self._proc = proc_root
        self._me = os.getpid()
        self._counter = itertools.count(1)
        self._live: dict[str, int | None] = {}  # token -> session id (its leader's pid)
        self._leaders: set[int] = set()  # reaped by their GroupProcess, never by a sweep
        self._adopted: set[int] = set()  # live runs' leftovers seen alive; reaped once dead
        self._subreaper: bool | None = None

    def adopt_orphans(self) -> bool:
        """Make MewCode a child subreaper (once per process); False where the kernel refuses."""
        if self._subreaper is None:
            try:
                linux.prctl(linux.PR_SET_CHILD_SUBREAPER, 1)
                self._subreaper = True
            except OSError:
                self._subreaper = False
        return self._subreaper

    def begin(self) -> str:
        """A fresh token for a launch about to happen."""
        token = f"{self._me}-{next(self._counter)}-{secrets.token_hex(4)}"
        self._live[token] = None
        return token

    def started(self, token: str, pid: int) -> None:
        """The run's leader started (as a session leader: its pid is the session id)."""
        self._live[token] = pid
        self._leaders.add(pid)

    def forget(self, token: str) -> None:
        """The launch failed: nothing ran under this token."""
        self._live.pop(token, None)

    def end(self, token: str) -> int:
        """The run's leader ended: kill and reap what it left; returns how many were killed."""
        if token not in self._live:
            return 0
        sid = self._live.pop(token)
        self._leaders.discard(sid or -1)
        return self.sweep({token}, {sid} if sid else set())

    def end_all(self) -> int:
        """MewCode is exiting: every run counts as ended."""
        tokens = set(self._live)
        sids = {sid for sid in self._live.values() if sid}
        self._live.clear()
        return self.sweep(tokens, sids, any_of_ours=True)

    def sweep(self, tokens: set[str], sids: set[int], any_of_ours: bool = False) -> int:
        """Kill MewCode's children that carry one of tokens or sit in one of sids, until none."""
        killed = 0
        live_sids = {sid for sid in self._live.values() if sid}
        for _ in range(_MAX_ROUNDS):
            victims: list[int] = []
            for pid, state, sid in self._children():
                if pid in self._leaders:
                    continue
                # A session leader's pid is its sid: only members are judged by session.
                in_session = pid != sid and sid in (sids | live_sids if state == "Z" else sids)
                if state == "Z":
                    if pid in self._adopted or in_session:
                        self._reap(pid)
                    continue
                token = self._token(pid)
                if in_session or token in tokens or (any_of_ours and self._ours(token)):
                    victims.append(pid)
                elif token in self._live:
                    self._adopted.add(pid)
            if not victims:
                break
            for pid in victims:
                try:
                    os.kill(pid, signal.SIGKILL)
                    killed += 1
                except ProcessLookupError:
                    pass
            deadline = time.monotonic() + _REAP_WAIT_S
            for pid in victims:
                self._reap(pid, deadline)
        return killed

    def _ours(self, token: str | None) -> bool:
        return token is not None and token.startswith(f"{self._me}-")

    def _children(self) -> list[tuple[int, str, int]]:
        """(pid, state, session id) of every child of MewCode."""
        found: list[tuple[int, str, int]] = []
        try:
            names = os.listdir(self._proc)
        except OSError:
            return found
        for name in names:
            if not name.isdigit():
                continue
            try:
                with open(f"{self._proc}/{name}/stat", "rb") as fh:
                    raw = fh.read()
            except OSError:
                continue
            fields = raw[raw.rfind(b")") + 2 :].split()
            # state ppid pgrp session ...
            if len(fields) > 3 and int(fields[1]) == self._me:
                found.append((int(name), fields[0].decode(), int(fields[3])))
        return found

    def _token(self, pid: int) -> str | None:
        try:
            with open(f"{self._proc}/{pid}/environ", "rb") as fh:
                environ = fh.read()
        except OSError:
            return None
        key = RUN_ENV.encode() + b"="
        for entry in environ.split(b"\0"):
            if entry.startswith(key):
                return entry[len(key) :].decode("ascii", "replace")
        return None

    def _reap(self, pid: int, deadline: float | None = None) -> None:
        while True:
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                done = pid
            if done:
                self._adopted.discard(pid)
                return
            if deadline is None or time.monotonic() > deadline:
                return
            time.sleep(0.001)


_SWEEPER: OrphanSweeper | None = None


def orphan_sweeper() -> OrphanSweeper:
    """The process's one sweeper: being a subreaper is a property of the whole process."""
    global _SWEEPER
    if _SWEEPER is None:
        _SWEEPER = OrphanSweeper()
    return _SWEEPER


def end_all_runs() -> int:
    """Kill every leftover of every run (at exit); a no-op when no run was ever swept."""
    return _SWEEPER.end_all() if _SWEEPER is not None else 0
