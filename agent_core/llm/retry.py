"""Retrying a streamed request with exponential backoff (docs/manual.md#retries).

A failure after part of the answer was streamed (the connection dropped mid-answer) is
retried too: the notice then says ``restart``, and the consumer drops what it had.
"""

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

    A retry after events were passed on is a ``restart``: the answer comes again from its
    start, and the consumer must drop what it had (else the text would be doubled).
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
            if not err.retryable or failures >= retries:
                raise
            delay = backoff_delay(failures, backoff_base, err.retry_after)
            failures += 1
            yield RetryNotice(retry_message(err, delay), delay, restart=streamed)
            await sleep(delay)
