"""The seam between GroupProcess and an OS backend: how one command is launched confined."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol, TypeVar

from agent_core.sandbox.policy import SandboxPolicy
from agent_core.sandbox.status import SandboxStatus

T = TypeVar("T")


class ConfinementError(Exception):
    """The sandbox could not be applied to a launch; the command did not run."""


class Confinement:
    """One launch: the argv and environment to start, how to spawn it, and what the
    parent does around the process's life. The base class runs argv as it is."""

    def __init__(self, argv: list[str], env: dict[str, str] | None) -> None:
        self.argv = argv
        self.env = env
        # What the guard found and undid once the command ended (guarded_files.py).
        self.findings: list[str] = []
        # Protected paths the backend covers with an empty stand-in for this launch.
        self.stand_ins: list[str] = []

    def spawn(self, start: Callable[[], T]) -> T:
        """Call start() (which creates the process) in the context the child must inherit."""
        return start()

    def started(self, pid: int) -> None:
        """The process exists (its pid leads a new session); release what only the launch needed."""

    def ended(self) -> None:
        """The command's own process has exited or was killed: clear away what it left behind.

        Called once per launch, and again harmlessly by kill_all_running.
        """

    def abandon(self) -> None:
        """The process could not be started: release what the launch prepared."""


class SandboxBackend(Protocol):
    """An OS mechanism that confines commands to a SandboxPolicy."""

    @property
    def name(self) -> str: ...

    def status(self, policy: SandboxPolicy | None = None) -> SandboxStatus:
        """What this backend enforces here (with a policy: also that policy's own gaps)."""
        ...

    def confine(
        self, argv: list[str], policy: SandboxPolicy, cwd: Path, env: dict[str, str] | None
    ) -> Confinement:
        """How to run argv in cwd under the policy; raises OSError if it cannot be prepared."""
        ...
