"""Write: create a file or replace its whole content."""

from __future__ import annotations

from typing import Annotated, ClassVar

import msgspec

from agent_core.tools.base import PermissionKind, PlanMode, ToolContext, ToolError, ToolOutput
from agent_core.tools.diffing import unified_diff
from agent_core.tools.filechange import commit_change, open_target
from agent_core.tools.filestate import TextFile


class WriteParams(msgspec.Struct, forbid_unknown_fields=True):
    file_path: Annotated[
        str,
        msgspec.Meta(
            description="Path of the file to write (absolute, or relative to the project root)"
        ),
    ]
    content: Annotated[str, msgspec.Meta(description="The full content to write to the file")]


class WriteTool:
    """Write a whole file; an existing file must have been read first."""

    name: ClassVar[str] = "Write"
    description: ClassVar[str] = (
        "Writes a file, creating it (and its parent directories) or overwriting it.\n\n"
        "Usage:\n"
        "- Overwriting an existing file requires that you Read it first in this conversation;"
        " the call fails if the file was not read or has changed on disk since.\n"
        "- Prefer the Edit or MultiEdit tools for changing existing files: they send only the"
        " changed text. Use Write for new files or complete rewrites.\n"
        "- Do not create documentation files (*.md, README) unless the user asks for them.\n"
        "- An existing file keeps its line endings (LF or CRLF) and byte-order mark."
    )
    params: ClassVar[type[msgspec.Struct]] = WriteParams
    read_only: ClassVar[bool] = False
    permission_kind: ClassVar[PermissionKind] = "edit"
    rule_field: ClassVar[str | None] = "file_path"
    plan_mode: ClassVar[PlanMode] = "hidden"

    def summary(self, args: WriteParams) -> str:
        return args.file_path

    async def preview(self, args: WriteParams, ctx: ToolContext) -> str | None:
        """The unified diff this write would make, or None if it cannot be computed."""
        try:
            target = await open_target(ctx, args.file_path, checked=False)
        except ToolError:
            return None
        current = target.current.text if target.current else None
        return unified_diff(current, _normalize(args.content, target.current), target.label).diff

    async def precheck(self, args: WriteParams, ctx: ToolContext) -> None:
        """Fail as ``run`` would: an existing file not read, or changed since."""
        await open_target(ctx, args.file_path)

    async def run(self, args: WriteParams, ctx: ToolContext) -> ToolOutput:
        target = await open_target(ctx, args.file_path)
        new_text = _normalize(args.content, target.current)
        if target.current is None:
            await commit_change(ctx, target, new_text)
            lines = len(new_text.splitlines())
            return ToolOutput(f"Created {target.label} ({lines} line{'s' if lines != 1 else ''})")
        if target.current.text == new_text:
            return ToolOutput(f"{target.label} already has this content: nothing written")
        diff = await commit_change(ctx, target, new_text)
        return ToolOutput(f"Wrote {target.label}: +{diff.added} -{diff.removed}")


def _normalize(content: str, current: TextFile | None) -> str:
    # A CRLF file is held with "\n" in memory and re-encoded with CRLF on write.
    if current is not None and current.newline == "\r\n":
        return content.replace("\r\n", "\n")
    return content
