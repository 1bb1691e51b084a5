"""Shared fixtures: every test gets its own MEWCODE_HOME and project directory."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests import process_guard

pytest_plugins = ["tests.fakellm.plugin"]
process_guard.install()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if process_guard.slow_by_place(item):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True, scope="session")
def _sandbox_probed_once() -> None:
    """Probe the OS sandbox (a short bwrap run, cached for the process) before any test.

    Whichever test opened a runtime first would otherwise start that probe, and the
    process guard below would fail it for a process it did not ask for.
    """
    from agent_core.sandbox.selection import sandbox_backend

    sandbox_backend()


@pytest.fixture(autouse=True)
def _processes_only_in_slow_tests(request: pytest.FixtureRequest):
    """A test that starts a process must be marked slow (``make check`` skips those)."""
    before = process_guard.mark()
    yield
    started = process_guard.started_since(before)
    if started and request.node.get_closest_marker("slow") is None:
        pytest.fail(
            f"started a process ({started[0]}) but is not marked slow: mark it "
            "`@pytest.mark.slow` (tests/process_guard.py)",
            pytrace=False,
        )


@pytest.fixture(autouse=True)
def mewcode_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Isolate MEWCODE_HOME (and HOME) so no test touches the real home directory."""
    home = tmp_path_factory.mktemp("mewcode_home")
    user_home = tmp_path_factory.mktemp("user_home")
    monkeypatch.setenv("MEWCODE_HOME", str(home))
    monkeypatch.setenv("HOME", str(user_home))
    for var in (
        "ANTHROPIC_API_KEY",
        "OPENAI_API_KEY",
        "ANTHROPIC_BASE_URL",
        "OPENAI_BASE_URL",
        "MEWCODE_PROVIDER",
        "MEWCODE_MODEL",
    ):
        monkeypatch.delenv(var, raising=False)
    return home


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """An empty project directory (the agent's cwd)."""
    root = tmp_path / "project"
    root.mkdir()
    return root.resolve()


@pytest.fixture
def paths(project: Path, mewcode_home: Path):
    from agent_core.config.paths import MewcodePaths

    return MewcodePaths(home=mewcode_home, project=project)


def pytest_configure(config: pytest.Config) -> None:
    os.environ.setdefault("NO_COLOR", "1")
