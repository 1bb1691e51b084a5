"""ContextManager: what the loop calls each round to keep history within the window.

Layer 1 (spill) is ``manager.ledger``; layer 2 (summary) runs from
``before_round`` when the estimate exceeds the budget or history passes the
message cap, and from ``compact`` on ``/compact``. The loop persists a
successful outcome with ``SessionStore.append_compaction`` and emits the
``compaction`` event.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Literal

import msgspec

from agent_core.config.settings import Limits
from agent_core.context.breakdown import estimated_parts, fit_parts
from agent_core.context.compaction import (
    SplitPlan,
    build_compacted_history,
    compaction_budget,
    compaction_reason,
    plan_split,
    restore_block,
)
from agent_core.context.restore import read_snapshots
from agent_core.context.spill import SpillLedger
from agent_core.context.summarizer import SummaryError, summarise
from agent_core.context.tokens import estimate_message_tokens, estimate_tokens
from agent_core.errors import MewCodeError
from agent_core.llm.base import Provider
from agent_core.messages import Message
from agent_core.usage import Usage

Trigger = Literal["auto", "manual"]
PreCompact = Callable[[Trigger, str], Awaitable[str | None]]
MAX_FAILURES = 3


class CompactionError(MewCodeError):
    """A manual compaction could not run or failed."""


class SummaryNotSmaller(SummaryError):
    """The summary came back no smaller than the messages it would replace."""

    def __init__(self, summary_tokens: int, replaced_tokens: int) -> None:
        super().__init__(
            f"not compacted: the summary ({summary_tokens:,} tokens) would not be smaller "
            f"than what it replaces ({replaced_tokens:,})"
        )


class CompactionOutcome(msgspec.Struct):
    """What a compaction attempt produced; ``compacted`` False means history is unchanged.

    ``tokens_before`` and ``tokens_after`` are both estimates (characters / 4, the same
    count on each side), so they compare; the provider's count covers only the old history.
    """

    new_history: list[Message]
    tokens_before: int
    tokens_after: int
    compacted: bool = True
    warning: str | None = None  # tell the user (failure, breaker tripped, groups left out)
    summarised_messages: int = 0


class ContextManager:
    """Token accounting, spill ledger and LLM summaries for one session."""

    def __init__(
        self,
        limits: Limits,
        context_window: int,
        max_output: int,
        session_dir: Path,
        *,
        pre_compact: PreCompact | None = None,
    ) -> None:
        self.limits = limits
        self.context_window = context_window
        self.max_output = max_output
        self.budget = compaction_budget(limits, context_window, max_output)
        self.ledger = SpillLedger(session_dir, limit=limits.spill_bytes)
        self.pre_compact = pre_compact
        self.auto_enabled = True
        self.failures = 0  # consecutive automatic summary failures
        self.context_tokens = 0  # latest figure for the status bar
        self._sent: tuple[int, Message | None] | None = None  # history length + last message
        self._usage_at: tuple[int, Message | None] | None = None
        self._usage_prompt = 0

    def resize(self, context_window: int, max_output: int) -> None:
        """A new model: the window and the automatic compaction budget follow it."""
        self.context_window = context_window
        self.max_output = max_output
        self.budget = compaction_budget(self.limits, context_window, max_output)

    def note_usage(self, usage: Usage) -> None:
        """Record the provider's figures for the request ``before_round`` last passed."""
        if usage.prompt_tokens <= 0:
            return
        self._usage_prompt = usage.prompt_tokens
        self._usage_at = self._sent
        self.context_tokens = usage.prompt_tokens + usage.output_tokens

    def note_too_long(self, history: Sequence[Message]) -> None:
        """The API refused ``history`` as too long: count it as filling the window at least
        (the figure a front end shows must not say 1 % then), until a summary replaces it."""
        full = max(self.context_window, self.estimate(history))
        self._usage_prompt, self._usage_at = full, (len(history), history[-1] if history else None)
        self.context_tokens = full

    def estimate(self, history: Sequence[Message], overhead_tokens: int = 0) -> int:
        """Input tokens of the next request: last usage + what was appended since, else an estimate.

        This is the one context figure: the status bar, ``/status`` and ``/context`` show it.
        """
        if self._usage_at is not None and self.counted(history):
            return self._usage_prompt + estimate_message_tokens(history[self._usage_at[0] :])
        return overhead_tokens + estimate_message_tokens(history)

    async def before_round(
        self,
        history: list[Message],
        *,
        provider: Provider,
        tool_names: Sequence[str],
        recent_files: Sequence[Path] = (),
        overhead_tokens: int = 0,
        before_compaction: Callable[[], Awaitable[None]] | None = None,
        too_long: bool = False,
    ) -> CompactionOutcome | None:
        """Summarise automatically if needed. None when nothing was attempted.

        ``before_compaction`` runs just before a summary is made (PreCompact hooks).
        ``too_long``: the API refused the request as too long, whatever the estimate says.

        ``overhead_tokens`` (system prompt + tool definitions) is used only
        while no provider usage is known yet.
        """
        tokens = self.estimate(history, overhead_tokens)
        self.context_tokens = tokens
        reason = compaction_reason(tokens, len(history), self.budget, self.limits)
        if too_long:
            reason = "tokens"
        plan = self._plan(history) if reason and self.auto_enabled else None
        if plan is None:
            self._mark_sent(history)
            return None
        if before_compaction is not None:
            await before_compaction()
        try:
            # Forced by the message cap, fewer messages is the gain, even if not fewer tokens.
            outcome = await self._summarise(
                plan, provider, tool_names, recent_files, "", "auto", overhead_tokens,
                smaller=reason == "tokens",
            )  # fmt: skip
        except SummaryError as exc:
            self.failures += 1
            not_smaller = isinstance(exc, SummaryNotSmaller)
            warning = str(exc) if not_smaller else f"context compaction failed: {exc}"
            if self.failures >= MAX_FAILURES:
                self.auto_enabled = False
                warning = (
                    f"automatic compaction failed {self.failures} times in a row and is now off "
                    f"for this session ({exc}); use /compact to try again by hand"
                )
            self._mark_sent(history)
            return CompactionOutcome(history, tokens, tokens, compacted=False, warning=warning)
        self.failures = 0
        self._mark_sent(outcome.new_history)
        return outcome

    async def compact(
        self,
        history: list[Message],
        *,
        provider: Provider,
        tool_names: Sequence[str],
        recent_files: Sequence[Path] = (),
        instructions: str = "",
        overhead_tokens: int = 0,
    ) -> CompactionOutcome:
        """Manual ``/compact [instructions]``; raises CompactionError when it cannot."""
        tokens = self.estimate(history, overhead_tokens)
        plan = self._plan(history)
        if plan is None:
            raise CompactionError(
                f"nothing to compact yet: the conversation has {len(history)} messages"
            )
        try:
            outcome = await self._summarise(
                plan,
                provider,
                tool_names,
                recent_files,
                instructions,
                "manual",
                overhead_tokens,
            )
        except SummaryNotSmaller as exc:
            return CompactionOutcome(history, tokens, tokens, compacted=False, warning=str(exc))
        except SummaryError as exc:
            raise CompactionError(f"compaction failed: {exc}") from None
        self.failures = 0
        self._mark_sent(outcome.new_history)
        return outcome

    def counted(self, history: Sequence[Message]) -> bool:
        """Whether ``estimate`` starts from the provider's count (else it is all estimated)."""
        if self._usage_at is None:
            return False
        length, anchor = self._usage_at
        return length <= len(history) and (length == 0 or history[length - 1] is anchor)

    def breakdown(
        self, history: Sequence[Message], system_text: str, tools_json: str
    ) -> dict[str, int]:
        """Tokens by category for ``/context``; they add up to ``estimate`` (its "total")."""
        system, tools = estimate_tokens(system_text), estimate_tokens(tools_json)
        total = self.estimate(history, system + tools)
        counted = self.counted(history)
        parts = fit_parts(estimated_parts(history, system, tools), total, counted=counted)
        return {
            **parts,
            "total": total,
            "counted": int(counted),
            "context_window": self.context_window,
            "compaction_budget": self.budget,
            "free": max(self.context_window - total, 0),
        }

    def close(self) -> None:
        self.ledger.close()

    def _plan(self, history: Sequence[Message]) -> SplitPlan | None:
        # Keeping at most half the cap verbatim stops the cap from re-triggering next round.
        return plan_split(history, self.budget, max_keep=self.limits.history_cap_messages // 2)

    def _mark_sent(self, history: Sequence[Message]) -> None:
        self._sent = (len(history), history[-1] if history else None)

    async def _summarise(
        self,
        plan: SplitPlan,
        provider: Provider,
        tool_names: Sequence[str],
        recent_files: Sequence[Path],
        instructions: str,
        trigger: Trigger,
        overhead_tokens: int,
        *,
        smaller: bool = True,
    ) -> CompactionOutcome:
        """The summary and the history it makes; with ``smaller``, SummaryNotSmaller unless
        that history is smaller than the one it replaces."""
        if self.pre_compact is not None:
            extra = await self.pre_compact(trigger, instructions)
            if extra:
                instructions = f"{instructions}\n{extra}".strip()
        summary = await summarise(
            provider, plan.older, instructions=instructions, max_tokens=self.max_output
        )
        restore = restore_block(read_snapshots(recent_files), list(tool_names))
        new_history = build_compacted_history(summary.text, restore, plan.recent)
        # Both sides estimated: the provider counted only the old history.
        replaced = estimate_message_tokens(plan.older)
        replacement = estimate_message_tokens(new_history[: len(new_history) - len(plan.recent)])
        if smaller and replacement >= replaced:
            raise SummaryNotSmaller(replacement, replaced)
        kept = overhead_tokens + estimate_message_tokens(plan.recent)
        tokens_before, after = kept + replaced, kept + replacement
        self._usage_at = None  # the old figures describe a history that is gone
        self.context_tokens = after
        warning = None
        if summary.dropped_groups:
            warning = (
                f"the {summary.dropped_groups} oldest turn(s) were too long to summarise "
                "and were left out of the summary"
            )
        return CompactionOutcome(
            new_history,
            tokens_before,
            after,
            warning=warning,
            summarised_messages=len(plan.older),
        )
