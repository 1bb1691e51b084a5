"""An approval request's dialog, and the op that carries its answer back to the session.

A tool call is answered with an ``approval_reply``, a plan with a ``plan_reply``; a
dialog closed without an answer denies.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.screen import Screen

    from agent_core.events import ApprovalReply, ApprovalRequested
    from agent_core.protocol import ops


def approval_dialog(event: ApprovalRequested) -> Screen[ApprovalReply]:
    """The modal that asks the user: the plan dialog for a plan, else the tool call's."""
    if event.kind == "plan":
        from mewcode_tui.screens.plan_approval import PlanApprovalScreen

        return PlanApprovalScreen(event)
    from mewcode_tui.screens.approval import ApprovalScreen

    return ApprovalScreen(event)


def answer_op(event: ApprovalRequested, reply: ApprovalReply | None) -> ops.Op:
    """The op of the request's kind that carries ``reply`` (None: the dialog was closed)."""
    from agent_core.events import ApprovalReply
    from agent_core.protocol import ops
    from mewcode_tui.screens.plan_approval import plan_answer

    reply = reply or ApprovalReply("deny")
    if event.kind == "plan":
        plan = plan_answer(reply)
        return ops.PlanReply(
            approval_id=event.approval_id, choice=plan.choice, feedback=plan.feedback
        )
    return ops.ApprovalReply(
        approval_id=event.approval_id, decision=reply.answer, feedback=reply.feedback
    )
