"""The stream-json session: stdin's lines in as ops, the event stream out as Claude Code's lines.

Two loops share one SessionHost: ``_read`` turns each stdin line into an op, an answer
or one ``mewcode:`` line on stderr naming what was wrong with it; ``_show`` writes the
events as stream-json (the shapes of ``mewcode -p``), answers control requests when
their op is answered, and asks the app (``can_use_tool``) when the host asks. User
messages run one after another as turns of the one session; at the end of stdin the
turns still waiting run, then the session closes.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import itertools
import time
from collections.abc import AsyncIterator
from typing import Any, TextIO

from agent_core import events as ev
from agent_core.errors import ChannelClosed
from agent_core.protocol import ops
from agent_core.protocol.host import SessionHost
from mewcode_tui.headless import HeadlessPrinter, say
from mewcode_tui.stream_json import control
from mewcode_tui.stream_json.lines import (
    BadLine,
    ControlRequest,
    ControlResponse,
    UserText,
    read_line,
)
from mewcode_tui.stream_json.partial import PartialStream, stream_event
from mewcode_tui.stream_json.permission import approval_op, can_use_tool_request

_request_ids = itertools.count(1)


class StreamJsonSession:
    """One app's conversation over stdio, on one ``SessionHost``."""

    def __init__(
        self,
        host: SessionHost,
        out: TextIO,
        err: TextIO,
        *,
        partial: bool = False,
        ask_app: bool = False,
        fork: bool = False,
    ) -> None:
        self.host = host
        self.err = err
        self.printer = HeadlessPrinter(host, "stream-json", out, err)
        self.partial = PartialStream() if partial else None
        self.ask_app = ask_app
        self.fork = fork
        self._waiting: collections.deque[ops.UserTurn] = collections.deque()
        self._turn: str | None = None  # the op id of the turn running now
        self._started = 0.0
        self._stdin_done = False
        # op id -> the app's control request it answers, and the answer's body
        self._answers: dict[str, tuple[str, dict[str, Any]]] = {}
        self._asked: dict[str, asyncio.Future[dict[str, Any]]] = {}  # our request id -> answer
        self._tasks: set[asyncio.Task[None]] = set()
        self._finished = asyncio.Event()

    async def run(self, lines: AsyncIterator[str]) -> int:
        """Serve the app until stdin ends and its turns are done; the exit code."""
        self.host.start()
        if self.fork:
            await self.host.submit(ops.Fork())
        show = asyncio.create_task(self._show())
        read = asyncio.create_task(self._read(lines))
        try:
            await self._finished.wait()
        finally:
            read.cancel()
            for task in self._tasks:
                task.cancel()
            await self.host.close()
            with contextlib.suppress(asyncio.CancelledError, ChannelClosed):
                await show
        return 0

    # --- stdin -------------------------------------------------------------------------

    async def _read(self, lines: AsyncIterator[str]) -> None:
        number = 0
        async for raw in lines:
            number += 1
            match read_line(raw):
                case None:
                    pass
                case BadLine(reason=reason, request_id=request_id):
                    say(self.err, f"stdin line {number}: {reason}")
                    if request_id:
                        self._respond(request_id, error=reason)
                case UserText() as message:
                    await self._user(message)
                case ControlRequest() as request:
                    await self._control(request)
                case ControlResponse() as response:
                    self._answered(response)
        self._stdin_done = True
        self._maybe_finish()

    async def _user(self, message: UserText) -> None:
        # A bad image refuses the turn, told as its result line (``_refused``).
        self._waiting.append(ops.UserTurn(text=message.text, attachments=list(message.images)))
        await self._next_turn()

    async def _next_turn(self) -> None:
        if self._turn is None and self._waiting:
            turn = self._waiting.popleft()
            self._turn = await self.host.submit(turn)
            self._started = time.monotonic()

    async def _control(self, request: ControlRequest) -> None:
        plan = control.plan_control(
            request, self.host.snapshot(), running=self.host.snapshot().running
        )
        match plan:
            case control.Answer(body=body):
                self._respond(request.request_id, body)
            case control.Fail(error=error):
                self._respond(request.request_id, error=error)
            case control.Submit(op=op, body=body):
                self._answers[await self.host.submit(op)] = (request.request_id, body)

    def _answered(self, response: ControlResponse) -> None:
        waiting = self._asked.pop(response.request_id, None)
        if waiting is None:
            say(self.err, f"control_response {response.request_id!r}: no request of ours waits")
            return
        if not waiting.done():
            if response.error is not None:
                waiting.set_exception(RuntimeError(response.error))
            else:
                waiting.set_result(response.body)

    # --- the event stream ----------------------------------------------------------------

    async def _show(self) -> None:
        async for item in self.host.events():
            event = item.event
            match event:
                case ev.SessionOpened():
                    self.printer.model = self.host.snapshot().model
                    if self.partial is not None:
                        self.partial.model = self.printer.model
                case ev.Notice():
                    say(self.err, f"{event.level}: {event.message}")
                case ev.TurnStarted():
                    self.printer.init_line(self.host.snapshot())
                case ev.MessageDelta() if self.partial is not None:
                    for part in self.partial.text(event.text):
                        self.printer.line(stream_event(self.host.session_id, part))
                case ev.AssistantMessage():
                    self._end_partial()
                    self.printer.handle(event)
                case ev.ToolResult():
                    self.printer.handle(event)
                case ev.ApprovalRequested():
                    self._spawn(self._ask(event))
                case ev.HookCallbackRequested():
                    self._spawn(self._run_hook(event))
                case ev.TurnCompleted():
                    await self._turn_done(event)
                case ev.OpDone() | ev.ModelChanged():
                    self._op_answered(event.op_id)
                case ev.OpRefused():
                    await self._refused(event)

    async def _turn_done(self, done: ev.TurnCompleted) -> None:
        self._end_partial()
        duration = int((time.monotonic() - self._started) * 1000)
        self.printer.line(self.printer.result(done, duration))
        self._turn = None
        await self._next_turn()
        self._maybe_finish()

    async def _refused(self, refused: ev.OpRefused) -> None:
        if refused.op_id == self._turn:
            self.printer.line(self._refusal(refused.reason))
            self._turn = None
            await self._next_turn()
            self._maybe_finish()
            return
        request_id, _ = self._answers.pop(refused.op_id, ("", {}))
        if not request_id:
            return
        if refused.op == "interrupt":  # the turn ended before it: nothing is left to stop
            self._respond(request_id, {})
        else:
            self._respond(request_id, error=refused.reason)

    def _op_answered(self, op_id: str) -> None:
        request_id, body = self._answers.pop(op_id, ("", {}))
        if request_id:
            self._respond(request_id, body)

    def _end_partial(self) -> None:
        if self.partial is not None:
            for part in self.partial.end():
                self.printer.line(stream_event(self.host.session_id, part))

    def _maybe_finish(self) -> None:
        if self._stdin_done and self._turn is None and not self._waiting:
            self._finished.set()

    # --- asking the app ------------------------------------------------------------------

    async def _ask(self, asked: ev.ApprovalRequested) -> None:
        """Ask the app ``can_use_tool``; its answer (or its failure, as a denial) is the reply."""
        if not self.ask_app:
            return  # the host was made with can_ask=False: it never asks
        try:
            answer = await self._request(can_use_tool_request(asked))
        except RuntimeError as exc:
            answer = {"behavior": "deny", "message": f"the app's permission callback failed: {exc}"}
        op = approval_op(asked, answer)
        with contextlib.suppress(ChannelClosed):
            await self.host.submit(op)
            if answer.get("interrupt") is True and answer.get("behavior") == "deny":
                await self.host.submit(ops.Interrupt())

    async def _run_hook(self, fired: ev.HookCallbackRequested) -> None:
        """Ask the app to run its hook callback; its output (or its error) goes back as an op."""
        request = {
            "subtype": "hook_callback",
            "callback_id": fired.callback_id,
            "input": fired.input,
            "tool_use_id": fired.tool_use_id,
        }
        try:
            reply = ops.HookCallbackReply(
                request_id=fired.request_id, output=await self._request(request)
            )
        except RuntimeError as exc:
            reply = ops.HookCallbackReply(request_id=fired.request_id, error=str(exc) or "failed")
        with contextlib.suppress(ChannelClosed):
            await self.host.submit(reply)

    async def _request(self, request: dict[str, Any]) -> dict[str, Any]:
        """Send the app a control request; its answer's body (RuntimeError: its error)."""
        request_id = f"mewcode_{next(_request_ids)}"
        waiting: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._asked[request_id] = waiting
        self.printer.line({"type": "control_request", "request_id": request_id, "request": request})
        try:
            return await waiting
        finally:
            self._asked.pop(request_id, None)

    def _spawn(self, work: Any) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # --- lines out -----------------------------------------------------------------------

    def _respond(
        self, request_id: str, body: dict[str, Any] | None = None, *, error: str | None = None
    ) -> None:
        if error is not None:
            response: dict[str, Any] = {
                "subtype": "error",
                "request_id": request_id,
                "error": error,
            }
        else:
            response = {"subtype": "success", "request_id": request_id, "response": body or {}}
        self.printer.line({"type": "control_response", "response": response})

    def _refusal(self, reason: str) -> dict[str, Any]:
        """The result line of a user message that could not run."""
        say(self.err, reason)
        return {
            "type": "result",
            "subtype": "error_during_execution",
            "is_error": True,
            "duration_ms": 0,
            "duration_api_ms": 0,
            "num_turns": 0,
            "result": reason,
            "stop_reason": None,
            "session_id": self.host.session_id,
            "total_cost_usd": 0.0,
            "usage": {},
            "permission_denials": [],
            "errors": [reason],
        }
