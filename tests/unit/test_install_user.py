"""`make install-user` links the venv's mewcode into ~/.local/bin and never clobbers a stranger."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from scripts.install_user import install

ROOT = Path(__file__).resolve().parents[2]
VENV = Path(sys.executable).parent.parent


def env_for(home: Path, path: str = "/usr/bin") -> dict[str, str]:
    return {"HOME": str(home), "PATH": path}


@pytest.mark.slow
def test_the_link_runs_this_venvs_command(tmp_path: Path) -> None:
    said = install(VENV, env_for(tmp_path))
    link = tmp_path / ".local" / "bin" / "mewcode"
    assert link.is_symlink() and link.resolve() == (VENV / "bin" / "mewcode").resolve()
    assert "is not on your PATH" in said and "export PATH" in said
    out = subprocess.run([str(link), "--version"], capture_output=True, text=True, check=True)
    assert out.stdout.startswith("mewcode ")


def test_on_path_it_says_nothing_more_and_a_second_run_relinks(tmp_path: Path) -> None:
    folder = tmp_path / ".local" / "bin"
    install(VENV, env_for(tmp_path))
    said = install(VENV, env_for(tmp_path, f"{folder}{os.pathsep}/usr/bin"))
    assert said.count("\n") == 0 and said.startswith("Linked ")


def test_another_programs_file_is_left_alone(tmp_path: Path) -> None:
    folder = tmp_path / "bin"
    folder.mkdir()
    (folder / "mewcode").write_text("#!/bin/sh\necho someone else\n")
    with pytest.raises(SystemExit, match="another file is there"):
        install(VENV, {"HOME": str(tmp_path), "XDG_BIN_HOME": str(folder), "PATH": ""})
    assert "someone else" in (folder / "mewcode").read_text()


def test_without_an_install_it_says_what_to_run(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="run `make run`"):
        install(tmp_path / "novenv", env_for(tmp_path))


@pytest.mark.slow
def test_make_knows_the_target() -> None:
    out = subprocess.run(
        ["make", "-n", "install-user"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert "scripts/install_user.py" in out.stdout, out.stdout + out.stderr
