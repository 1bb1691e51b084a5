"""A session's running totals: tokens, cost and how full the context window is."""

from __future__ import annotations

from dataclasses import dataclass, field

from agent_core import events as ev
from agent_core.context.manager import ContextManager
from agent_core.llm.pricing import cost_usd
from agent_core.usage import Usage


@dataclass
class UsageMeter:
    """Adds up each request's usage; ``record`` returns the event a front end shows."""

    context: ContextManager  # told each request's figures: they anchor its estimates
    usage: Usage = field(default_factory=Usage)
    cost_usd: float = 0.0
    context_tokens: int = 0  # the last request's prompt + reply: how full the window is

    def record(self, usage: Usage, model: str) -> ev.UsageUpdate:
        """Count one request of ``model``."""
        self.usage = self.usage + usage
        self.cost_usd += cost_usd(model, usage)
        self.context.note_usage(usage)
        self.context_tokens = usage.prompt_tokens + usage.output_tokens
        return ev.UsageUpdate(
            input_tokens=self.usage.input_tokens,
            output_tokens=self.usage.output_tokens,
            cache_read_tokens=self.usage.cache_read_tokens,
            cache_write_tokens=self.usage.cache_write_tokens,
            cost_usd=round(self.cost_usd, 6),
            context_tokens=self.context_tokens,
            context_window=self.context.context_window,
        )
