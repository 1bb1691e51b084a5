"""A dialog's answer goes back as the op of its request's kind; closing it denies."""

from __future__ import annotations

import pytest

from agent_core import events as ev
from agent_core.protocol import ops
from mewcode_tui.approval_answers import answer_op


def request(kind: str) -> ev.ApprovalRequested:
    return ev.ApprovalRequested(
        approval_id="a1", call_id="c1", tool="Edit", input={}, reason="r", layer="mode",
        suggested_rules=[], kind=kind,  # type: ignore[arg-type]
    )  # fmt: skip


def test_a_tool_calls_answer_is_an_approval_reply_with_its_feedback() -> None:
    op = answer_op(request("tool"), ev.ApprovalReply("allow_session", feedback="ok"))
    assert op == ops.ApprovalReply(
        id=op.id, approval_id="a1", decision="allow_session", feedback="ok"
    )


def test_a_closed_tool_dialog_denies() -> None:
    op = answer_op(request("tool"), None)
    assert isinstance(op, ops.ApprovalReply) and op.decision == "deny"


@pytest.mark.parametrize(
    ("answer", "choice"),
    [("allow_session", "accept_edits"), ("allow_once", "default"), ("deny", "keep_planning")],
)
def test_a_plans_answer_is_a_plan_reply(answer: ev.ApprovalAnswer, choice: str) -> None:
    op = answer_op(request("plan"), ev.ApprovalReply(answer, feedback="why"))
    assert isinstance(op, ops.PlanReply)
    assert (op.approval_id, op.choice, op.feedback) == ("a1", choice, "why")


def test_a_closed_plan_dialog_keeps_planning() -> None:
    op = answer_op(request("plan"), None)
    assert isinstance(op, ops.PlanReply) and op.choice == "keep_planning"
