"""The fast tier holds no test that starts a process: the guard catches an unmarked one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

UNMARKED = """
import subprocess

def test_runs_true():
    subprocess.run(["true"], check=True)
"""


@pytest.mark.slow
def test_an_unmarked_test_that_starts_a_process_fails_naming_it(tmp_path: Path) -> None:
    folder = ROOT / "tests" / "unit"
    probe = folder / f"test_zz_tier_probe_{tmp_path.name}.py"
    probe.write_text(UNMARKED)
    try:
        out = subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", str(probe)],
            cwd=ROOT, capture_output=True, text=True, check=False,
        )  # fmt: skip
    finally:
        probe.unlink()
    assert out.returncode != 0
    assert "started a process (['true']) but is not marked slow" in out.stdout


@pytest.mark.slow
def test_tests_under_integration_and_with_the_fake_server_are_slow_by_place() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--co", "-q",
         "-m", "not slow", "tests/integration"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert "::" not in out.stdout, out.stdout[:500]
