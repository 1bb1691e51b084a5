"""The seam between GroupProcess and an OS backend: how one command is launched confined."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from agent_core.sandbox.policy import SandboxPolicy
from agent_core.sandbox.status import SandboxStatus


class Confinement:
    """One launch: the argv and environment to start, a hook run in the child before exec,
    and what the parent does around the process's life. The base class runs argv as is."""

    def __init__(
        self,
        argv: list[str],
        env: dict[str, str] | None,
        preexec: Callable[[], None] | None = None,
    ) -> None:
        self.argv = argv
        self.env = env
        self.preexec = preexec

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
