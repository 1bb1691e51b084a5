"""Edit: exact string replacement in a file, plus the pure edit logic MultiEdit shares."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Annotated, ClassVar

import msgspec

from agent_core.tools.base import PermissionKind, PlanMode, ToolContext, ToolError, ToolOutput
from agent_core.tools.diffing import TextDiff, changed_snippet, unified_diff
from agent_core.tools.filechange import FileTarget, commit_change, open_target

_READ_PREFIX = re.compile(r"^\s*\d+\t")
_HINT_SCAN_LIMIT = 2_000_000  # chars; the whitespace hint is skipped on huge files


# The fields Edit and each MultiEdit step share, described once for the model.
OldString = Annotated[str, msgspec.Meta(description="The exact text to replace")]
NewString = Annotated[
    str, msgspec.Meta(description="The text to replace it with (must differ from old_string)")
]
ReplaceAll = Annotated[
    bool, msgspec.Meta(description="Replace every occurrence of old_string (default false)")
]


class EditOp(msgspec.Struct, forbid_unknown_fields=True):
    """One replacement: old_string becomes new_string."""

    old_string: OldString
    new_string: NewString
    replace_all: ReplaceAll = False


class EditParams(msgspec.Struct, forbid_unknown_fields=True):
    file_path: Annotated[
        str,
        msgspec.Meta(
            description="Path of the file to modify (absolute, or relative to the project root)"
        ),
    ]
    old_string: OldString
    new_string: NewString
    replace_all: ReplaceAll = False


def _near_miss_hint(text: str, old: str) -> str:
    """Why old_string might not have matched: Read's line numbers, or whitespace."""
    old_lines = old.strip("\n").split("\n")
    if all(_READ_PREFIX.match(line) for line in old_lines):
        return ": it seems to include line-number prefixes from Read's output; leave them out"
    if len(text) > _HINT_SCAN_LIMIT:
        return ""
    wanted = [line.strip() for line in old_lines]
    have = [line.strip() for line in text.split("\n")]
    n = len(wanted)
    for i in range(len(have) - n + 1):
        if have[i : i + n] == wanted:
            where = f"line {i + 1}" if n == 1 else f"lines {i + 1}-{i + n}"
            return (
                f": {where} match it except for whitespace/indentation;"
                " copy the exact text (tabs, spaces) from Read's output"
            )
    if " ".join(old.split()) in " ".join(text.split()):
        return ": the file has it with different whitespace or line breaks; copy the exact text"
    return ""


def apply_one(text: str | None, op: EditOp, label: str) -> str:
    """The text after one replacement; raises ToolError when it is impossible or ambiguous."""
    old, new = op.old_string, op.new_string
    if old == new:
        raise ToolError("old_string and new_string are identical: nothing to change")
    if text is None:
        if old == "":
            return new  # an empty old_string creates the file
        raise ToolError(f"{label} does not exist: create it with Write")
    if old == "":
        if text == "":
            return new
        raise ToolError("old_string is empty: give the exact text to replace (or use Write)")
    count = text.count(old)
    if count == 0:
        raise ToolError(f"old_string not found in {label}{_near_miss_hint(text, old)}")
    if count > 1 and not op.replace_all:
        raise ToolError(
            f"old_string occurs {count} times in {label}: include more surrounding lines to make it"
            " unique, or set replace_all to true"
        )
    return text.replace(old, new) if op.replace_all else text.replace(old, new, 1)


def apply_edits(text: str | None, ops: Sequence[EditOp], label: str, *, numbered: bool) -> str:
    """Apply ops in order in memory; with numbered, errors name the failing edit (1-based)."""
    if not ops:
        raise ToolError("no edits given")
    result = text
    for index, op in enumerate(ops, start=1):
        try:
            result = apply_one(result, op, label)
        except ToolError as exc:
            if numbered:
                raise ToolError(
                    f"edit {index} of {len(ops)}: {exc}; no edits were applied"
                ) from None
            raise
    assert result is not None
    return result


def normalize_ops(ops: Sequence[EditOp], target: FileTarget) -> list[EditOp]:
    """Match the in-memory "\\n" form of a CRLF file (the model may send either)."""
    if target.current is None or target.current.newline != "\r\n":
        return list(ops)
    fix = lambda s: s.replace("\r\n", "\n")  # noqa: E731
    return [EditOp(fix(o.old_string), fix(o.new_string), o.replace_all) for o in ops]


