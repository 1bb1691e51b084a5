"""The wide seam the full-screen TUI still drives a Runtime through, until it moves to ops.

Every other front end uses ``agent_core.protocol`` (ops in, one event stream out,
docs/protocol.md). ``RuntimeSession`` is the host's view of a runtime
(``HostedRuntime``) plus what the TUI's screen and commands still read directly;
it goes once they ask for it through ops. ``Runtime`` implements it; the TUI
tests' fake does too.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from agent_core.modes import Mode
from agent_core.protocol.hosted import HostedRuntime

if TYPE_CHECKING:
    from agent_core.config.settings import RuleEntry
    from agent_core.errors import MewCodeError
    from agent_core.messages import Message
    from agent_core.sandbox.policy import SandboxPolicy
    from agent_core.session.loader import SavedViews


class RuntimeSession(HostedRuntime, Protocol):
    """A conversation the TUI drives: the hosted runtime and the figures its commands read."""

    @property
    def session_path(self) -> Path: ...

    @property
    def history(self) -> Sequence[Message]: ...

    @property
    def sandbox_policy(self) -> SandboxPolicy:
        """What this session's commands may touch; MewCode's own git (``/review``) runs in a
        stricter copy of it (agent_core.git)."""
        ...

    @property
    def saved_views(self) -> SavedViews:
        """How the loaded history's tool calls and early-stopped turns looked live
        (status, duration, diff), for showing a resumed session as it was seen."""
        ...

    def context_breakdown(self) -> dict[str, int]:
        """Estimated tokens by category, the window and the compaction budget."""
        ...

    def start_mcp(self) -> None:
        """Start connecting every configured MCP server in the background (idempotent)."""
        ...

    def mode_refusal(self, mode: Mode) -> MewCodeError | None:
        """Why ``mode`` may not be used here, or None."""
        ...

    def rules(self) -> list[RuleEntry]: ...

    def remove_rule(self, entry: RuleEntry) -> bool: ...
