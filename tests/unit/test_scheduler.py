"""Ordered batch concurrency: read-only runs batch up, others run alone, order kept."""

from __future__ import annotations

import asyncio

from agent_core.agent.scheduler import plan_batches, run_ordered


def test_plan_batches_groups_consecutive_read_only_calls() -> None:
    assert plan_batches([True, True, False, True, False, False, True]) == [
        [0, 1],
        [2],
        [3],
        [4],
        [5],
        [6],
    ]
    assert plan_batches([]) == []


async def test_results_in_request_order_even_when_the_first_is_slowest() -> None:
    finished: list[str] = []

    async def execute(call: tuple[str, float]) -> str:
        name, delay = call
        await asyncio.sleep(delay)
        finished.append(name)
        return name

    calls = [("slow", 0.08), ("fast1", 0.0), ("fast2", 0.01)]
    results = await run_ordered(calls, lambda c: True, execute)
    assert finished[0] != "slow"  # they really ran concurrently
    assert results == ["slow", "fast1", "fast2"]


async def test_concurrency_is_capped_and_side_effect_calls_run_alone() -> None:
    running = 0
    peak = 0
    log: list[str] = []

    async def execute(call: str) -> str:
        nonlocal running, peak
        running += 1
        peak = max(peak, running)
        if call == "write":
            assert running == 1, "a side-effect call must run alone"
        log.append(f"start {call}")
        await asyncio.sleep(0.02)
        running -= 1
        return call

    calls = ["r"] * 6 + ["write"] + ["r"] * 2
    results = await run_ordered(calls, lambda c: c == "r", execute, max_concurrency=4)
    assert peak == 4
    assert results == calls
    # The write started only after all six reads before it had started.
    assert log.index("start write") == 6
