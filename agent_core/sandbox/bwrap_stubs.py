"""The empty files and directories bubblewrap leaves on the host as mount points.

To keep a protected path that does not exist (``.mcp.json``, ``.claude/``) from being
created, bwrap mounts an empty read-only stand-in there, and making that mount point
creates an empty file or directory on the host. The ledger counts the launches that
rely on each one and removes it once the last of them has ended, if it is still empty
(something written into it meanwhile, from outside the sandbox, is left alone).
"""

from __future__ import annotations

import os
import stat
import threading

from agent_core.sandbox.backend import Confinement
from agent_core.sandbox.bwrap_plan import KindOf, PathKind, path_kind, placeholders
from agent_core.sandbox.policy import SandboxPolicy


class StubLedger:
    """Which stand-ins the launches of this process rely on; one per process (``STUBS``)."""

    def __init__(self) -> None:
        self._held: dict[str, int] = {}
        self._lock = threading.Lock()

    def hold(self, policy: SandboxPolicy, kind: KindOf = path_kind) -> list[tuple[str, str]]:
        """(path, kind) of the stand-ins one launch under ``policy`` makes or reuses;
        counted until released."""
        with self._lock:
            ours = set(self._held)

            # A stand-in another launch of ours made is still "missing" to the plan.
            def seen(path: str) -> PathKind:
                return None if path in ours else kind(path)

            found = placeholders(policy, seen)
            for path, _ in found:
                self._held[path] = self._held.get(path, 0) + 1
            return found

    def release(self, paths: list[str]) -> None:
        """One launch is over; a stand-in nobody relies on any more is removed if still empty."""
        with self._lock:
            for path in paths:
                left = self._held.get(path, 0) - 1
                if left > 0:
                    self._held[path] = left
                    continue
                self._held.pop(path, None)
                _remove_if_empty(path)

    def held(self) -> list[str]:
        with self._lock:
            return list(self._held)


def _remove_if_empty(path: str) -> None:
    try:
        info = os.lstat(path)
        if stat.S_ISREG(info.st_mode) and info.st_size == 0:
            os.unlink(path)
        elif stat.S_ISDIR(info.st_mode):
            os.rmdir(path)  # fails, and is left, unless empty
    except OSError:
        pass


STUBS = StubLedger()
# A forked child's launches are its own: it relies on none of its parent's stand-ins.
os.register_at_fork(after_in_child=STUBS._held.clear)


class StubbedConfinement(Confinement):
    """A bwrap launch that releases its stand-ins when it ends (or never starts)."""

    def __init__(
        self, argv: list[str], env: dict[str, str] | None, stubs: list[str], ledger: StubLedger
    ) -> None:
        super().__init__(argv, env)
        self._stubs: list[str] | None = stubs
        self._ledger = ledger

    def ended(self) -> None:
        self._release()

    def abandon(self) -> None:
        self._release()

    def _release(self) -> None:
        if self._stubs is not None:
            stubs, self._stubs = self._stubs, None
            self._ledger.release(stubs)
