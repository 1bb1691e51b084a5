"""What a front end reads of a session: who it is, its mode and model, its history and
how full its context window is (the read-only half of ``RuntimeSession``).

``Runtime`` inherits these and sets up the parts they read; nothing here changes state.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from agent_core.agent.conversation import Conversation
from agent_core.agent.prompt import PromptChoice
from agent_core.agent.prompt_overhead import overhead_texts, overhead_tokens
from agent_core.agent.tool_catalog import ToolCatalog
from agent_core.agent.usage_meter import UsageMeter
from agent_core.context.manager import ContextManager
from agent_core.llm.base import Provider
from agent_core.llm.pricing import model_info
from agent_core.messages import Message
from agent_core.modes import Mode
from agent_core.session.store import SessionStore
from agent_core.usage import Usage


class SessionFigures:
    """Read-only views of a session's parts, for the status bar, /status and /context."""

    cwd: Path
    catalog: ToolCatalog
    store: SessionStore
    conversation: Conversation
    meter: UsageMeter
    context: ContextManager
    _mode: Mode
    _provider: Provider
    _task: asyncio.Task | None
    prompt_choice: PromptChoice

    @property
    def mode(self) -> Mode:
        return self._mode

    @property
    def provider(self) -> Provider:
        return self._provider

    @property
    def session_id(self) -> str:
        return self.store.session_id

    @property
    def session_path(self) -> Path:
        return self.store.path

    @property
    def history(self) -> list[Message]:
        return self.conversation.messages

    @property
    def usage(self) -> Usage:
        return self.meter.usage

    @property
    def cost_usd(self) -> float:
        return self.meter.cost_usd

    @property
    def context_tokens(self) -> int:
        """How full the window is: the one figure the status bar, /status and /context show."""
        return self.context.estimate(self.history, self._overhead_tokens())

    @property
    def context_window(self) -> int:
        return model_info(self.provider.model).context_window

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def context_breakdown(self) -> dict[str, int]:
        """Estimated tokens by category (system prompt, tools, messages...) for ``/context``."""
        return self.context.breakdown(
            self.history, *overhead_texts(self.cwd, self.mode, self.catalog, self.prompt_choice)
        )

    def _overhead_tokens(self) -> int:
        return overhead_tokens(self.cwd, self.mode, self.catalog, self.prompt_choice)
