"""The demo's scratch copy: what it holds, and that it is gone afterwards."""

from __future__ import annotations

from pathlib import Path

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
