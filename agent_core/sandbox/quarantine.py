"""Moving what a command planted out of the way, into the session's quarantine folder.

The guard (guarded_files.py) runs outside the sandbox, so every move goes through a
descriptor of the entry's folder opened with no symlink on the way. What lands in the
quarantine lives under MEWCODE_HOME and is kept private and redacted like the rest of it.
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
import time
from pathlib import Path

from agent_core.fsutil import private_dir
from agent_core.tools.nofollow import open_parent_dir

MAX_REDACTED_BYTES = 256 * 1024  # larger files are kept as they are (never read whole)


def move_to_quarantine(path: str, quarantine: Path | None) -> str | None:
    """Move ``path`` into ``quarantine``; where it went, or None if it could not.

    Without a quarantine folder the entry is removed. A link a command planted above
    ``path`` is never followed."""
    try:
        folder, name = open_parent_dir(path)
    except (OSError, ValueError):
        return None
    try:
        if quarantine is None:
            _remove(name, folder)
            return "nowhere (removed: this session keeps no quarantine)"
        dest = quarantine / f"{time.time_ns()}" / path.lstrip("/")
        private_dir(dest.parent)
        try:
            os.rename(name, dest, src_dir_fd=folder)
        except OSError as exc:
            if exc.errno != errno.EXDEV:
                raise
            _copy_out(name, folder, dest)  # another file system: copy, then remove
            _remove(name, folder)
        _redact_tree(dest)
        return str(dest)
    except OSError:
        return None
    finally:
        os.close(folder)


def _redact_tree(top: Path) -> None:
    """Secrets at rest: what was moved out lives under MEWCODE_HOME, so its text files are
    kept redacted (a planted .mcp.json may carry a token). Links are not followed."""
    from agent_core.session.redact import Redactor

    redactor = Redactor()
    paths = (
        [top]
        if not top.is_dir() or top.is_symlink()
        else [Path(d) / f for d, _, files in os.walk(top) for f in files]
    )
    for path in paths:
        try:
            if path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_REDACTED_BYTES:
                continue
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        clean = redactor.text(text)
        if clean != text:
            path.write_text(clean, encoding="utf-8")
        os.chmod(path, 0o600)


def _remove(name: str, folder: int) -> None:
    info = os.stat(name, dir_fd=folder, follow_symlinks=False)
    if stat.S_ISDIR(info.st_mode):
        shutil.rmtree(name, dir_fd=folder)
    else:
        os.unlink(name, dir_fd=folder)


def _copy_out(name: str, folder: int, dest: Path) -> None:
    """Copy an entry (a tree: links copied as links) from a folder descriptor to dest."""
    source = f"/proc/self/fd/{folder}/{name}"
    if stat.S_ISDIR(os.stat(name, dir_fd=folder, follow_symlinks=False).st_mode):
        shutil.copytree(source, dest, symlinks=True)
    else:
        shutil.copy2(source, dest, follow_symlinks=False)
