"""What ``SessionHost`` needs of a runtime: the host's view of one, not a front end's.

Front ends never see this seam: they submit ops and read events (docs/protocol.md).
``Runtime`` implements it; the TUI tests' fake does too, so the TUI runs under a
real host in its tests (mypy checks both against it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol

if TYPE_CHECKING:
    from agent_core import events as ev
    from agent_core.agent.loop import TurnStats
    from agent_core.channel import RendezvousChannel
    from agent_core.config.paths import MewcodePaths
    from agent_core.config.settings_model import RuleEntry, Settings
    from agent_core.context.manager import CompactionOutcome
    from agent_core.hooks.session_hooks import SessionHooks
    from agent_core.llm.base import Provider
    from agent_core.mcp.model import McpServerStatus
    from agent_core.memory.files import MemoryReach
    from agent_core.memory.long_term import LongTermMemory
    from agent_core.messages import ImageBlock, Message
    from agent_core.modes import Mode
    from agent_core.sandbox.policy import SandboxPolicy
    from agent_core.sandbox.status import SandboxStatus
    from agent_core.session.loader import SavedViews
    from agent_core.skills.loader import SkillLibrary
    from agent_core.tools.shells import ShellRegistry
    from agent_core.usage import Usage


class HostedRuntime(Protocol):
    """A conversation's runtime as its host drives it: turns, approvals, mode, figures."""

    # --- identity and figures (read for the snapshot) --------------------------

    @property
    def session_id(self) -> str: ...

    @property
    def opened_as(self) -> Literal["new", "resumed"]:
        """What opening found: a new session or a saved one."""
        ...

    @property
    def cwd(self) -> Path: ...

    @property
    def paths(self) -> MewcodePaths: ...

    @property
    def session_path(self) -> Path:
        """The session's file."""
        ...

    @property
    def history(self) -> Sequence[Message]: ...

    @property
    def saved_views(self) -> SavedViews:
        """What the live view showed beyond the messages (read back from the session file)."""
        ...

    @property
    def mode(self) -> Mode: ...

    @property
    def provider(self) -> Provider: ...

    @property
    def running(self) -> bool:
        """A turn is in progress."""
        ...

    @property
    def usage(self) -> Usage: ...

    @property
    def cost_usd(self) -> float: ...

    @property
    def context_tokens(self) -> int: ...

    @property
    def context_window(self) -> int: ...

    @property
    def sandbox(self) -> SandboxStatus: ...

    @property
    def last_stats(self) -> TurnStats: ...

    @property
    def settings_problems(self) -> Sequence[str]: ...

    @property
    def load_warnings(self) -> Sequence[str]:
        """What loading the current session found wrong (told when it opens)."""
        ...

    def tool_names(self) -> list[str]: ...

    # --- news the host turns into events ----------------------------------------

    def watch_mode(self, callback: Callable[[Mode], None]) -> None:
        """Call ``callback`` with the new mode on every change, whoever made it."""
        ...

    def watch_mcp(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` on the event loop whenever an MCP server's state changes."""
        ...

    # --- MCP servers --------------------------------------------------------------

    async def settle_tools(self) -> None:
        """Wait until the MCP servers whose tools are not cached connected or failed."""
        ...

    def mcp_servers(self) -> list[McpServerStatus]: ...

    async def mcp_reconnect(self, name: str) -> McpServerStatus:
        """Restart one server and wait for it; MewCodeError for an unknown name."""
        ...

    # --- the parts the queries read ------------------------------------------------

    @property
    def memory(self) -> LongTermMemory: ...

    @property
    def skills(self) -> SkillLibrary: ...

    @property
    def hooks(self) -> SessionHooks: ...

    def memory_reach(self) -> MemoryReach: ...

    @property
    def sandbox_policy(self) -> SandboxPolicy:
        """What the session's commands may touch; MewCode's own git (the review diff) runs
        in a stricter copy of it."""
        ...

    @property
    def shells(self) -> ShellRegistry:
        """The session's background shells (``query_shells`` lists them, ``stop_shell`` kills one)."""
        ...

    def rules(self) -> list[RuleEntry]:
        """Every permission rule in force, with the file (or "session") it came from."""
        ...

    def remove_rule(self, entry: RuleEntry) -> bool:
        """Remove ``entry`` from its file or the session; False when it is not there."""
        ...

    def context_breakdown(self) -> dict[str, int]:
        """Estimated tokens by category, the window and the compaction budget."""
        ...

    @property
    def settings(self) -> Settings:
        """The merged settings in force (/config traces each value to its file)."""
        ...

    @property
    def provider_env(self) -> Mapping[str, str]:
        """The environment providers are built from (/doctor names where the key is)."""
        ...

    @property
    def added_directories(self) -> Sequence[str]:
        """The folders ``add_directory`` added this session."""
        ...

    def add_directory(self, path: str) -> tuple[Path, bool]:
        """Let the session read and edit in ``path`` (relative to its directory) as
        ``--add-dir`` does; the folder and whether it is new. MewCodeError for a missing
        path or a file."""
        ...

    # --- turns ----------------------------------------------------------------------

    async def run_turn(
        self,
        text: str,
        events: RendezvousChannel[ev.Event] | None = None,
        *,
        can_ask: bool = True,
        turn_id: str | None = None,
        images: Sequence[ImageBlock] = (),
        shown: str = "",
    ) -> ev.TurnCompleted:
        """Run one user turn (``images`` after its text); its events go to ``events``.

        ``shown`` is what the user typed when ``text`` is its expansion (``/review``)."""
        ...

    async def run_shell(
        self,
        command: str,
        events: RendezvousChannel[ev.Event] | None = None,
        *,
        can_ask: bool = True,
        turn_id: str | None = None,
    ) -> ev.TurnCompleted:
        """Run a ``!`` command as a Bash call; answered like a turn."""
        ...

    def answer_approval(self, approval_id: str, reply: ev.ApprovalReply | ev.PlanAnswer) -> bool:
        """Answer the waiting approval with this id (a tool call's or a plan's); False
        when none of that kind waits under it."""
        ...

    def cancel(self) -> None:
        """End the running turn ``cancelled``, its history closed and valid."""
        ...

    # --- mode, model, history -------------------------------------------------------------

    def set_mode(self, mode: Mode) -> None:
        """Switch the permission mode; MewCodeError when it is unknown or refused here."""
        ...

    async def switch_model(self, model: str, provider: str | None = None) -> None: ...

    async def compact(self, instructions: str = "") -> CompactionOutcome: ...

    async def new_session(self) -> None: ...

    async def resume(self, session_id: str) -> list[str]: ...

    async def fork(self, session_id: str | None = None) -> None: ...

    async def close(self) -> None: ...
