"""At 80x24 the approval dialog for an Edit with a 12-line diff keeps every choice on screen,
and leaves the status bar under it in view.

Driven through the real runtime: the model reads and edits a file, the runtime asks,
and the answer picked with ↓ and Enter is the one the runtime acts on.
"""

from __future__ import annotations

import pytest

from mewcode_tui.screens.approval import ApprovalScreen
from tests.helpers.scripted import ScriptedProvider, Step
from tests.tui.conftest import ask_until_approval, past_key_guard, wait_until
from tests.tui.dialog_checks import choice_lines, make_builtin_tools_app, rows_on_screen

OLD = "".join(f"value_{i} = {i}\n" for i in range(6))
NEW = "".join(f"value_{i} = {i + 100}\n" for i in range(6))


def read_then_edit(path: str) -> ScriptedProvider:
    return ScriptedProvider(
        [
            Step(calls=[("r1", "Read", {"file_path": path})]),
            Step(calls=[("e1", "Edit", {"file_path": path, "old_string": OLD, "new_string": NEW})]),
            Step(text="Edited."),
        ]
    )


@pytest.mark.slow
async def test_every_choice_is_on_screen_and_the_diff_scrolls_at_80x24(options, project):
    target = project / "values.py"
    target.write_text(OLD)
    provider = read_then_edit(str(target))
    app = make_builtin_tools_app(options, provider)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await ask_until_approval(pilot, app, "change the values")
        dialog = app.screen
        assert isinstance(dialog, ApprovalScreen)
        assert dialog.request.diff and dialog.request.diff.count("\n") >= 12
        choices = dialog.query_one("#options")
        await wait_until(pilot, lambda: rows_on_screen(app, choices) == 4)
        # The status bar's two lines (mode, cost, timer) stay in view under the dialog.
        assert dialog.query_one("#dialog").region.bottom <= screen.status.region.y
        assert app.screen.query_one("Footer").region.y == 23
        labels = [line[2:].split(" ", 1)[1] for line in choice_lines(app)]
        assert labels[:2] == [
            "Allow once — this call only",
            "Allow all edits this session — switches to acceptEdits",
        ]
        assert labels[2].startswith("Always allow — saves Edit(") and labels[3].startswith("Deny")

        body = dialog.query_one("#body")
        assert body.scroll_y == 0 and body.max_scroll_y > 0  # the diff does not fit: it scrolls
        await pilot.press("pagedown")
        await wait_until(pilot, lambda: body.scroll_y > 0)
        assert rows_on_screen(app, choices) == 4

        await past_key_guard(pilot, app)
        await pilot.press("down", "enter")  # the second choice: allow all edits this session
        await wait_until(pilot, lambda: not screen.turn_active)
        assert target.read_text() == NEW
        assert screen.transcript.calls["e1"].status == "ok"
        # The session is in acceptEdits (the status bar says so), with no per-file rule.
        await wait_until(pilot, lambda: screen.status.mode == "acceptEdits")
        assert not any(rule.source == "session" for rule in screen.starter.runtime.rules())
