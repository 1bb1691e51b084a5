"""The shared path of Write, Edit and MultiEdit: load a checked file, write it, report the diff."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

from agent_core.events import FileDiff
from agent_core.tools.base import CheckedPath, ToolContext, ToolError
from agent_core.tools.diffing import TextDiff, unified_diff
from agent_core.tools.filestate import (
    OnDisk,
    TextFile,
    check_fresh,
    display_path,
    load_checked,
    record_stamp,
    write_checked,
)


@dataclass(frozen=True)
class FileTarget:
    """A file about to change: the path as given, where it was checked, how to name it,
    and what was read of it (its text is None if new)."""

    path: Path
    checked: CheckedPath
    label: str
    on_disk: OnDisk

    @property
    def current(self) -> TextFile | None:
        return self.on_disk.text


def require_working_dir(ctx: ToolContext) -> None:
    """Refuse to touch files once the session's working directory is gone, as Bash does:
    a write must not silently make the deleted project again."""
    if not ctx.cwd.is_dir():
        raise ToolError(f"working directory {ctx.cwd} does not exist")


async def open_target(ctx: ToolContext, file_path: str, *, checked: bool = True) -> FileTarget:
    """Load the checked file; with ``checked``, enforce read-before-write and staleness."""
    if not file_path.strip():
        raise ToolError("file_path is empty")
    require_working_dir(ctx)
    path = ctx.resolve(file_path)
    label = display_path(ctx, path)
    where = ctx.target(file_path)
    on_disk = await asyncio.to_thread(load_checked, where, label)
    if checked:
        check_fresh(ctx, where, path, on_disk)
    return FileTarget(path, where, label, on_disk)


async def commit_change(ctx: ToolContext, target: FileTarget, new_text: str) -> TextDiff:
    """Write new content atomically, restamp the file and emit its file.diff event."""
    old = target.current.text if target.current else None
    diff = unified_diff(old, new_text, target.label)
    style = target.current or TextFile("")
    require_working_dir(ctx)  # again: the folder may have gone since the file was opened
    stamp = await asyncio.to_thread(
        write_checked, target.checked, target.on_disk, style, new_text, target.label
    )
    record_stamp(ctx, target.checked, target.path, stamp)
    if ctx.emit is not None:
        await ctx.emit(
            FileDiff(
                call_id=ctx.call_id,
                path=target.label,
                diff=diff.diff,
                added=diff.added,
                removed=diff.removed,
            )
        )
    return diff