def preview_edit(label: str, current: str | None, ops: Sequence[EditOp]) -> TextDiff:
    """The diff the edits would make, computed without touching the disk."""
    return unified_diff(current, apply_edits(current, ops, label, numbered=len(ops) > 1), label)


async def preview_ops(ctx: ToolContext, file_path: str, ops: Sequence[EditOp]) -> str | None:
    """The unified diff for an approval dialog, or None when the edits cannot apply."""
    try:
        target = await open_target(ctx, file_path, checked=False)
        current = target.current.text if target.current else None
        return preview_edit(target.label, current, normalize_ops(ops, target)).diff
    except ToolError:
        return None


async def planned_edits(
    ctx: ToolContext, file_path: str, ops: Sequence[EditOp], *, numbered: bool
) -> tuple[FileTarget, str]:
    """The checked file and its text after the edits, in memory; raises ToolError when the
    file was not read, changed since, or an edit cannot apply. Writes nothing: it is the
    tools' precheck (before the approval dialog) and the first step of their run."""
    target = await open_target(ctx, file_path)
    current = target.current.text if target.current else None
    new_text = apply_edits(current, normalize_ops(ops, target), target.label, numbered=numbered)
    return target, new_text


async def run_edits(
    ctx: ToolContext, file_path: str, ops: Sequence[EditOp], *, numbered: bool
) -> str:
    """Check, apply and write the edits; returns the short result text for the model."""
    target, new_text = await planned_edits(ctx, file_path, ops, numbered=numbered)
    diff = await commit_change(ctx, target, new_text)
    verb = "Created" if target.current is None else "Edited"
    head = f"{verb} {target.label}: +{diff.added} -{diff.removed}"
    snippet = changed_snippet(diff, new_text)
    if snippet:
        head += (
            "\nHere is the result of running `cat -n` on a snippet of the edited file:\n" + snippet
        )
    return head


class EditTool:
    """Replace one exact string in a file (or every occurrence with replace_all)."""

    name: ClassVar[str] = "Edit"
    description: ClassVar[str] = (
        "Performs exact string replacements in a file.\n\n"
        "Usage:\n"
        "- You must use the Read tool on the file in this conversation before editing it; the edit"
        " fails if the file was not read or has changed on disk since.\n"
        "- When copying text from Read's output, keep the exact indentation (tabs/spaces) that"
        " follows the line-number prefix; never include the line-number prefix itself in"
        " old_string or new_string.\n"
        "- The edit FAILS if old_string is not unique in the file. Either include more surrounding"
        " context to make it unique or set replace_all to true to change every occurrence.\n"
        "- replace_all is useful for renaming a variable or string across the file.\n"
        "- Prefer editing existing files to creating new ones. An empty old_string creates a new"
        " file (or fills an empty one) with new_string.\n"
        "- The file's line endings and encoding are preserved."
    )
    params: ClassVar[type[msgspec.Struct]] = EditParams
    read_only: ClassVar[bool] = False
    permission_kind: ClassVar[PermissionKind] = "edit"
    rule_field: ClassVar[str | None] = "file_path"
    plan_mode: ClassVar[PlanMode] = "hidden"

    def summary(self, args: EditParams) -> str:
        return args.file_path + (" (replace all)" if args.replace_all else "")

    async def preview(self, args: EditParams, ctx: ToolContext) -> str | None:
        """The unified diff this edit would make, or None if it cannot apply."""
        return await preview_ops(ctx, args.file_path, [_op(args)])

    async def precheck(self, args: EditParams, ctx: ToolContext) -> None:
        """Fail as ``run`` would (file not read, old_string not found or not unique)."""
        await planned_edits(ctx, args.file_path, [_op(args)], numbered=False)

    async def run(self, args: EditParams, ctx: ToolContext) -> ToolOutput:
        return ToolOutput(await run_edits(ctx, args.file_path, [_op(args)], numbered=False))


def _op(args: EditParams) -> EditOp:
    return EditOp(args.old_string, args.new_string, args.replace_all)
