"""The tool tree: one line per call, rounds, keyboard navigation, expand, bounded output."""

from __future__ import annotations

from agent_core import events as ev
from agent_core.usage import Usage
from mewcode_tui.widgets.tool_call_view import ToolCallDetail, ToolCallLine, ToolRoundView
from tests.tui.conftest import run_one_turn, wait_until
from tests.tui.fakes import FakeRuntime, tool_call, tool_result

DIFF = "--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n x = 1\n-y = 2\n+y = 3\n"
HUGE = "line of output\n" * 700_000  # ~10 MB


async def two_rounds(send, prompt):
    await send(ev.TurnStarted(turn_id="t", input=prompt))
    await send(ev.AssistantMessage(content=[], usage=Usage()))
    await send(tool_call("r1", "Read", "a.py", file_path="a.py"))
    await send(tool_call("g1", "Grep", "'y' in .", pattern="y"))
    await send(tool_result("r1", "Read", "x = 1\ny = 2\n", 5))
    await send(tool_result("g1", "Grep", HUGE, 1500))
    await send(ev.AssistantMessage(content=[], usage=Usage()))
    await send(tool_call("e1", "Edit", "a.py", file_path="a.py"))
    await send(ev.PermissionDecision(call_id="e1", decision="allow", layer="mode", reason="ok"))
    await send(ev.FileDiff(call_id="e1", path="a.py", diff=DIFF, added=1, removed=1))
    await send(tool_result("e1", "Edit", "edited a.py", 30))


async def test_calls_render_as_one_line_each_grouped_by_round(make_app, project):
    runtime = FakeRuntime(project, [two_rounds])
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await run_one_turn(pilot, app, runtime)
        rounds = list(screen.query(ToolRoundView))
        assert [len(r.query_children(ToolCallLine)) for r in rounds] == [2, 1]
        assert rounds[0].has_class("-multi") and not rounds[1].has_class("-multi")
        lines = {line.record.call_id: line for line in screen.query(ToolCallLine)}
        # Collapsed: one Static each, no child widgets, no detail mounted.
        assert all(not line.children for line in lines.values())
        assert not screen.query(ToolCallDetail)
        text = str(lines["e1"].render())
        assert "Edit a.py" in text and "+1 -1" in text and "30ms" in text
        assert "✓" in str(lines["g1"].render()) and "1.5s" in str(lines["g1"].render())


async def test_keyboard_walks_and_expands_the_tree(make_app, project):
    runtime = FakeRuntime(project, [two_rounds])
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await run_one_turn(pilot, app, runtime)
        await pilot.press("tab")  # from the prompt into the tree: the latest call
        assert isinstance(app.focused, ToolCallLine) and app.focused.record.call_id == "e1"
        await pilot.press("up")
        assert app.focused.record.call_id == "g1"
        await pilot.press("up", "up")  # stops at the first call
        assert app.focused.record.call_id == "r1"
        await pilot.press("down", "right")
        await pilot.pause()
        details = list(screen.query(ToolCallDetail))
        assert [d.record.call_id for d in details] == ["g1"]
        body = str(details[0].query_one(".tool-detail--body").render())
        # The 10 MB output shows only a bounded preview with its real size.
        assert "(first 899 B of 10.5 MB)" in body
        assert len(body) < 6_000
        await pilot.press("left")
        await pilot.pause()
        assert not screen.query(ToolCallDetail)
        await pilot.press("enter")
        await pilot.pause()
        assert len(screen.query(ToolCallDetail)) == 1
        await pilot.press("escape")
        assert app.focused is screen.prompt


async def test_ctrl_o_expands_and_collapses_everything(make_app, project):
    runtime = FakeRuntime(project, [two_rounds])
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await run_one_turn(pilot, app, runtime)
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert {d.record.call_id for d in screen.query(ToolCallDetail)} == {"r1", "g1", "e1"}
        # The edit's expanded view carries the diff panel.
        edit_detail = next(d for d in screen.query(ToolCallDetail) if d.record.call_id == "e1")
        assert edit_detail.query("DiffPanel")
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert not screen.query(ToolCallDetail)


# 150 characters each; "w" and "v" appear nowhere else on the viewer's screen.
LONG_OLD = "z = 0  # " + "w" * 130 + " old-tail-end"
LONG_NEW = "z = 1  # " + "v" * 130 + " last-line-end"
LONG_DIFF = f"--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n x = 1\n-{LONG_OLD}\n+{LONG_NEW}\n"


