"""The layer-2 summary request: ask the model for the nine sections (docs/manual.md#sessions-and-context).

If the request itself is too long for the model, the oldest user-turn groups
are left out, one per retry for the first three retries, then 20 % of the
groups per retry, until it fits or nothing is left.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from agent_core.context.compaction import (
    groups_to_drop,
    render_transcript,
    summary_request_text,
    turn_groups,
)
from agent_core.errors import MewCodeError, ProviderError
from agent_core.llm.base import ChatRequest, Provider, SystemBlock, TextDelta
from agent_core.messages import Message, user_text

SUMMARY_SYSTEM = (
    "You write precise, complete summaries of coding sessions between a user and an AI "
    "coding agent, so that the agent can continue the work from the summary alone. "
    "You do not call tools; you answer with the summary only."
)


class SummaryError(MewCodeError):
    """The summary could not be produced (provider failure, empty answer, too long)."""


class Summary(msgspec.Struct, frozen=True):
    """A finished summary and how much had to be left out to get it."""

    text: str
    dropped_groups: int
    drops: list[int]  # groups dropped on each retry, in order


async def summarise(
    provider: Provider,
    older: Sequence[Message],
    *,
    instructions: str = "",
    max_tokens: int = 8192,
) -> Summary:
    """Summarise ``older`` through ``provider.stream``; raises SummaryError on failure."""
    groups = turn_groups(older)
    dropped = 0
    drops: list[int] = []
    while True:
        kept = [m for group in groups[dropped:] for m in group]
        if not kept:
            raise SummaryError("the conversation is too long to summarise, even in part")
        prompt = summary_request_text(render_transcript(kept), instructions, dropped)
        request = ChatRequest(
            messages=[user_text(prompt)],
            system=[SystemBlock(SUMMARY_SYSTEM)],
            max_tokens=max_tokens,
        )
        try:
            text = await _collect_text(provider, request)
        except ProviderError as exc:
            if exc.kind != "context_too_long":
                raise SummaryError(f"summary request failed: {exc}") from None
            step = min(groups_to_drop(len(drops) + 1, len(groups)), len(groups) - dropped)
            drops.append(step)
            dropped += step
            continue
        if not text.strip():
            raise SummaryError("the model returned an empty summary")
        return Summary(text.strip(), dropped, drops)


async def _collect_text(provider: Provider, request: ChatRequest) -> str:
    parts: list[str] = []
    async for event in provider.stream(request):
        if isinstance(event, TextDelta):
            parts.append(event.text)
    return "".join(parts)
