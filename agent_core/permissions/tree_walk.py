"""Walking a directory tree the way a recursive reader does, up to a budget."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path


class TreeTooLarge(Exception):
    """A tree has more entries than a check may read."""


def walk_tree(
    top: Path,
    limit: int,
    *,
    hidden: bool = True,
    skip_git: bool = False,
    follow_links: bool = False,
    ignore: bool = False,
) -> Iterator[tuple[Path, bool]]:
    """Every entry under ``top`` as (path, is_dir); raises TreeTooLarge past ``limit``.

    ``ignore`` applies .gitignore as ripgrep does, except below a directory holding an
    ``.ignore`` or ``.rgignore`` file (those could re-include what .gitignore leaves out).
    """
    from agent_core.tools.pathfilter import IgnoreRules

    try:
        if not top.is_dir():
            return
    except OSError:
        return
    rules = IgnoreRules.for_directory(top) if ignore else None
    queue: list[tuple[Path, IgnoreRules | None]] = [(top, rules)]
    seen = 0
    visited: set[tuple[int, int]] = set()
    while queue:
        directory, layer = queue.pop()
        try:
            info = directory.stat()
            if (info.st_dev, info.st_ino) in visited:
                continue
            visited.add((info.st_dev, info.st_ino))
            with os.scandir(directory) as it:
                entries = list(it)
        except OSError:
            continue
        if layer is not None and any(e.name in (".ignore", ".rgignore") for e in entries):
            layer = None
        for entry in entries:
            seen += 1
            if seen > limit:
                raise TreeTooLarge(str(top))
            path = Path(entry.path)
            try:
                is_dir = entry.is_dir(follow_symlinks=follow_links)
            except OSError:
                is_dir = False
            if entry.name == ".git" and skip_git:
                continue
            if entry.name.startswith(".") and not hidden:
                continue
            if layer is not None and layer.ignored(path, is_dir):
                continue
            yield path, is_dir
            if is_dir:
                queue.append((path, layer.descend(path) if layer is not None else None))
