"""TodoWrite: the model's task list for the session, shown to the user as a checklist."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

import msgspec

from agent_core.events import TodoUpdate
from agent_core.tools.base import PermissionKind, PlanMode, ToolContext, ToolError, ToolOutput

TodoStatus = Literal["pending", "in_progress", "completed"]


class TodoItem(msgspec.Struct, forbid_unknown_fields=True):
    """One task in the list."""

    content: Annotated[
        str, msgspec.Meta(min_length=1, description="What to do, imperative: 'Run the tests'")
    ]
    status: Annotated[TodoStatus, msgspec.Meta(description="pending, in_progress or completed")]
    activeForm: Annotated[  # noqa: N815 - the name models are trained on
        str,
        msgspec.Meta(
            min_length=1,
            description="Present continuous form shown while in progress: 'Running the tests'",
        ),
    ]


class TodoWriteParams(msgspec.Struct, forbid_unknown_fields=True):
    todos: Annotated[list[TodoItem], msgspec.Meta(description="The complete, updated todo list")]


class TodoWriteTool:
    """Replace the session's todo list and show it to the user."""

    name: ClassVar[str] = "TodoWrite"
    description: ClassVar[str] = (
        "Creates and updates a structured task list for the current session. It shows the user"
        " your progress and keeps you organised on multi-step work.\n\n"
        "When to use it:\n"
        "- A task needs 3 or more distinct steps, or the user gives several tasks at once.\n"
        "- The user asks for a todo list.\n"
        "- New instructions arrive: capture them as todos.\n"
        "Skip it for a single trivial step or a purely conversational request.\n\n"
        "How:\n"
        "- Send the whole list every time; it replaces the previous one.\n"
        "- Each item has content (imperative, 'Fix the login bug'), activeForm (present"
        " continuous, 'Fixing the login bug') and status: pending, in_progress or completed.\n"
        "- Keep exactly one item in_progress while you work; mark it in_progress before"
        " starting and completed as soon as it is done, without batching completions.\n"
        "- Only mark an item completed when it is fully done: not when tests fail, the"
        " implementation is partial or you hit an unresolved error. Add a new item for a"
        " blocker instead.\n"
        "- Remove items that are no longer relevant."
    )
    params: ClassVar[type[msgspec.Struct]] = TodoWriteParams
    read_only: ClassVar[bool] = True
    permission_kind: ClassVar[PermissionKind] = "other"
    rule_field: ClassVar[str | None] = None
    plan_mode: ClassVar[PlanMode] = "offered"

    def summary(self, args: TodoWriteParams) -> str:
        done = sum(t.status == "completed" for t in args.todos)
        return f"{done}/{len(args.todos)} done"

    async def run(self, args: TodoWriteParams, ctx: ToolContext) -> ToolOutput:
        for index, item in enumerate(args.todos, start=1):
            if not item.content.strip() or not item.activeForm.strip():
                raise ToolError(f"todo {index}: content and activeForm must not be blank")
        todos = [msgspec.to_builtins(item) for item in args.todos]
        ctx.state.todos = todos
        if ctx.emit is not None:
            await ctx.emit(TodoUpdate(todos=todos))
        counts = {
            s: sum(t.status == s for t in args.todos)
            for s in ("in_progress", "pending", "completed")
        }
        lines = [
            f"Todo list updated: {counts['in_progress']} in progress, {counts['pending']} pending,"
            f" {counts['completed']} completed. Keep using the todo list to track your progress"
            " and proceed with the current task."
        ]
        if counts["in_progress"] > 1:
            lines.append(
                f"Warning: {counts['in_progress']} items are in_progress; keep exactly one"
                " in_progress at a time."
            )
        elif counts["in_progress"] == 0 and counts["pending"]:
            lines.append("Note: no item is in_progress; mark the one you start on in_progress.")
        return ToolOutput("\n".join(lines))
