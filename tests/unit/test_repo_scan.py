"""The scan for repositories a command created: found wherever they are, and cheap again."""

from __future__ import annotations

import os
from pathlib import Path

from agent_core.sandbox.repo_scan import RepoScanner


def test_finds_nested_repositories_and_gitdir_pointers_but_not_the_roots_own(tmp_path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "a" / "b" / ".git").mkdir(parents=True)
    (tmp_path / "mods" / "x").mkdir(parents=True)
    (tmp_path / ".git" / "modules" / "x").mkdir(parents=True)
    (tmp_path / "mods" / "x" / ".git").write_text("gitdir: ../../.git/modules/x\n")
    found = RepoScanner(str(tmp_path)).scan()
    assert found == {str(tmp_path / "a" / "b" / ".git"), str(tmp_path / ".git" / "modules" / "x")}


def test_a_repository_made_after_the_first_scan_is_found_in_a_new_or_old_folder(tmp_path):
    (tmp_path / "old" / "deep").mkdir(parents=True)
    scanner = RepoScanner(str(tmp_path))
    assert scanner.scan() == set()
    (tmp_path / "old" / "deep" / ".git").mkdir()
    (tmp_path / "new" / "x" / "y" / ".git").mkdir(parents=True)
    assert scanner.scan() == {
        str(tmp_path / "old" / "deep" / ".git"),
        str(tmp_path / "new" / "x" / "y" / ".git"),
    }


def test_a_removed_folder_takes_its_repositories_with_it(tmp_path) -> None:
    (tmp_path / "gone" / ".git").mkdir(parents=True)
    scanner = RepoScanner(str(tmp_path))
    assert scanner.scan()
    (tmp_path / "gone" / ".git").rmdir()
    (tmp_path / "gone").rmdir()
    assert scanner.scan() == set()


def test_a_rescan_reads_only_changed_folders(tmp_path, monkeypatch) -> None:
    for n in range(50):
        (tmp_path / f"d{n}").mkdir()
    # fresh_ns=0: a listing read just after it changed is not read again anyway.
    scanner = RepoScanner(str(tmp_path), fresh_ns=0)
    scanner.scan()
    listed: list[str] = []
    real = os.scandir

    def counting(path):  # type: ignore[no-untyped-def]
        listed.append(str(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", counting)
    (tmp_path / "d7" / "new").mkdir()
    scanner.scan()
    assert sorted(listed) == [str(tmp_path / "d7"), str(Path(tmp_path / "d7" / "new"))]


def test_a_folder_whose_mtime_is_set_back_is_read_again(tmp_path) -> None:
    """A command can os.utime a folder back to its old times, never its ctime."""
    (tmp_path / "src").mkdir()
    scanner = RepoScanner(str(tmp_path), fresh_ns=0)
    scanner.scan()
    before = os.stat(tmp_path / "src")
    (tmp_path / "src" / "sub" / ".git").mkdir(parents=True)
    os.utime(tmp_path / "src", ns=(before.st_atime_ns, before.st_mtime_ns))
    assert scanner.scan() == {str(tmp_path / "src" / "sub" / ".git")}
