"""The scripted day's cold runs: the first, and each after a gap past the idle limit."""

from __future__ import annotations

from bench.bench_preload_day import cold_runs, day_of_runs


def test_a_gap_past_the_limit_makes_the_next_run_cold() -> None:
    runs = [0.0, 10.0, 45.0, 50.0, 200.0]
    assert cold_runs(runs, 30.0) == 3  # the first, after 35 min, after 150 min
    assert cold_runs(runs, 720.0) == 1


def test_the_day_is_the_same_every_run_and_spans_the_breaks() -> None:
    day = day_of_runs()
    assert day == day_of_runs() and len(day) > 40
    assert any(b - a >= 60 for a, b in zip(day, day[1:], strict=False))  # lunch
