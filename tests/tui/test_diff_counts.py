"""One diff count: the approval dialog, the tool line and the full viewer show the same figures."""

from __future__ import annotations

from agent_core import events as ev
from agent_core.protocol.diff_counts import diff_counts
from agent_core.tools.diffing import unified_diff
from agent_core.usage import Usage
from tests.tui.conftest import ask_until_approval, past_key_guard, wait_until
from tests.tui.fakes import FakeRuntime, tool_call, tool_result

OLD = "".join(f"old line {n}\n" for n in range(120))
NEW = "".join(f"new line {n}\n" for n in range(120))
REWRITE = unified_diff(OLD, NEW, "big.py")  # a 120-line rewrite, counted by the runtime


def rewrite_with_approval(runtime: FakeRuntime):
    async def script(send, prompt):
        await send(ev.TurnStarted(turn_id="t", input=prompt))
        await send(ev.AssistantMessage(content=[], usage=Usage()))
        await send(tool_call("w1", "Write", "big.py", file_path="big.py", content=NEW))
        await runtime.ask(
            send,
            ev.ApprovalRequested(
                approval_id="a1",
                call_id="w1",
                tool="Write",
                input={"file_path": "big.py", "content": NEW},
                reason="default mode: needs approval",
                layer="mode",
                suggested_rules=["Edit(big.py)"],
                diff=REWRITE.diff,
            ),
        )
        await send(ev.PermissionDecision(call_id="w1", decision="allow", layer="user", reason="ok"))
        await send(
            ev.FileDiff(
                call_id="w1",
                path="big.py",
                diff=REWRITE.diff,
                added=REWRITE.added,
                removed=REWRITE.removed,
            )
        )
        await send(tool_result("w1", "Write", "Wrote big.py: +120 -120", 30))

    return script


def screen_text(app) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def test_a_120_line_rewrite_counts_the_same_in_dialog_tool_line_and_viewer(make_app, project):
    from mewcode_tui.screens.approval import ApprovalScreen
    from mewcode_tui.screens.diff_screen import DiffScreen
    from mewcode_tui.widgets.tool_call_view import ToolCallLine

    assert (REWRITE.added, REWRITE.removed) == (120, 120) == diff_counts(REWRITE.diff)
    runtime = FakeRuntime(project)
    runtime.scripts.append(rewrite_with_approval(runtime))
    app = make_app(runtime)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await ask_until_approval(pilot, app, "rewrite big.py")
        assert isinstance(app.screen, ApprovalScreen)
        # The dialog shows the first 200 diff lines (120 removed, 80 added): it still
        # counts the whole change.
        await wait_until(pilot, lambda: "(+120, -120)" in screen_text(app))
        assert "(+80" not in screen_text(app)
        await past_key_guard(pilot, app)
        await pilot.press("y")
        await wait_until(pilot, lambda: not screen.turn_active)
        line = next(iter(screen.query(ToolCallLine)))
        assert "+120 -120" in str(line.render())
        await pilot.press("tab", "d")
        await wait_until(pilot, lambda: isinstance(app.screen, DiffScreen))
        await wait_until(pilot, lambda: "big.py  +120 -120" in screen_text(app))
