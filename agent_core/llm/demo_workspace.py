"""The scratch copy of a project the offline demo works in, so the demo writes nowhere real.

The copy holds the project's small top-level files (no hidden ones, no folders),
or a sample README when there are none. It lives in a fresh temporary folder and
is deleted, with the demo session's files, when the process exits.
"""

from __future__ import annotations

import atexit
import os
import re
import shutil
import tempfile
from pathlib import Path

from agent_core.config.paths import MewcodePaths

MARKER = "MEWCODE_DEMO_WORKSPACE"  # beside the copy, not in it: LS doesn't show it
PREFIX = "mewcode-demo-"
MAX_FILES = 20
MAX_FILE_BYTES = 64_000
SAMPLE_README = (
    "# Sample project\n\n"
    "The offline demo made this file because the folder it started in had no small\n"
    "files to copy. TODO: start `mewcode` in a real project.\n"
)


def is_demo_workspace(path: Path) -> bool:
    """Whether ``path`` is a scratch copy made by ``open_demo_workspace``."""
    return path.parent.name.startswith(PREFIX) and (path.parent / MARKER).is_file()


def _small_top_level_files(source: Path) -> list[Path]:
    try:
        entries = sorted(source.iterdir())
    except OSError:
        return []
    picked: list[Path] = []
    for entry in entries:
        if entry.name.startswith(".") or entry.is_symlink() or not entry.is_file():
            continue
        try:
            if entry.stat().st_size <= MAX_FILE_BYTES:
                picked.append(entry)
        except OSError:
            continue
        if len(picked) == MAX_FILES:
            break
    return picked


def open_demo_workspace(paths: MewcodePaths) -> MewcodePaths:
    """Copy ``paths.project`` into a scratch folder; the paths for the copy, removed at exit."""
    sweep_stale_workspaces(Path(tempfile.gettempdir()))
    root = Path(tempfile.mkdtemp(prefix=PREFIX))
    (root / MARKER).write_text(
        f"a scratch copy of {paths.project}, deleted at exit\npid {os.getpid()}\n"
    )
    copy = root / (paths.project.name or "project")
    copy.mkdir()
    copied = 0
    for file in _small_top_level_files(paths.project):
        try:
            shutil.copyfile(file, copy / file.name)
            copied += 1
        except OSError:  # unreadable: the demo shows the rest
            continue
    if not copied:
        (copy / "README.md").write_text(SAMPLE_README)
    scratch = MewcodePaths(home=paths.home, project=copy.resolve())
    atexit.register(remove_demo_workspace, scratch)
    return scratch


def remove_demo_workspace(scratch: MewcodePaths) -> None:
    """Delete the scratch copy and the demo session's files under MEWCODE_HOME."""
    if is_demo_workspace(scratch.project):
        shutil.rmtree(scratch.project.parent, ignore_errors=True)
        shutil.rmtree(scratch.sessions_dir, ignore_errors=True)


def _owner_alive(marker: Path) -> bool:
    """Whether the process that made a scratch copy still runs (unknown: assume it does)."""
    try:
        found = re.search(r"^pid (\d+)$", marker.read_text(), re.MULTILINE)
    except OSError:
        return True
    if found is None:
        return True
    try:
        os.kill(int(found.group(1)), 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process, or no permission to ask: leave it alone
        return True
    return True


def sweep_stale_workspaces(tmp: Path) -> int:
    """Delete scratch copies whose demo was killed before it could clean up; how many."""
    removed = 0
    for root in tmp.glob(PREFIX + "*"):
        marker = root / MARKER
        if (
            root.is_dir()
            and not root.is_symlink()
            and marker.is_file()
            and not _owner_alive(marker)
        ):
            shutil.rmtree(root, ignore_errors=True)
            removed += 1
    return removed
