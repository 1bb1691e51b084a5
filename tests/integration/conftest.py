"""Fixtures for tests that run commands under the OS sandbox."""

from __future__ import annotations

from pathlib import Path

import pytest

SANDBOX_BACKENDS = ["bubblewrap", "landlock"]


def sandbox_available(backend: str) -> bool:
    from agent_core.sandbox import backend_available

    return backend_available(backend)


@pytest.fixture(params=SANDBOX_BACKENDS)
def backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each Linux backend in turn (MEWCODE_SANDBOX), skipped where it cannot run."""
    if not sandbox_available(request.param):
        pytest.skip(f"{request.param} is not available on this machine")
    monkeypatch.setenv("MEWCODE_SANDBOX", request.param)
    return request.param


@pytest.fixture
def own_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A system temp dir of the command's own, so the rest of /tmp counts as outside."""
    tmp = tmp_path / "systmp"
    tmp.mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp))
    return tmp


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """Where witnesses go: out of sight (bubblewrap's private /tmp) or read-only
    (Landlock) to commands, so a file there was made outside the sandbox."""
    path = tmp_path / "outside"
    path.mkdir()
    return path
