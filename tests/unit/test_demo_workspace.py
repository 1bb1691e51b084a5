"""The demo's scratch copy: what it holds, and that it is gone afterwards."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agent_core.config.paths import MewcodePaths
from agent_core.llm.demo_workspace import (
    MAX_FILE_BYTES,
    is_demo_workspace,
    open_demo_workspace,
    remove_demo_workspace,
)


def test_the_copy_holds_small_visible_top_level_files_only(
    project: Path, mewcode_home: Path, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    (project / "README.md").write_text("# hi\n")
    (project / ".env").write_text("SECRET=1\n")
    (project / "big.bin").write_bytes(b"x" * (MAX_FILE_BYTES + 1))
    (project / "src").mkdir()
    (project / "src" / "a.py").write_text("print(1)\n")
    scratch = open_demo_workspace(MewcodePaths(home=mewcode_home, project=project))
    assert is_demo_workspace(scratch.project) and not is_demo_workspace(project)
    assert scratch.project.parent.parent == tmp_path.resolve()
    assert sorted(p.name for p in scratch.project.iterdir()) == ["README.md"]
    assert (
        scratch.home == mewcode_home
        and scratch.sessions_dir != MewcodePaths(home=mewcode_home, project=project).sessions_dir
    )
    scratch.sessions_dir.mkdir(parents=True)
    remove_demo_workspace(scratch)
    assert not scratch.project.parent.exists() and not scratch.sessions_dir.exists()
    assert (project / "README.md").read_text() == "# hi\n"


def test_an_empty_folder_gets_a_sample_readme(
    project: Path, mewcode_home: Path, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    scratch = open_demo_workspace(MewcodePaths(home=mewcode_home, project=project))
    assert "Sample project" in (scratch.project / "README.md").read_text()
    assert list(project.iterdir()) == []
    remove_demo_workspace(scratch)


@pytest.mark.slow
def test_a_copy_left_by_a_killed_demo_is_swept_and_a_live_one_is_kept(tmp_path) -> None:
    import subprocess
    import sys

    from agent_core.llm.demo_workspace import MARKER, PREFIX, sweep_stale_workspaces

    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    stale, live, foreign = tmp_path / f"{PREFIX}a", tmp_path / f"{PREFIX}b", tmp_path / f"{PREFIX}c"
    for root, note in ((stale, f"pid {dead}\n"), (live, f"pid {os.getpid()}\n"), (foreign, None)):
        (root / "proj").mkdir(parents=True)
        if note is not None:
            (root / MARKER).write_text("a scratch copy\n" + note)
    assert sweep_stale_workspaces(tmp_path) == 1
    assert not stale.exists() and live.exists() and foreign.exists()
