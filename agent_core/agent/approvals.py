"""Approval requests waiting for a human, by approval id.

A front end answers either through the ticket carried in the event (the TUI's
modal) or by id through the session (``RuntimeSession.answer_approval``: a front
end the event reached as JSON, such as an HTTP client). The first answer wins.
"""

from __future__ import annotations

import itertools

from agent_core.events import ApprovalReply, ApprovalTicket

_ids = itertools.count(1)


class PendingApprovals:
    """The tickets of one session's open approval requests."""

    def __init__(self) -> None:
        self._tickets: dict[str, ApprovalTicket] = {}

    def open(self) -> tuple[str, ApprovalTicket]:
        """A new request's id and the ticket the agent waits on."""
        approval_id = f"appr_{next(_ids)}"
        self._tickets[approval_id] = ticket = ApprovalTicket()
        return approval_id, ticket

    def close(self, approval_id: str) -> None:
        """The request was answered or abandoned (turn cancelled): forget it."""
        self._tickets.pop(approval_id, None)

    def answer(self, approval_id: str, reply: ApprovalReply) -> bool:
        """Answer a waiting request; False when none waits under that id."""
        ticket = self._tickets.get(approval_id)
        if ticket is None or ticket.answered:
            return False
        ticket.answer(reply.answer, reply.feedback, reply.updated_input)
        return True

    def waiting(self) -> list[str]:
        """Ids of the requests still waiting for an answer."""
        return [i for i, t in self._tickets.items() if not t.answered]
