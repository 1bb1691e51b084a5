"""Ordered batch concurrency for one round's tool calls (docs/architecture.md#the-agent-loop).

Walk the calls in the model's order; consecutive read-only calls form a batch
that runs concurrently (at most ``max_concurrency`` at once); a call with side
effects closes the batch and runs alone. Results come back in request order.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

C = TypeVar("C")
R = TypeVar("R")


def plan_batches(read_only: Sequence[bool]) -> list[list[int]]:
    """Group call indexes: runs of read-only calls together, others alone."""
    batches: list[list[int]] = []
    current: list[int] = []
    for index, ro in enumerate(read_only):
        if ro:
            current.append(index)
            continue
        if current:
            batches.append(current)
            current = []
        batches.append([index])
    if current:
        batches.append(current)
    return batches


async def run_ordered(
    calls: Sequence[C],
    is_read_only: Callable[[C], bool],
    execute: Callable[[C], Awaitable[R]],
    max_concurrency: int = 4,
) -> list[R]:
    """Execute calls batch by batch; the returned list is in request order."""
    results: list[R | None] = [None] * len(calls)
    limit = asyncio.Semaphore(max(1, max_concurrency))

    async def one(index: int) -> None:
        async with limit:
            results[index] = await execute(calls[index])

    for batch in plan_batches([is_read_only(c) for c in calls]):
        if len(batch) == 1:
            await one(batch[0])
            continue
        async with asyncio.TaskGroup() as group:
            for index in batch:
                group.create_task(one(index))
    return results  # type: ignore[return-value]
