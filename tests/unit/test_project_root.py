"""The project root is found by walking up from the start folder, never by running git."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agent_core.config.paths import MewcodePaths
from agent_core.config.project_root import find_project_root


def make(root: Path, *entries: str) -> None:
    for entry in entries:
        target = root / entry
        if entry.endswith("/"):
            target.mkdir(parents=True, exist_ok=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text("")


@pytest.mark.parametrize(
    ("entries", "start", "expected"),
    [
        (["repo/.git/", "repo/src/deep/"], "repo/src/deep", "repo"),
        (["repo/.git", "repo/src/"], "repo/src", "repo"),  # a worktree's .git file
        # .git wins over a nearer .claude folder (a package inside a monorepo).
        (["repo/.git/", "repo/pkg/.claude/", "repo/pkg/a/"], "repo/pkg/a", "repo"),
        (["proj/.mewcode/", "proj/a/b/"], "proj/a/b", "proj"),
        (["proj/.claude/", "proj/a/"], "proj/a", "proj"),
        (["plain/a/"], "plain/a", "plain/a"),
    ],
)
def test_the_root_is_the_git_root_else_a_settings_folder_else_the_start(
    tmp_path: Path, entries: list[str], start: str, expected: str
) -> None:
    outside = tmp_path / "world"
    make(outside, *entries)
    home = tmp_path / "home"
    home.mkdir()
    found = find_project_root(outside / start, home, home / ".mewcode")
    assert found == (outside / expected).resolve()


def test_home_is_never_the_root_for_its_own_settings_or_dotfiles(tmp_path: Path) -> None:
    home = tmp_path / "home"
    make(home, ".claude/", ".mewcode/", ".git/", "scratch/a/")
    assert find_project_root(home / "scratch/a", home, home / ".mewcode") == home / "scratch/a"
    # Above HOME neither: a marker in a parent of HOME does not swallow it.
    make(tmp_path, ".claude/")
    assert find_project_root(home / "scratch", home, home / ".mewcode") == home / "scratch"


def test_the_folder_holding_mewcode_home_is_not_a_project_for_it(tmp_path: Path) -> None:
    home = tmp_path / "home"
    make(tmp_path, "home/", "srv/.mewcode/", "srv/work/")
    srv = tmp_path / "srv"
    assert find_project_root(srv / "work", home, srv / ".mewcode") == srv / "work"
    assert find_project_root(srv / "work", home, home / ".mewcode") == srv


def test_paths_from_a_subfolder_name_the_root_and_its_settings(tmp_path: Path) -> None:
    make(tmp_path, "repo/.git/", "repo/sub/")
    env = {"HOME": str(tmp_path / "home"), "MEWCODE_HOME": str(tmp_path / "mh")}
    paths = MewcodePaths.from_env(tmp_path / "repo/sub", env)
    assert paths.project == (tmp_path / "repo").resolve()
    assert paths.project_settings == paths.project / ".mewcode" / "settings.yaml"
    assert paths.sessions_dir == MewcodePaths.from_env(tmp_path / "repo", env).sessions_dir


def test_a_marker_another_user_owns_does_not_count(tmp_path: Path, monkeypatch) -> None:
    # As git refuses a repository another user owns: a stranger's /tmp/.git is not a root.
    make(tmp_path, "shared/.git/", "shared/.claude/", "shared/mine/")
    home = tmp_path / "home"
    home.mkdir()
    start = tmp_path / "shared" / "mine"
    assert find_project_root(start, home, home / ".mewcode") == tmp_path / "shared"
    me = os.geteuid()
    owner = {str(tmp_path / "shared" / m): me + 1 for m in (".git", ".claude")}
    real_lstat = os.lstat

    def lstat(path, *args, **kwargs):
        result = real_lstat(path, *args, **kwargs)
        if str(path) in owner:
            fields = list(result)
            fields[4] = owner[str(path)]  # st_uid
            return os.stat_result(fields)
        return result

    monkeypatch.setattr(os, "lstat", lstat)
    assert find_project_root(start, home, home / ".mewcode") == start
