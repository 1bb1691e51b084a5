"""How full a session is: its history, usage, cost and context window (read-only).

``Runtime`` holds one, rebuilt with each session it attaches, and its read-only members
(``history``, ``usage``, ``cost_usd``, ``context_tokens``...) read through it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from agent_core.agent.conversation import Conversation
from agent_core.agent.prompt import PromptChoice
from agent_core.agent.prompt_overhead import overhead_texts, overhead_tokens
from agent_core.agent.tool_catalog import ToolCatalog
from agent_core.agent.usage_meter import UsageMeter
from agent_core.context.manager import ContextManager
from agent_core.llm.pricing import model_info
from agent_core.messages import Message
from agent_core.modes import Mode
from agent_core.usage import Usage


class SessionFigures:
    """Figures of one session's parts, for the status bar, /status and /context."""

    def __init__(
        self,
        *,
        cwd: Path,
        catalog: ToolCatalog,
        prompt_choice: PromptChoice,
        conversation: Conversation,
        meter: UsageMeter,
        context: ContextManager,
        mode: Callable[[], Mode],
        model: Callable[[], str],
    ) -> None:
        self._cwd = cwd
        self._catalog = catalog
        self._prompt_choice = prompt_choice
        self._conversation = conversation
        self._meter = meter
        self._context = context
        # Read at each figure: the mode and the model change under a session.
        self._mode = mode
        self._model = model

    @property
    def history(self) -> list[Message]:
        return self._conversation.messages

    @property
    def usage(self) -> Usage:
        return self._meter.usage

    @property
    def cost_usd(self) -> float:
        return self._meter.cost_usd

    @property
    def context_tokens(self) -> int:
        """How full the window is: the one figure the status bar, /status and /context show."""
        return self._context.estimate(self.history, self.overhead_tokens())

    @property
    def context_window(self) -> int:
        return model_info(self._model()).context_window

    def context_breakdown(self) -> dict[str, int]:
        """Estimated tokens by category (system prompt, tools, messages...) for ``/context``."""
        texts = overhead_texts(self._cwd, self._mode(), self._catalog, self._prompt_choice)
        return self._context.breakdown(self.history, *texts)

    def overhead_tokens(self) -> int:
        """What every request carries besides the history: system prompt and tools."""
        return overhead_tokens(self._cwd, self._mode(), self._catalog, self._prompt_choice)
