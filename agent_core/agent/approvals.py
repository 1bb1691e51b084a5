"""Approval requests waiting for a human, by approval id.

The runtime keeps each request's ticket itself; a front end answers by id through
the session (``answer_approval``, the host's ``approval_reply`` and ``plan_reply``
ops). The first answer of the request's kind wins.
"""

from __future__ import annotations

import asyncio
import itertools
from typing import Literal

from agent_core.events import ApprovalReply, PlanAnswer

ApprovalKind = Literal["tool", "plan"]
Answer = ApprovalReply | PlanAnswer  # a tool call's answer, or a plan's

_ids = itertools.count(1)


class ApprovalTicket:
    """What the agent awaits for one request: the first answer of the request's kind."""

    def __init__(self, kind: ApprovalKind = "tool") -> None:
        self.kind = kind
        self._future: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()

    def answer(self, reply: Answer) -> bool:
        """Answer the request; False when it was answered already or ``reply`` is the
        other kind (a plan answered as a tool call, or the reverse)."""
        wanted = PlanAnswer if self.kind == "plan" else ApprovalReply
        if self._future.done() or not isinstance(reply, wanted):
            return False
        self._future.set_result(reply)
        return True

    @property
    def answered(self) -> bool:
        return self._future.done()

    async def wait(self) -> Answer:
        return await self._future


class PendingApprovals:
    """The tickets of one session's open approval requests."""

    def __init__(self) -> None:
        self._tickets: dict[str, ApprovalTicket] = {}

    def open(self, kind: ApprovalKind = "tool") -> tuple[str, ApprovalTicket]:
        """A new request's id and the ticket the agent waits on."""
        approval_id = f"appr_{next(_ids)}"
        self._tickets[approval_id] = ticket = ApprovalTicket(kind)
        return approval_id, ticket

    def close(self, approval_id: str) -> None:
        """The request was answered or abandoned (turn cancelled): forget it."""
        self._tickets.pop(approval_id, None)

    def answer(self, approval_id: str, reply: Answer) -> bool:
        """Answer a waiting request; False when none of ``reply``'s kind waits under that id."""
        ticket = self._tickets.get(approval_id)
        return ticket is not None and ticket.answer(reply)

    def waiting(self) -> list[str]:
        """Ids of the requests still waiting for an answer."""
        return [i for i, t in self._tickets.items() if not t.answered]