def screen_lines(app) -> list[str]:
    """The rows the terminal shows now, as text."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def one_long_edit(diff: str):
    async def script(send, prompt):
        await send(ev.TurnStarted(turn_id="t", input=prompt))
        await send(ev.AssistantMessage(content=[], usage=Usage()))
        await send(tool_call("e1", "Edit", "a.py", file_path="a.py"))
        await send(ev.PermissionDecision(call_id="e1", decision="allow", layer="mode", reason="ok"))
        await send(ev.FileDiff(call_id="e1", path="a.py", diff=diff, added=1, removed=1))
        await send(tool_result("e1", "Edit", "edited a.py", 30))

    return script


async def test_d_on_an_edit_opens_the_full_diff_in_both_layouts(make_app, project):
    from mewcode_tui.screens.diff_screen import DiffScreen

    runtime = FakeRuntime(project, [two_rounds])
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        await run_one_turn(pilot, app, runtime)
        await pilot.press("tab", "d")
        await wait_until(pilot, lambda: isinstance(app.screen, DiffScreen))
        await wait_until(pilot, lambda: any("y = 3" in line for line in screen_lines(app)))
        lines = screen_lines(app)
        removed = [n for n, line in enumerate(lines) if "y = 2" in line]
        added = [n for n, line in enumerate(lines) if "y = 3" in line]
        assert "a.py" in lines[0] and "+1" in lines[0] and "-1" in lines[0]
        assert len(removed) == len(added) == 1 and removed[0] < added[0]  # unified: one above
        assert any("x = 1" in line for line in lines)

        await pilot.press("s")
        await wait_until(pilot, lambda: app.screen.panel.split)
        # Side by side: the old and new line on one row.
        await wait_until(
            pilot, lambda: any("y = 2" in line and "y = 3" in line for line in screen_lines(app))
        )
        await pilot.press("u")
        await wait_until(
            pilot,
            lambda: any("y = 3" in line and "y = 2" not in line for line in screen_lines(app)),
        )
        assert not any("y = 2" in line and "y = 3" in line for line in screen_lines(app))
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, DiffScreen))


async def test_the_full_diff_shows_a_long_lines_end_at_80_columns(make_app, project):
    from mewcode_tui.screens.diff_screen import DiffScreen

    runtime = FakeRuntime(project, [one_long_edit(LONG_DIFF)])
    app = make_app(runtime)
    async with app.run_test(size=(80, 24)) as pilot:
        await run_one_turn(pilot, app, runtime)
        await pilot.press("tab", "d")
        await wait_until(pilot, lambda: isinstance(app.screen, DiffScreen))
        for key, split in (("u", False), ("s", True)):
            await pilot.press(key)
            await wait_until(pilot, lambda split=split: app.screen.panel.split == split)
            # Wrapped onto the following rows, nothing cut: every character is on screen.
            await wait_until(
                pilot,
                lambda: (
                    "".join(screen_lines(app)).count("w") == 130
                    and "".join(screen_lines(app)).count("v") == 130
                ),
            )


async def test_the_footer_offers_only_keys_that_act_on_the_focused_call(make_app, project):
    runtime = FakeRuntime(project, [two_rounds])
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await run_one_turn(pilot, app, runtime)

        def offered() -> set[str]:
            return {b.binding.description for b in app.active_bindings.values() if b.enabled}

        await pilot.press("tab")  # the Edit call: it has a diff
        assert screen.focused.record.call_id == "e1"
        assert {"Expand", "Full diff"} <= offered() and "Collapse" not in offered()
        await pilot.press("right")
        await pilot.pause()
        assert "Collapse" in offered() and "Expand" not in offered()
        await pilot.press("up")  # Grep: no diff, so no "Full diff"
        await pilot.pause()
        assert screen.focused.record.call_id == "g1"
        assert "Full diff" not in offered()
        await pilot.press("d")  # and the key does nothing
        await pilot.pause()
        assert app.screen is screen


def painted_color(line: ToolCallLine, char: str) -> tuple[int, int, int] | None:
    """The colour ``char`` is painted in on the line, as the screen shows it."""
    from textual.geometry import Region

    strip = line.render_lines(Region(0, 0, line.size.width, 1))[0]
    for segment in strip:
        if char in segment.text and segment.style is not None and segment.style.color:
            return segment.style.color.get_truecolor()
    return None


async def test_tool_status_colours_come_from_the_theme(make_app, project):
    from textual.theme import Theme

    runtime = FakeRuntime(project, [two_rounds])
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await run_one_turn(pilot, app, runtime)
        lines = {line.record.call_id: line for line in screen.query(ToolCallLine)}
        white = (255, 255, 255)  # white, as greys, survives the tests' NO_COLOR
        assert painted_color(lines["g1"], "✓") not in (None, white)
        assert painted_color(lines["e1"], "-1") not in (None, white)
        base = app.current_theme
        app.register_theme(
            Theme(
                name="tool-colours",
                primary=base.primary,
                dark=base.dark,
                variables={"tool-ok": "#ffffff", "diff-removed": "#ffffff"},
            )
        )
        app.theme = "tool-colours"  # lines already on screen take the new colours
        await wait_until(pilot, lambda: painted_color(lines["g1"], "✓") == white)
        assert painted_color(lines["e1"], "-1") == white


async def test_a_resumed_round_of_several_calls_keeps_its_rule(make_app, project):
    from agent_core.messages import Message, TextBlock, ToolUseBlock

    history = [
        Message("user", [TextBlock("look")]),
        Message(
            "assistant",
            [ToolUseBlock("r1", "Read", {"file_path": "a.py"}), ToolUseBlock("g1", "Grep", {})],
        ),
        Message("assistant", [ToolUseBlock("e1", "Edit", {"file_path": "a.py"})]),
    ]
    runtime = FakeRuntime(project, history=history)
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.main_screen
        await wait_until(pilot, lambda: len(screen.query(ToolRoundView)) == 2)
        rounds = list(screen.query(ToolRoundView))
        assert rounds[0].has_class("-multi") and not rounds[1].has_class("-multi")
