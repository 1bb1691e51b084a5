"""Retrying a streamed request: exponential backoff, only before anything was streamed."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable

from agent_core.errors import ProviderError
from agent_core.llm.base import RetryNotice, StreamEvent

MAX_DELAY_S = 60.0
MAX_RETRY_AFTER_S = 300.0


def backoff_delay(attempt: int, base: float, retry_after: float | None = None) -> float:
    """Seconds to wait before retry number ``attempt`` (0-based); the server's word wins."""
    if retry_after is not None and retry_after >= 0:
        return min(retry_after, MAX_RETRY_AFTER_S)
    return min(base * (2**attempt), MAX_DELAY_S)


def retry_message(error: ProviderError, delay: float) -> str:
    """E.g. "rate limited, retrying in 4 s"."""
    if delay < 0.05:
        return f"{error}, retrying now"
    shown = f"{delay:.0f} s" if delay >= 1 else f"{delay:.1f} s"
    return f"{error}, retrying in {shown}"


async def with_retries(
    attempt: Callable[[], AsyncIterator[StreamEvent]],
    *,
    retries: int,
    backoff_base: float,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> AsyncIterator[StreamEvent]:
    """Run ``attempt`` until it completes, retrying retryable errors up to ``retries`` times.

    Once an event has been passed on, a failure is final: replaying half an answer
    would duplicate text the user already saw.
    """
    failures = 0
    while True:
        streamed = False
        try:
            async for event in attempt():
                streamed = True
                yield event
            return
        except ProviderError as err:
            if streamed or not err.retryable or failures >= retries:
                raise
            delay = backoff_delay(failures, backoff_base, err.retry_after)
            failures += 1
            yield RetryNotice(retry_message(err, delay), delay)
            await sleep(delay)
