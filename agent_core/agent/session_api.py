"""The wide seam the full-screen TUI still drives a Runtime through, until it moves to ops.

Every other front end uses ``agent_core.protocol`` (ops in, one event stream out,
docs/protocol.md). The TUI calls these methods and reads these figures, and never
assigns the runtime's attributes. ``Runtime`` implements it; the TUI tests' fake does too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from agent_core.modes import Mode

if TYPE_CHECKING:
    from agent_core import events as ev
    from agent_core.agent.loop import TurnStats
    from agent_core.channel import RendezvousChannel
    from agent_core.config.settings import RuleEntry
    from agent_core.context.manager import CompactionOutcome
    from agent_core.errors import MewCodeError
    from agent_core.llm.base import Provider
    from agent_core.mcp.model import McpServerStatus
    from agent_core.messages import Message
    from agent_core.sandbox.policy import SandboxPolicy
    from agent_core.sandbox.status import SandboxStatus
    from agent_core.session.loader import SavedViews
    from agent_core.usage import Usage


class RuntimeSession(Protocol):
    """A conversation the TUI drives: turns, approvals (via events), mode, model, history."""

    # --- identity and state (read-only) ---------------------------------------

    @property
    def session_id(self) -> str: ...

    @property
    def session_path(self) -> Path: ...

    @property
    def cwd(self) -> Path: ...

    @property
    def mode(self) -> Mode: ...

    @property
    def provider(self) -> Provider: ...

    @property
    def history(self) -> Sequence[Message]: ...

    @property
    def running(self) -> bool:
        """A turn is in progress."""
        ...

    @property
    def sandbox(self) -> SandboxStatus: ...

    @property
    def sandbox_policy(self) -> SandboxPolicy:
        """What this session's commands may touch; MewCode's own git (``/review``) runs in a
        stricter copy of it (agent_core.git)."""
        ...

    @property
    def settings_problems(self) -> Sequence[str]: ...

    @property
    def load_warnings(self) -> Sequence[str]: ...

    @property
    def saved_views(self) -> SavedViews:
        """How the loaded history's tool calls and early-stopped turns looked live
        (status, duration, diff), for showing a resumed session as it was seen."""
        ...

    # --- figures -----------------------------------------------------------------

    @property
    def usage(self) -> Usage: ...

    @property
    def cost_usd(self) -> float: ...

    @property
    def context_tokens(self) -> int: ...

    @property
    def context_window(self) -> int: ...

    @property
    def last_stats(self) -> TurnStats: ...

    def context_breakdown(self) -> dict[str, int]:
        """Estimated tokens by category, the window and the compaction budget."""
        ...

    def tool_names(self) -> list[str]: ...

    # --- MCP servers -------------------------------------------------------------------

    def start_mcp(self) -> None:
        """Start connecting every configured MCP server in the background (idempotent)."""
        ...

    async def settle_tools(self) -> None:
        """Wait until the tools offered at start are known: MCP servers whose tools are
        not cached are connected or have failed (each bounded by the start-up timeout)."""
        ...

    def mcp_servers(self) -> list[McpServerStatus]:
        """Every configured MCP server and its state, in configuration order."""
        ...

    async def mcp_reconnect(self, name: str) -> McpServerStatus:
        """Restart one server and wait for it; raises MewCodeError for an unknown name."""
        ...

    def watch_mcp(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` on the event loop whenever a server's state changes."""
        ...

    # --- turns ---------------------------------------------------------------------

    async def run_turn(
        self, text: str, events: RendezvousChannel[ev.Event] | None = None, *, can_ask: bool = True
    ) -> ev.TurnCompleted:
        """Run one user turn; approvals arrive as ``ApprovalRequested`` events with a ticket."""
        ...

    def answer_approval(self, approval_id: str, reply: ev.ApprovalReply) -> bool:
        """Answer the ``ApprovalRequested`` with this id; False when none waits under it
        (already answered, or its turn ended)."""
        ...

    def cancel(self) -> None: ...

    # --- mode, model, rules -----------------------------------------------------------

    def mode_refusal(self, mode: Mode) -> MewCodeError | None:
        """Why ``mode`` may not be used here, or None."""
        ...

    def set_mode(self, mode: Mode) -> None:
        """Switch the permission mode; raises MewCodeError when it is refused."""
        ...

    async def switch_model(self, model: str, provider: str | None = None) -> None:
        """Use ``model`` (of ``provider``, default the current one) from the next request on."""
        ...

    def rules(self) -> list[RuleEntry]: ...

    def remove_rule(self, entry: RuleEntry) -> bool: ...

    # --- history -------------------------------------------------------------------------

    async def compact(self, instructions: str = "") -> CompactionOutcome: ...

    async def new_session(self) -> None: ...

    async def resume(self, session_id: str) -> list[str]:
        """Switch to a saved session of this project; returns its load warnings."""
        ...

    async def close(self) -> None: ...
