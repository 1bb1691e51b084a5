"""Re-read the files the agent read most recently, for the restore block."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from agent_core.context.compaction import FileSnapshot

MAX_FILES = 5
MAX_CHARS = 20_000


def read_snapshots(
    files: Iterable[Path], *, max_files: int = MAX_FILES, max_chars: int = MAX_CHARS
) -> list[FileSnapshot]:
    """Current contents of up to ``max_files`` files (most recent first), within ``max_chars``.

    Missing, unreadable and binary files are skipped; the last file that does
    not fit is cut.
    """
    snapshots: list[FileSnapshot] = []
    left = max_chars
    seen: set[Path] = set()
    for path in files:
        if len(snapshots) >= max_files or left <= 0:
            break
        path = Path(path)
        if path in seen:
            continue
        seen.add(path)
        text = _read_text(path, left + 1)
        if text is None:
            continue
        truncated = len(text) > left
        if truncated:
            text = text[:left]
        left -= len(text)
        snapshots.append(FileSnapshot(str(path), text, truncated))
    return snapshots


def _read_text(path: Path, limit: int) -> str | None:
    try:
        with open(path, "rb") as fh:
            data = fh.read(limit * 4)  # at most 4 bytes per character
    except OSError:
        return None
    if b"\x00" in data[:8192]:
        return None  # binary
    return data.decode("utf-8", errors="replace")[:limit]
