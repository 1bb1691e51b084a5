"""TodoWrite validation and events; ExitPlanMode's confirmation."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_core.events import TodoUpdate
from agent_core.tools.base import ToolContext, ToolError, validate_input
from agent_core.tools.exit_plan import ExitPlanModeParams, ExitPlanModeTool
from agent_core.tools.todo import TodoWriteParams, TodoWriteTool
from tests.helpers.recording_context import RecordingContext, recording_context


@pytest.fixture
def ctx(project: Path, tmp_path: Path) -> RecordingContext:
    return recording_context(project, tmp_path, "t")


def item(content: str, status: str) -> dict:
    return {"content": content, "status": status, "activeForm": content + "ing"}


async def write(ctx: ToolContext, todos: list[dict]) -> str:
    args = validate_input(TodoWriteParams, {"todos": todos})
    return (await TodoWriteTool().run(args, ctx)).content


async def test_list_is_stored_and_emitted(ctx: RecordingContext) -> None:
    todos = [item("Read", "completed"), item("Fix", "in_progress"), item("Test", "pending")]
    text = await write(ctx, todos)
    assert text.startswith("Todo list updated: 1 in progress, 1 pending, 1 completed.")
    assert "Warning" not in text
    assert ctx.state.todos == todos
    [event] = ctx.events
    assert isinstance(event, TodoUpdate) and event.todos == todos


async def test_more_than_one_in_progress_warns_but_keeps_list(ctx: RecordingContext) -> None:
    text = await write(ctx, [item("A", "in_progress"), item("B", "in_progress")])
    assert "Warning: 2 items are in_progress" in text
    assert len(ctx.state.todos) == 2


async def test_replacing_with_empty_list_clears_it(ctx: RecordingContext) -> None:
    await write(ctx, [item("A", "pending")])
    await write(ctx, [])
    assert ctx.state.todos == []
    assert ctx.events[-1].todos == []


async def test_bad_items_are_rejected(ctx: RecordingContext) -> None:
    with pytest.raises(ToolError, match="status"):
        validate_input(TodoWriteParams, {"todos": [item("A", "done")]})
    with pytest.raises(ToolError, match="activeForm"):
        validate_input(TodoWriteParams, {"todos": [{"content": "A", "status": "pending"}]})
    await write(ctx, [item("A", "pending")])
    with pytest.raises(ToolError, match="todo 1: content and activeForm must not be blank"):
        await write(ctx, [{"content": "  ", "status": "pending", "activeForm": "x"}])
    assert ctx.state.todos == [item("A", "pending")]  # the rejected list replaced nothing


async def test_exit_plan_mode_confirms() -> None:
    args = validate_input(ExitPlanModeParams, {"plan": "## Plan\n1. edit a.py"})
    tool = ExitPlanModeTool()
    assert tool.summary(args) == "Plan"
    ctx = ToolContext(cwd=Path("."), session_dir=Path("."))
    assert (await tool.run(args, ctx)).content == "plan approved; proceeding"
    assert tool.read_only and tool.permission_kind == "other"
