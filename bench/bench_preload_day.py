"""How many runs of a working day start cold, with the preload server's idle limit.

A scripted day of `mewcode` runs (bursts of work with a lunch break and a long meeting,
gaps drawn from a seeded generator, so every run of the bench sees the same day) is
replayed against the server's rule: it exits after ``idle`` minutes without a run, and
a run that finds no server starts cold and starts one. Reported: the share of cold runs
with the default limit (``preload_idle_minutes``) against the former 30 minutes.
"""

from __future__ import annotations

import random

from agent_core.config.settings_model import PRELOAD_IDLE_MINUTES

# (start, end) of the stretches of work, in minutes since midnight; between them no runs.
WORK = [(9 * 60, 12 * 60 + 30), (13 * 60 + 30, 15 * 60), (16 * 60 + 45, 18 * 60 + 30)]
MEAN_GAP_MIN = 7.0  # between two runs while working
LONG_GAP_EVERY = 9  # about one run in this many follows a longer pause (reading, a call)
LONG_GAP_MIN = (20.0, 50.0)
TARGET_COLD_SHARE = 0.05  # the default limit: the day's first run, and nearly no other


def day_of_runs(seed: int = 20261202) -> list[float]:
    """The minutes of the day at which `mewcode` runs."""
    rng = random.Random(seed)
    runs: list[float] = []
    for start, end in WORK:
        now = float(start)
        while now < end:
            runs.append(now)
            long = rng.randrange(LONG_GAP_EVERY) == 0
            now += rng.uniform(*LONG_GAP_MIN) if long else rng.expovariate(1 / MEAN_GAP_MIN)
    return runs


def cold_runs(runs: list[float], idle_minutes: float) -> int:
    """Runs that find no server: the first, and each after a gap longer than the limit."""
    cold, last = 0, None
    for at in runs:
        if last is None or at - last > idle_minutes:
            cold += 1
        last = at
    return cold


def main() -> bool:
    runs = day_of_runs()
    now = cold_runs(runs, PRELOAD_IDLE_MINUTES) / len(runs)
    before = cold_runs(runs, 30.0) / len(runs)
    print(
        f"preload day: {len(runs)} runs; cold {now:.1%} with the default idle limit "
        f"({PRELOAD_IDLE_MINUTES:g} min) against {before:.1%} with 30 min "
        f"(target <= {TARGET_COLD_SHARE:.0%})"
    )
    return now <= TARGET_COLD_SHARE
