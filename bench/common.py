"""Tiny helpers shared by the benchmarks: timing, medians and one-line reports."""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager


def measure(fn: Callable[[], object], repeat: int = 7, warmup: int = 1) -> list[float]:
    """Wall-clock seconds of `repeat` calls of fn, after `warmup` untimed calls."""
    for _ in range(warmup):
        fn()
    times: list[float] = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def interleaved(
    fns: dict[str, Callable[[], object]], repeat: int = 7, warmup: int = 1
) -> dict[str, list[float]]:
    """Time several callables in alternation, so machine noise hits them all alike."""
    for fn in fns.values():
        for _ in range(warmup):
            fn()
    times: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(repeat):
        for name, fn in fns.items():
            start = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - start)
    return times


def median(values: list[float]) -> float:
    """The median: robust against the odd slow run on a shared machine."""
    return statistics.median(values)


def report(
    name: str,
    value: float,
    baseline: float,
    target: float,
    *,
    baseline_name: str = "baseline",
    unit: str = "s",
) -> bool:
    """Print `name: V s vs base B s = R x (target <= T x) OK|MISS`; True when within target."""
    ratio = value / baseline if baseline > 0 else float("inf")
    ok = ratio <= target
    print(
        f"{name}: {value:.3f} {unit} vs {baseline_name} {baseline:.3f} {unit} = {ratio:.2f}x "
        f"(target <= {target:.2f}x) {'OK' if ok else 'MISS'}",
        flush=True,
    )
    return ok


def info(name: str, value: float, unit: str) -> None:
    """Print a measured figure that has no ratio target (e.g. peak memory)."""
    print(f"{name}: {value:.3f} {unit}", flush=True)


@contextmanager
def env_restored(name: str) -> Iterator[None]:
    """Put environment variable ``name`` back as it was (a bench that switches backends)."""
    saved = os.environ.get(name)
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = saved
