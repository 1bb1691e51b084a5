"""``SessionHost``: a Runtime driven by ops, telling everything on one event stream.

Ops wait in a queue and run one at a time; a user turn runs as a task of its own,
so an interrupt or an approval reply is handled while it runs. Every event, from
a turn or from the session, goes through one ordered outbox to the consumer over
a rendezvous channel: an awaited publish returns once the consumer has taken the
event (backpressure), and a consumer that goes away ends the turn rather than
blocking it. See docs/protocol.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

import msgspec

from agent_core import events as ev
from agent_core.agent.turn_images import turn_images
from agent_core.channel import RendezvousChannel
from agent_core.errors import ChannelClosed, MewCodeError
from agent_core.hooks.remote import RemoteHook, RemoteHookFailed
from agent_core.llm.catalog import split_provider
from agent_core.llm.pricing import model_info
from agent_core.mcp.model import McpServerStatus
from agent_core.messages import ImageBlock
from agent_core.modes import Mode
from agent_core.protocol import ops, queries, shell_queries
from agent_core.protocol.hosted import HostedRuntime
from agent_core.protocol.session import AgentSession, SessionEvent, SessionSnapshot, TurnFigures
from agent_core.usage import Usage

log = logging.getLogger("mewcode.protocol")
_op_ids = itertools.count(1)

# Ops that change the session under a turn: refused while one runs.
_IDLE_ONLY = (
    ops.UserTurn,
    ops.ShellCommand,
    ops.SetModel,
    ops.Compact,
    ops.NewSession,
    ops.Resume,
    ops.Fork,
    ops.ReconnectMcp,
    ops.AddDirectory,
)


class Refused(MewCodeError):
    """An op that cannot run now; the message is the reason told in ``OpRefused``."""


class SessionHost:
    """The ``AgentSession`` over one runtime it owns (and closes)."""

    def __init__(
        self, runtime: HostedRuntime, *, can_ask: bool = True, settle_tools: bool = True
    ) -> None:
        self.runtime = runtime
        self.can_ask = can_ask  # False: asks become denials (no one answers, e.g. -p)
        self._settle = settle_tools
        self._out: RendezvousChannel[SessionEvent] = RendezvousChannel()
        self._outbox: asyncio.Queue[tuple[ev.Event, asyncio.Future[None] | None]] = asyncio.Queue()
        self._seq = 0
        self._ops: asyncio.Queue[ops.Op] = asyncio.Queue()
        self._turn: asyncio.Task[ev.TurnCompleted] | None = None
        self._turn_told = False  # its TurnCompleted is on the stream: it is over for a front end
        self._hook_calls: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._approvals: dict[str, str] = {}  # open approval id -> kind ("tool" | "plan")
        self._told_mode = runtime.mode
        self._mcp: dict[str, McpServerStatus] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._consumed = False
        self._closed = False
        runtime.watch_mode(self._mode_changed)
        runtime.watch_mcp(self._mcp_changed)

    # --- the protocol ------------------------------------------------------------

    @property
    def session_id(self) -> str:
        return self.runtime.session_id

    def start(self) -> None:
        """Start telling the opening and taking ops (call once, inside the event loop).

        The opening comes first on the stream: settings problems and load warnings
        (``Notice``), each MCP server's state, then ``SessionOpened``. With
        ``settle_tools`` the servers whose tools are not cached have connected (or
        failed) before it, so the first turn holds their tools.
        """
        self._tasks.append(asyncio.create_task(self._pump()))
        self._tasks.append(asyncio.create_task(self._take_ops()))

    async def _open(self) -> None:
        rt = self.runtime
        await self._tell_warnings([*rt.settings_problems, *rt.load_warnings])
        if self._settle:
            await rt.settle_tools()
        for status in rt.mcp_servers():
            self._mcp[status.name] = status
            await self._publish(ev.McpServerChanged(server=status))
        await self._publish(ev.SessionOpened(session_id=rt.session_id, how=rt.opened_as))

    async def submit(self, op: ops.Op) -> str:
        """Queue ``op``; returns its id. Its answer comes on the event stream."""
        if not op.id:
            op.id = f"op_{next(_op_ids)}"
        if self._closed:
            raise ChannelClosed("the session is closed")
        self._ops.put_nowait(op)
        return op.id

    async def events(self) -> AsyncIterator[SessionEvent]:
        """Every event of the session, in order; stopping to read ends the stream."""
        if self._consumed:
            raise RuntimeError("a session's events have one consumer")
        self._consumed = True
        try:
            async for item in self._out:
                yield item
        finally:
            self._out.close()  # a consumer that goes away never leaves the agent blocked

    def snapshot(self) -> SessionSnapshot:
        rt = self.runtime
        stats = rt.last_stats
        return SessionSnapshot(
            session_id=rt.session_id,
            cwd=str(rt.cwd),
            mode=rt.mode,
            model=rt.provider.model,
            provider=rt.provider.name,
            usage=rt.usage,
            cost_usd=rt.cost_usd,
            context_tokens=rt.context_tokens,
            context_window=rt.context_window,
            sandbox=rt.sandbox,
            mcp=rt.mcp_servers(),
            tools=rt.tool_names(),
            running=self._turn_running(),
            last_turn=TurnFigures(
                requests=stats.requests,
                api_ms=int(stats.api_seconds * 1000),
                denials=list(stats.denials),
            ),
            session_path=str(rt.session_path),
            messages=len(rt.history),
            problems=[*rt.settings_problems, *rt.load_warnings],
        )

    async def close(self) -> None:
        """Stop the turn (if any), stop taking ops, close the stream and the runtime."""
        if self._closed:
            return
        self._closed = True
        self._out.close()  # first: a turn unwinding must not wait for a reader
        if self._turn is not None and not self._turn.done():
            self._interrupt()
            with contextlib.suppress(asyncio.CancelledError, ChannelClosed):
                await self._turn
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self.runtime.close()

    # --- the outbox: one order, one sequence ----------------------------------------

    async def _publish(self, event: ev.Event) -> None:
        """Hand ``event`` to the consumer; returns once taken (ChannelClosed: no consumer)."""
        if self._out.closed:
            raise ChannelClosed("no one reads this session's events")
        taken = asyncio.get_running_loop().create_future()
        self._outbox.put_nowait((event, taken))
        await taken

    def _post(self, event: ev.Event) -> None:
        """Queue news from a callback (mode, MCP); it keeps its place in the order."""
        if not self._out.closed:
            self._outbox.put_nowait((event, None))

    async def _pump(self) -> None:
        while True:
            event, taken = await self._outbox.get()
            self._seq += 1
            try:
                await self._out.send(SessionEvent(self._seq, event))
            except ChannelClosed as exc:
                self._fail_waiting(taken, exc)
                continue
            if taken is not None and not taken.done():
                taken.set_result(None)

    def _fail_waiting(self, taken: asyncio.Future[None] | None, exc: ChannelClosed) -> None:
        waiting = [taken]
        while not self._outbox.empty():
            waiting.append(self._outbox.get_nowait()[1])
        for future in waiting:
            if future is not None and not future.done():
                future.set_exception(exc)

    # --- news from the runtime ------------------------------------------------------

    def _mode_changed(self, mode: Mode) -> None:
        if mode != self._told_mode:
            self._told_mode = mode
            self._post(ev.ModeChanged(mode=mode))

    def _mcp_changed(self) -> None:
        for status in self.runtime.mcp_servers():
            if self._mcp.get(status.name) != status:
                self._mcp[status.name] = status
                self._post(ev.McpServerChanged(server=status))

    async def _tell_warnings(self, lines: list[str]) -> None:
        for line in lines:
            await self._publish(ev.Notice(level="warning", message=line))

    # --- ops ---------------------------------------------------------------------------

    async def _take_ops(self) -> None:
        try:
            await self._open()
        except ChannelClosed:
            return
        while True:
            op = await self._ops.get()
            try:
                await self._carry_out(op)
            except ChannelClosed:
                return  # no one listens any more: answers have nowhere to go
            except MewCodeError as exc:
                await self._refuse(op, str(exc))
            except Exception as exc:  # a bug refuses the op, never stops the session
                log.exception("op %s failed", ops.op_tag(op))
                await self._refuse(op, f"internal error: {type(exc).__name__}: {exc}")

    async def _refuse(self, op: ops.Op, reason: str) -> None:
        with contextlib.suppress(ChannelClosed):
            await self._publish(ev.OpRefused(op_id=op.id, op=ops.op_tag(op), reason=reason))

    async def _done(self, op: ops.Op) -> None:
        await self._publish(ev.OpDone(op_id=op.id, op=ops.op_tag(op)))

    def _turn_running(self) -> bool:
        return self._turn is not None and not self._turn.done() and not self._turn_told

    async def _turn_unwound(self) -> None:
        """A turn whose end was told is over: wait out its last steps (closing the channel)."""
        if self._turn is not None and self._turn_told and not self._turn.done():
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await self._turn

    async def _carry_out(self, op: ops.Op) -> None:
        if isinstance(op, _IDLE_ONLY):
            await self._turn_unwound()
        if isinstance(op, _IDLE_ONLY) and self._turn_running():
            raise Refused("a turn is running: interrupt it or wait for it to end")
        rt = self.runtime
        match op:
            case ops.UserTurn() | ops.ShellCommand():
                await self._start_turn(op)
            case ops.Interrupt():
                if not self._turn_running():
                    raise Refused("no turn is running")
                self._interrupt()
                await self._done(op)
            case ops.ApprovalReply():
                await self._answer(op, "tool", ev.ApprovalReply(op.decision, op.feedback))
            case ops.PlanReply():
                await self._answer(op, "plan", ev.PlanAnswer(op.choice, op.feedback))
            case ops.SetMode():
                rt.set_mode(op.mode)  # the watcher tells ModeChanged
                await self._done(op)
            case ops.SetModel():
                provider, name = (op.provider, op.model)
                if provider is None:  # "openai:gpt-4o" names both
                    provider, name = split_provider(op.model)
                await rt.switch_model(name, provider)
                model = rt.provider.model
                await self._publish(
                    ev.ModelChanged(
                        model=model,
                        provider=rt.provider.name,
                        context_window=model_info(model).context_window,
                        op_id=op.id,
                    )
                )
            case ops.Compact():
                await self._compact(op)
            case ops.NewSession():
                await rt.new_session()
                await self._opened(op, "new")
            case ops.Resume():
                await rt.resume(op.session_id)
                await self._opened(op, "resumed")
            case ops.Fork():
                source = op.session_id or rt.session_id
                await rt.fork(op.session_id)
                await self._opened(op, "forked", source)
            case ops.ListSessions():
                await self._publish(queries.session_list(rt, op))
            case ops.QueryMemory():
                await self._publish(queries.memory_report(rt, op))
            case ops.RememberFact():
                await self._publish(queries.remember_fact(rt, op))
            case ops.ForgetFact():
                await self._publish(queries.forget_fact(rt, op))
            case ops.ListRules():
                await self._publish(queries.rule_list(rt, op))
            case ops.RemoveRule():
                await self._publish(queries.remove_rule(rt, op))
            case ops.QueryContext():
                await self._publish(queries.context_report(rt, op))
            case ops.QueryHistory():
                from agent_core.protocol.history import history_report

                await self._publish(history_report(rt, op))
            case ops.QueryDiff():
                await self._publish(await queries.diff_report(rt, op))
            case ops.QueryCommands():
                await self._publish(queries.command_list(rt, op))
            case ops.QuerySkills():
                await self._publish(queries.skill_list(rt, op))
            case ops.QueryHooks():
                await self._publish(queries.hook_list(rt, op))
            case ops.QueryMcp():
                await self._publish(queries.mcp_list(rt, op))
            case ops.ReconnectMcp():
                await rt.mcp_reconnect(op.name)
                self._mcp_changed()
                await self._done(op)
            case ops.RegisterHooks():
                rt.hooks.add_remote(op.hooks, self._ask_hook)
                await self._done(op)
            case ops.HookCallbackReply():
                waiting = self._hook_calls.pop(op.request_id, None)
                if waiting is None or waiting.done():
                    raise Refused(f"no hook callback {op.request_id!r} is waiting")
                if op.error:
                    waiting.set_exception(RemoteHookFailed(op.error))
                else:
                    waiting.set_result(op.output)
                await self._done(op)
            case ops.QueryConfig():
                await self._publish(queries.config_report(rt, op))
            case ops.AddDirectory():
                await self._publish(queries.add_directory(rt, op))
            case ops.QueryDoctor():
                await self._publish(queries.doctor_report(rt, op))
            case ops.QueryModels():
                await self._publish(queries.model_list(rt, op))
            case ops.QueryShells():
                await self._publish(shell_queries.shell_list(rt, op))
            case ops.StopShell():
                await self._publish(await shell_queries.stop_shell(rt, op))
            case _:
                raise Refused(f"unknown op {ops.op_tag(op)!r}")

    async def _answer(self, op: ops.Op, kind: str, reply: ev.ApprovalReply | ev.PlanAnswer) -> None:
        approval_id = op.approval_id  # type: ignore[attr-defined]
        waiting = self._approvals.get(approval_id)
        if waiting is None:
            raise Refused(f"no approval {approval_id!r} is waiting")
        if waiting != kind:
            other = "plan_reply" if waiting == "plan" else "approval_reply"
            raise Refused(
                f"approval {approval_id!r} is a {waiting} approval: answer it with {other}"
            )
        if isinstance(op, ops.ApprovalReply) and op.updated_input is not None:
            # The executor validates the new input and decides its permission again.
            reply = msgspec.structs.replace(reply, updated_input=op.updated_input)
        if not self.runtime.answer_approval(approval_id, reply):
            raise Refused(f"approval {approval_id!r} was already answered")
        self._approvals.pop(approval_id, None)
        await self._done(op)

    async def _ask_hook(self, hook: RemoteHook, data: dict[str, Any]) -> dict[str, Any]:
        """Tell the front end a hook of its fires; its answer (RemoteHookFailed: its error)."""
        request_id = f"hookcall_{next(_op_ids)}"
        waiting: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._hook_calls[request_id] = waiting
        try:
            tool_use_id = data.get("tool_use_id")
            await self._publish(
                ev.HookCallbackRequested(
                    request_id=request_id,
                    callback_id=hook.callback_id,
                    input=data,
                    tool_use_id=tool_use_id if isinstance(tool_use_id, str) else None,
                )
            )
            return await waiting
        except ChannelClosed:
            raise RemoteHookFailed("no front end reads this session's events") from None
        finally:
            self._hook_calls.pop(request_id, None)

    async def _compact(self, op: ops.Compact) -> None:
        outcome = await self.runtime.compact(op.instructions)
        if outcome.warning:
            await self._publish(ev.Notice(level="warning", message=outcome.warning))
        if not outcome.compacted:
            await self._done(op)  # the notice said why
            return
        await self._publish(
            ev.Compaction(
                layer="summary",
                tokens_before=outcome.tokens_before,
                tokens_after=outcome.tokens_after,
                summarised_messages=outcome.summarised_messages,
                op_id=op.id,
            )
        )

    async def _opened(self, op: ops.Op, how: str, source: str = "") -> None:
        rt = self.runtime
        await self._publish(
            ev.SessionOpened(
                session_id=rt.session_id,
                how=how,  # type: ignore[arg-type]
                forked_from=source,
                op_id=op.id,
            )
        )
        await self._tell_warnings(list(rt.load_warnings))

    # --- turns ---------------------------------------------------------------------------

    async def _start_turn(self, op: ops.UserTurn | ops.ShellCommand) -> None:
        images: list[ImageBlock] = []
        if isinstance(op, ops.UserTurn) and op.attachments:
            # Checked before the turn starts: a bad image refuses the op (one line naming it).
            images = await asyncio.to_thread(turn_images, op.attachments)
        elif isinstance(op, ops.ShellCommand) and not op.command.strip():
            raise Refused("no command after !")
        self._turn_told = False
        self._turn = asyncio.create_task(self._run_turn(op, images))

    def _interrupt(self) -> None:
        if self.runtime.running:
            self.runtime.cancel()  # the loop ends the turn "cancelled", history closed
        elif self._turn is not None:
            self._turn.cancel()  # still before the loop (prompt hooks): nothing recorded yet

    async def _run_turn(
        self, op: ops.UserTurn | ops.ShellCommand, images: list[ImageBlock]
    ) -> ev.TurnCompleted:
        channel: RendezvousChannel[ev.Event] = RendezvousChannel()
        forward = asyncio.create_task(self._forward(channel))
        try:
            if isinstance(op, ops.ShellCommand):
                return await self.runtime.run_shell(
                    op.command, channel, can_ask=self.can_ask, turn_id=op.id
                )
            return await self.runtime.run_turn(
                op.text,
                channel,
                can_ask=self.can_ask,
                turn_id=op.id,
                images=images,
                shown=op.shown,
            )
        except asyncio.CancelledError:
            if self._closed:
                raise
            task = asyncio.current_task()
            if task is not None:
                task.uncancel()
            return await self._ended(op, "cancelled", None)
        except Exception as exc:  # a bug must still answer the turn, never hang a front end
            log.exception("turn failed")
            return await self._ended(op, "error", f"internal error: {type(exc).__name__}: {exc}")
        finally:
            channel.close()
            with contextlib.suppress(ChannelClosed):
                await forward
            self._approvals.clear()

    async def _ended(
        self, op: ops.UserTurn | ops.ShellCommand, reason: ev.StopReason, error: str | None
    ) -> ev.TurnCompleted:
        """The answer of a turn that ended before the loop could give one."""
        done = ev.TurnCompleted(
            turn_id=op.id,
            stop_reason=reason,
            final_text="",
            iterations=0,
            usage=Usage(),
            error=error,
        )
        self._turn_told = True
        with contextlib.suppress(ChannelClosed):
            await self._publish(done)
        return done

    async def _forward(self, channel: RendezvousChannel[ev.Event]) -> None:
        """Move a turn's events into the outbox; a consumer gone closes the turn's channel."""
        try:
            async for event in channel:
                if isinstance(event, ev.ApprovalRequested):
                    self._approvals[event.approval_id] = event.kind
                elif isinstance(event, ev.ModeChanged):
                    if event.mode == self._told_mode:
                        continue  # the runtime's watcher told it already
                    self._told_mode = event.mode
                elif isinstance(event, ev.TurnCompleted):
                    self._turn_told = True  # before the consumer can answer it with a new turn
                await self._publish(event)
        finally:
            channel.close()


if TYPE_CHECKING:

    def _conforms(host: SessionHost) -> AgentSession:
        return host  # mypy checks that SessionHost implements the protocol
