"""Process lifetime without a PID namespace (the Landlock backend): no command outlives itself.

MewCode makes itself a child subreaper, so a process that a command leaves
running — ``(sleep 300 &)``, ``setsid sleep 300 &``, a daemon — is re-parented
to MewCode instead of init. Each launch carries a run token in its environment
(``MEWCODE_RUN``) and leads its own session and process group. When a command's
own process ends, its process group is killed at once (most leftovers never leave
it); then, in a background thread, MewCode's children that carry its token or
still sit in its session are killed and reaped, round after round, since killing
one re-parents its children to MewCode. A background shell's leftovers are left
alone while its run is live.

Known gaps: a leftover that both clears its environment and starts its own
session is not recognised; if MewCode is killed by SIGKILL, leftovers survive;
and as a subreaper MewCode also inherits orphans of the unsandboxed programs it
runs, which stay zombies until it exits unless they carry a run token.
"""

from __future__ import annotations

import glob
import itertools
import os
import secrets
import signal
import threading
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
        self._lock = threading.RLock()  # sweeps run in threads; state is shared
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
        with self._lock:
            self._live[token] = None
        return token

    def started(self, token: str, pid: int) -> None:
        """The run's leader started, leading a new session and group: its pid is their id."""
        with self._lock:
            self._live[token] = pid
            self._leaders.add(pid)

    def forget(self, token: str) -> None:
        """The launch failed: nothing ran under this token."""
        with self._lock:
            self._live.pop(token, None)

    def end(self, token: str, wait: bool = False) -> None:
        """The run's leader ended: kill its process group now, then sweep for the rest
        (in a background thread unless wait)."""
        with self._lock:
            if token not in self._live:
                return
            sid = self._live.pop(token)
            if sid:
                self._leaders.discard(sid)
                try:
                    os.killpg(sid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
        sids = {sid} if sid else set()
        if wait:
            self.sweep({token}, sids)
            return
        threading.Thread(
            target=self.sweep, args=({token}, sids), name="mewcode-orphan-sweep", daemon=True
        ).start()

    def end_all(self) -> int:
        """MewCode is exiting: every run counts as ended. Synchronous."""
        with self._lock:
            tokens = set(self._live)
            sids = {sid for sid in self._live.values() if sid}
            self._live.clear()
            return self.sweep(tokens, sids, any_of_ours=True)

    def sweep(self, tokens: set[str], sids: set[int], any_of_ours: bool = False) -> int:
        """Kill MewCode's children that carry one of tokens or sit in one of sids, until none."""
        with self._lock:
            killed = 0
            for _ in range(_MAX_ROUNDS):
                victims = self._victims(tokens, sids, any_of_ours)
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

    def _victims(self, tokens: set[str], sids: set[int], any_of_ours: bool) -> list[int]:
        """Children to kill now; on the way, reap dead leftovers and note live runs' ones."""
        live_sids = {sid for sid in self._live.values() if sid}
        victims: list[int] = []
        for pid in self._child_pids():
            if pid in self._leaders:
                continue
            state, sid = self._stat(pid)
            if state is None:
                continue
            # A session leader's pid is its sid: only members are judged by session.
            member = pid != sid
            if state == "Z":
                if pid in self._adopted or (member and sid in sids | live_sids):
                    self._reap(pid)
                continue
            token = self._token(pid)
            # At exit: also a leftover that cleared its environment (no token) but still
            # carries the confinement only our launches give (no_new_privs + a seccomp
            # filter): it was one of our commands' (MewCode's own children have neither).
            ours = any_of_ours and (self._ours(token) or (token is None and self._confined(pid)))
            if (member and sid in sids) or token in tokens or ours:
                victims.append(pid)
            elif token in self._live or (member and sid in live_sids):
                self._adopted.add(pid)
        return victims

    def _ours(self, token: str | None) -> bool:
        return token is not None and token.startswith(f"{self._me}-")

    def _child_pids(self) -> list[int]:
        """MewCode's children: from /proc/self/task/*/children where the kernel has it, else
        by reading every process's parent."""
        listings = glob.glob(f"{self._proc}/{self._me}/task/*/children")
        if listings:
            pids: list[int] = []
            for listing in listings:
                try:
                    with open(listing, "rb") as fh:
                        pids += [int(p) for p in fh.read().split()]
                except OSError:
                    continue
            return pids
        found: list[int] = []
        try:
            names = os.listdir(self._proc)
        except OSError:
            return found
        for name in names:
            if name.isdigit() and self._parent(name) == self._me:
                found.append(int(name))
        return found

    def _read(self, path: str) -> bytes | None:
        """The whole file (stat and environ files: os.read, no buffered file object)."""
        try:
            fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            return None
        chunks: list[bytes] = []
        try:
            while chunk := os.read(fd, 1 << 16):
                chunks.append(chunk)
        except OSError:
            return None
        finally:
            os.close(fd)
        return b"".join(chunks)

    def _stat_fields(self, pid: int | str) -> list[bytes] | None:
        raw = self._read(f"{self._proc}/{pid}/stat")
        if raw is None:
            return None
        fields = raw[raw.rfind(b")") + 2 :].split(b" ", 4)  # state ppid pgrp session ...
        return fields if len(fields) > 4 else None

    def _parent(self, pid: str) -> int | None:
        fields = self._stat_fields(pid)
        return int(fields[1]) if fields else None

    def _stat(self, pid: int) -> tuple[str | None, int]:
        fields = self._stat_fields(pid)
        if fields is None:
            return None, 0
        return fields[0].decode(), int(fields[3])

    def _token(self, pid: int) -> str | None:
        environ = self._read(f"{self._proc}/{pid}/environ")
        if not environ:
            return None
        key = RUN_ENV.encode() + b"="
        for entry in environ.split(b"\0"):
            if entry.startswith(key):
                return entry[len(key) :].decode("ascii", "replace")
        return None

    def _confined(self, pid: int) -> bool:
        """no_new_privs and a seccomp filter: what the Landlock launch thread gives."""
        status = self._read(f"{self._proc}/{pid}/status") or b""
        lines = dict(line.split(b":", 1) for line in status.splitlines() if b":" in line)
        return lines.get(b"NoNewPrivs", b"").strip() == b"1" and (
            lines.get(b"Seccomp", b"").strip() == b"2"
        )

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


def _forget_sweeper() -> None:
    """A forked process is no subreaper, and its parent's runs are not its own."""
    global _SWEEPER
    _SWEEPER = None


os.register_at_fork(after_in_child=_forget_sweeper)


def orphan_sweeper() -> OrphanSweeper:
    """The process's one sweeper: being a subreaper is a property of the whole process."""
    global _SWEEPER
    if _SWEEPER is None:
        _SWEEPER = OrphanSweeper()
    return _SWEEPER


def end_all_runs() -> int:
    """Kill every leftover of every run (at exit); a no-op when no run was ever confined."""
    return _SWEEPER.end_all() if _SWEEPER is not None else 0
