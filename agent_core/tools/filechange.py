"""The shared path of Write, Edit and MultiEdit: load a checked file, write it, report the diff."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

from agent_core.events import FileDiff
from agent_core.tools.base import ToolContext, ToolError
from agent_core.tools.diffing import TextDiff, unified_diff
from agent_core.tools.filestate import (
    TextFile,
    check_fresh,
    display_path,
    load_text,
    record_stamp,
    write_text,
)


@dataclass(frozen=True)
class FileTarget:
    """A file about to change: where it is, how to name it, and its current text (None if new)."""

    path: Path
    label: str
    current: TextFile | None


async def open_target(ctx: ToolContext, file_path: str, *, checked: bool = True) -> FileTarget:
    """Resolve and load a file; with checked, enforce read-before-write and staleness."""
    if not file_path.strip():
        raise ToolError("file_path is empty")
    path = ctx.resolve(file_path)
    label = display_path(ctx, path)
    if path.is_dir():
        raise ToolError(f"{label} is a directory, not a file")
    if checked:
        check_fresh(ctx, path)
    current = await asyncio.to_thread(load_text, path, label)
    return FileTarget(path, label, current)


async def commit_change(ctx: ToolContext, target: FileTarget, new_text: str) -> TextDiff:
    """Write new content atomically, restamp the file and emit its file.diff event."""
    old = target.current.text if target.current else None
    diff = unified_diff(old, new_text, target.label)
    style = target.current or TextFile("")
    await asyncio.to_thread(write_text, target.path, style, new_text)
    record_stamp(ctx, target.path)
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
