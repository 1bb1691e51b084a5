"""SVG snapshots of the approval and plan dialogs at 80x24 with more than fits: choices stay.

Update after an intended visual change with
``pytest tests/snapshots/test_dialog_fit_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

import pytest

from agent_core.events import ApprovalRequested
from mewcode_tui.screens.approval import ApprovalScreen
from mewcode_tui.screens.plan_approval import PlanApprovalScreen
from mewcode_tui.widgets.diff_panel import unified_diff_of
from tests.snapshots.test_modal_snapshots import ScreenHost

SIZE = (80, 24)
OLD = "".join(f"value_{i} = {i}\n" for i in range(6))
NEW = "".join(f"value_{i} = {i + 100}\n" for i in range(6))
PLAN = "# Plan\n\n" + "\n".join(f"{n}. Step {n}: change part {n} of a.py" for n in range(1, 16))


@pytest.fixture(autouse=True)
def colors_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """Themes are the point of these snapshots, so undo the suite-wide NO_COLOR."""
    monkeypatch.delenv("NO_COLOR", raising=False)


def test_approval_with_a_12_line_diff_at_80x24(snap_compare, paths) -> None:
    request = ApprovalRequested(
        approval_id="ap1",
        call_id="call1",
        tool="Edit",
        input={"file_path": "values.py", "old_string": OLD, "new_string": NEW},
        reason="file edits need approval in default mode",
        layer="mode",
        suggested_rules=["Edit(values.py)"],
        session_grant="accept_edits",  # as the runtime offers it for an edit in default mode
        diff=unified_diff_of(OLD, NEW, "values.py"),
    )
    app = ScreenHost(paths, ApprovalScreen(request, key_guard=0))
    assert snap_compare(app, terminal_size=SIZE)


def test_plan_with_15_steps_at_80x24(snap_compare, paths) -> None:
    request = ApprovalRequested(
        approval_id="ap2",
        call_id="call2",
        tool="ExitPlanMode",
        input={"plan": PLAN},
        reason="plan ready",
        layer="mode",
        suggested_rules=[],
        kind="plan",
    )
    app = ScreenHost(paths, PlanApprovalScreen(request, key_guard=0))
    assert snap_compare(app, press=["down"], terminal_size=SIZE)
