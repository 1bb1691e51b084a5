"""Opening a checked path with no symlink on the way: openat2, and the walk where it is missing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agent_core.tools.nofollow import (
    PathChanged,
    open_no_symlinks,
    open_parent_dir,
    openat2_available,
)

WAYS = [pytest.param(True, id="walk"), pytest.param(False, id="openat2")]


@pytest.fixture(params=WAYS)
def walk(request) -> bool:
    if request.param is False and not openat2_available():
        pytest.skip("no openat2 in this kernel")
    return request.param


def read(path: Path, root: Path, walk: bool) -> bytes:
    fd = open_no_symlinks(str(path), os.O_RDONLY, root=str(root), walk=walk)
    with os.fdopen(fd, "rb") as fh:
        return fh.read()


def test_a_plain_path_opens(tmp_path, walk) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "b" / "f.txt").write_text("hi")
    assert read(tmp_path / "a" / "b" / "f.txt", tmp_path, walk) == b"hi"


@pytest.mark.parametrize("where", ["last", "middle"])
def test_a_symlink_anywhere_on_the_way_is_refused(tmp_path, walk, where) -> None:
    secret = tmp_path / "outside" / "id_rsa"
    secret.parent.mkdir()
    secret.write_text("KEY")
    root = tmp_path / "root"
    root.mkdir()
    if where == "last":
        (root / "f.txt").symlink_to(secret)
        target = root / "f.txt"
    else:
        (root / "d").symlink_to(secret.parent)
        target = root / "d" / "id_rsa"
    with pytest.raises(PathChanged):
        read(target, root, walk)


def test_a_symlink_inside_the_root_is_refused_too(tmp_path, walk) -> None:
    """What was checked is the resolved path: a link there now is a change, wherever it leads."""
    (tmp_path / "real.txt").write_text("x")
    (tmp_path / "link.txt").symlink_to(tmp_path / "real.txt")
    with pytest.raises(PathChanged):
        read(tmp_path / "link.txt", tmp_path, walk)


def test_paths_outside_the_root_or_unnormalised_are_refused(tmp_path) -> None:
    with pytest.raises(ValueError):
        open_no_symlinks("/etc/passwd", os.O_RDONLY, root=str(tmp_path))
    with pytest.raises(ValueError):
        open_no_symlinks(f"{tmp_path}/a/../b", os.O_RDONLY, root=str(tmp_path))


def test_creating_a_file_does_not_follow_a_dangling_link(tmp_path, walk) -> None:
    (tmp_path / "new.txt").symlink_to(tmp_path / "elsewhere.txt")
    with pytest.raises(PathChanged):
        open_no_symlinks(
            str(tmp_path / "new.txt"), os.O_WRONLY | os.O_CREAT, root=str(tmp_path), walk=walk
        )
    assert not (tmp_path / "elsewhere.txt").exists()


def test_the_parent_folder_is_made_without_following_links(tmp_path) -> None:
    folder, name = open_parent_dir(
        str(tmp_path / "x" / "y" / "f.txt"), root=str(tmp_path), create=True
    )
    try:
        assert name == "f.txt" and (tmp_path / "x" / "y").is_dir()
        assert os.path.samefile(f"/proc/self/fd/{folder}", tmp_path / "x" / "y")
    finally:
        os.close(folder)
    (tmp_path / "z").symlink_to(tmp_path / "x")
    with pytest.raises(PathChanged):
        open_parent_dir(str(tmp_path / "z" / "y" / "f.txt"), root=str(tmp_path), create=True)


def test_a_folder_opens_for_listing(tmp_path, walk) -> None:
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "x").write_text("")
    fd = open_no_symlinks(
        str(tmp_path / "d"), os.O_RDONLY | os.O_DIRECTORY, root=str(tmp_path), walk=walk
    )
    try:
        assert [e.name for e in os.scandir(fd)] == ["x"]
    finally:
        os.close(fd)
