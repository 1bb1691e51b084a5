"""An ask of the permission layers as the app's ``can_use_tool`` request, and its answer as an op (pure).

Only what the layers would ask reaches the app: the blacklist, the sandbox and the deny
rules decided before, and an app's "allow" answers an ask, never a denial; an allow with
an ``updatedInput`` runs that input only if the layers do not deny it, and what they
would ask about it comes back as a new ``can_use_tool`` about that input. An answer that
is not a clear allow is a denial (fail closed).
"""

from __future__ import annotations

from typing import Any

from agent_core import events as ev
from agent_core.protocol import ops


def can_use_tool_request(asked: ev.ApprovalRequested) -> dict[str, Any]:
    """The control request asking the app about one call (Claude Code's fields)."""
    tool = "ExitPlanMode" if asked.kind == "plan" else asked.tool
    return {
        "subtype": "can_use_tool",
        "tool_name": tool,
        "input": asked.input,
        "permission_suggestions": [],
        "tool_use_id": asked.call_id,
        "decision_reason": asked.reason,
    }


def approval_op(asked: ev.ApprovalRequested, answer: dict[str, Any]) -> ops.Op:
    """The reply op for the app's answer ``{"behavior": "allow"|"deny", ...}``."""
    allowed = answer.get("behavior") == "allow"
    message = answer.get("message")
    feedback = message.strip() if isinstance(message, str) else ""
    if asked.kind == "plan":
        choice: ops.PlanChoice = "default" if allowed else "keep_planning"
        return ops.PlanReply(approval_id=asked.approval_id, choice=choice, feedback=feedback)
    if not allowed:
        return ops.ApprovalReply(approval_id=asked.approval_id, decision="deny", feedback=feedback)
    updated = answer.get("updatedInput")
    if updated is not None and not isinstance(updated, dict):
        return ops.ApprovalReply(
            approval_id=asked.approval_id,
            decision="deny",
            feedback="the app allowed the call with an updatedInput that is not an object",
        )
    # A changed input is validated and its permission decided again before it runs: an
    # app cannot turn an allowed call into one the blacklist, rules or sandbox deny.
    changed = updated if updated is not None and updated != asked.input else None
    return ops.ApprovalReply(
        approval_id=asked.approval_id, decision="allow_once", updated_input=changed
    )
