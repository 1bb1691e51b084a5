"""The benchmark harness: report lines, and `python -m bench` going on past a failure."""

from __future__ import annotations

import types

import pytest

import bench.__main__ as runner
from bench.common import interleaved, measure, median, report


def test_report_prints_ratio_against_target(capsys: pytest.CaptureFixture[str]) -> None:
    assert report("grep 50k files", 0.412, 0.380, 1.3, baseline_name="rg") is True
    assert capsys.readouterr().out == (
        "grep 50k files: 0.412 s vs rg 0.380 s = 1.08x (target <= 1.30x) OK\n"
    )
    assert report("slow", 2.0, 1.0, 1.5) is False
    assert capsys.readouterr().out.rstrip().endswith("= 2.00x (target <= 1.50x) MISS")


def test_measure_and_interleaved_time_every_call() -> None:
    calls: list[str] = []
    assert len(measure(lambda: calls.append("m"), repeat=3, warmup=2)) == 3
    assert calls == ["m"] * 5
    calls.clear()
    times = interleaved({"a": lambda: calls.append("a"), "b": lambda: calls.append("b")}, 2, 0)
    assert calls == ["a", "b", "a", "b"]
    assert {k: len(v) for k, v in times.items()} == {"a": 2, "b": 2}
    assert median([3.0, 1.0, 2.0]) == 2.0


def test_runner_goes_on_after_a_crash(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    ran: list[str] = []

    def boom() -> bool:
        raise RuntimeError("tree generation failed")

    def fine() -> bool:
        ran.append("fine")
        return True

    modules = {"bench.bench_boom": boom, "bench.bench_fine": fine}
    monkeypatch.setattr(runner, "available", lambda: ["boom", "fine"])
    monkeypatch.setattr(
        runner.importlib, "import_module", lambda name: types.SimpleNamespace(main=modules[name])
    )
    assert runner.main([]) == 1
    out = capsys.readouterr().out
    assert "boom: FAILED: RuntimeError: tree generation failed" in out
    assert ran == ["fine"] and "missed or failed: boom" in out


def test_runner_rejects_unknown_names(capsys: pytest.CaptureFixture[str]) -> None:
    assert runner.main(["no_such_bench"]) == 2
    assert "unknown benchmark" in capsys.readouterr().out
