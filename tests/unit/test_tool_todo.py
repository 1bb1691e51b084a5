"""TodoWrite validation and events; ExitPlanMode's confirmation."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_core.events import TodoUpdate
from agent_core.tools.base import ToolContext, ToolError, validate_input
from agent_core.tools.exit_plan import ExitPlanModeParams, ExitPlanModeTool
from agent_core.tools.todo import TodoWriteParams, TodoWriteTool


@pytest.fixture
def ctx(project: Path, tmp_path: Path) -> ToolContext:
    events: list = []

    async def emit(event) -> None:
        events.append(event)

    context = ToolContext(cwd=project, session_dir=tmp_path, call_id="t", emit=emit)
    context.extra["events"] = events
    return context


def item(content: str, status: str) -> dict:
    return {"content": content, "status": status, "activeForm": content + "ing"}


async def write(ctx: ToolContext, todos: list[dict]) -> str:
    args = validate_input(TodoWriteParams, {"todos": todos})
    return (await TodoWriteTool().run(args, ctx)).content


async def test_list_is_stored_and_emitted(ctx: ToolContext) -> None:
    todos = [item("Read", "completed"), item("Fix", "in_progress"), item("Test", "pending")]
    text = await write(ctx, todos)
    assert text.startswith("Todo list updated: 1 in progress, 1 pending, 1 completed.")
    assert "Warning" not in text
    assert ctx.extra["todos"] == todos
    [event] = ctx.extra["events"]
    assert isinstance(event, TodoUpdate) and event.todos == todos


async def test_more_than_one_in_progress_warns_but_keeps_list(ctx: ToolContext) -> None:
    text = await write(ctx, [item("A", "in_progress"), item("B", "in_progress")])
    assert "Warning: 2 items are in_progress" in text
    assert len(ctx.extra["todos"]) == 2


async def test_replacing_with_empty_list_clears_it(ctx: ToolContext) -> None:
    await write(ctx, [item("A", "pending")])
    await write(ctx, [])
    assert ctx.extra["todos"] == []
    assert ctx.extra["events"][-1].todos == []


async def test_bad_items_are_rejected(ctx: ToolContext) -> None:
    with pytest.raises(ToolError, match="status"):
        validate_input(TodoWriteParams, {"todos": [item("A", "done")]})
    with pytest.raises(ToolError, match="activeForm"):
        validate_input(TodoWriteParams, {"todos": [{"content": "A", "status": "pending"}]})
    with pytest.raises(ToolError, match="todo 1: content and activeForm must not be blank"):
        await write(ctx, [{"content": "  ", "status": "pending", "activeForm": "x"}])
    assert "todos" not in ctx.extra


async def test_exit_plan_mode_confirms() -> None:
    args = validate_input(ExitPlanModeParams, {"plan": "## Plan\n1. edit a.py"})
    tool = ExitPlanModeTool()
    assert tool.summary(args) == "Plan"
    ctx = ToolContext(cwd=Path("."), session_dir=Path("."))
    assert (await tool.run(args, ctx)).content == "plan approved; proceeding"
    assert tool.read_only and tool.permission_kind == "other"
