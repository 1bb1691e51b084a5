"""The dialogs' key guard counts from the first frame that shows them, not from mount."""

from __future__ import annotations

import time
from pathlib import Path

from textual.app import ComposeResult
from textual.widgets import Static

from agent_core.events import ApprovalReply
from mewcode_tui.screens import approval
from mewcode_tui.screens.approval import ApprovalScreen
from tests.tui.conftest import wait_until
from tests.tui.test_modals import Host, edit_request

GUARD = 1.0
FIRST_FRAME = 1.3  # longer than the guard: a timer started on mount ends during it


class SlowFirstFrame(Static):
    """Blocks the event loop while it is first rendered, as a busy machine does."""

    painted = False

    def render(self):
        if not self.painted:
            time.sleep(FIRST_FRAME)
            self.painted = True
        return super().render()


class SlowToPaintApproval(ApprovalScreen):
    """The approval dialog with a first frame that takes longer than its guard."""

    CSS_PATH = str(Path(approval.__file__).with_name("approval.tcss"))

    def compose(self) -> ComposeResult:
        yield SlowFirstFrame("")
        yield from super().compose()


async def test_a_key_sent_as_a_slow_dialog_first_shows_does_not_answer() -> None:
    app = Host(SlowToPaintApproval(edit_request(), key_guard=GUARD))
    async with app.run_test() as pilot:
        await wait_until(pilot, lambda: app.screen.query(SlowFirstFrame).first().painted)
        await pilot.press("y")  # the moment the dialog is on screen
        await pilot.pause()
        assert app.results == []
        assert isinstance(app.screen, ApprovalScreen)
        # The guard still ends, counted from that frame.
        await wait_until(pilot, lambda: not app.screen.guarded)
        await pilot.press("y")
        await wait_until(pilot, lambda: app.results == [ApprovalReply("allow_once")])
