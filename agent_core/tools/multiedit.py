"""MultiEdit: several replacements in one file, applied in order, all or nothing."""

from __future__ import annotations

from typing import Annotated, ClassVar

import msgspec

from agent_core.tools.base import PermissionKind, PlanMode, ToolContext, ToolOutput
from agent_core.tools.edit import EditOp, planned_edits, preview_ops, run_edits


class MultiEditParams(msgspec.Struct, forbid_unknown_fields=True):
    file_path: Annotated[
        str,
        msgspec.Meta(
            description="Path of the file to modify (absolute, or relative to the project root)"
        ),
    ]
    edits: Annotated[
        list[EditOp],
        msgspec.Meta(
            min_length=1,
            description="Edits applied in order, each to the result of the previous one",
        ),
    ]


class MultiEditTool:
    """Apply several exact replacements to one file atomically."""

    name: ClassVar[str] = "MultiEdit"
    description: ClassVar[str] = (
        "Makes several edits to a single file in one operation. Prefer it over Edit when you"
        " change several places in the same file.\n\n"
        "- Each edit has old_string, new_string and optional replace_all, with the same rules as"
        " the Edit tool: old_string must match the file exactly (whitespace included) and be"
        " unique unless replace_all is true.\n"
        "- Edits are applied in the order given, each to the result of the previous one; plan"
        " them so an earlier edit does not change the text a later one looks for.\n"
        "- The operation is atomic: if any edit fails, none is applied and the file is untouched;"
        " the error names the failing edit.\n"
        "- Read the file first: the call fails if it was not read or changed on disk since.\n"
        "- To create a new file, give a first edit with an empty old_string and the whole"
        " content as new_string."
    )
    params: ClassVar[type[msgspec.Struct]] = MultiEditParams
    read_only: ClassVar[bool] = False
    permission_kind: ClassVar[PermissionKind] = "edit"
    rule_field: ClassVar[str | None] = "file_path"
    plan_mode: ClassVar[PlanMode] = "hidden"

    def summary(self, args: MultiEditParams) -> str:
        n = len(args.edits)
        return f"{args.file_path} ({n} edit{'s' if n != 1 else ''})"

    async def preview(self, args: MultiEditParams, ctx: ToolContext) -> str | None:
        """The unified diff these edits would make, or None if they cannot apply."""
        return await preview_ops(ctx, args.file_path, args.edits)

    async def precheck(self, args: MultiEditParams, ctx: ToolContext) -> None:
        """Fail as ``run`` would: the file not read, or the edit that cannot apply."""
        await planned_edits(ctx, args.file_path, args.edits, numbered=True)

    async def run(self, args: MultiEditParams, ctx: ToolContext) -> ToolOutput:
        return ToolOutput(await run_edits(ctx, args.file_path, args.edits, numbered=True))
