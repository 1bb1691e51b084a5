"""The ReAct loop (docs/architecture.md#the-agent-loop): stream an answer, run its tool calls, repeat.

A round is: prepare the request, stream the model's answer, and if it asked
for tools, execute them (ordered batches) and append the results. Scheduling,
permissions, compaction and persistence live in their own modules.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Protocol

import msgspec

from agent_core import events as ev
from agent_core.agent.attachments import PromptAttachments
from agent_core.agent.conversation import Conversation
from agent_core.agent.executor import ToolExecutor
from agent_core.agent.scheduler import run_ordered
from agent_core.errors import ChannelClosed, MewCodeError, ProviderError
from agent_core.llm import base as llm
from agent_core.llm.pricing import OFFLINE_PROVIDER, unenforceable_budget
from agent_core.messages import (
    ContentBlock,
    Message,
    RedactedThinkingBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
    user_text,
)
from agent_core.usage import Usage

log = logging.getLogger("mewcode.loop")


@dataclass
class LoopLimits:
    max_iterations: int = 25
    hallucination_rounds: int = 3
    max_concurrency: int = 4
    max_budget_usd: float | None = None  # the session's cost past which no request is sent


@dataclass
class TurnStats:
    """What a front end reports at the end (num_turns, API time...)."""

    requests: int = 0
    api_seconds: float = 0.0
    usage: Usage = field(default_factory=Usage)
    denials: list[dict] = field(default_factory=list)


class RequestSource(Protocol):
    """Builds the request of each round (compacting the history first when needed)."""

    async def next_request(self) -> llm.ChatRequest: ...

    async def too_long(self, *, compact: bool) -> bool:
        """The API refused the request as too long: the context is full. With ``compact``,
        summarise the history now; True if it shrank."""
        ...


class ResultAddenda(Protocol):
    """Text that rides after a round's tool results (loaded skill bodies)."""

    def take_blocks(self) -> list[TextBlock]: ...


class TurnEndHooks(Protocol):
    """Stop hooks: a reason to go on instead of ending; a hook's request to stop."""

    @property
    def stop_requested(self) -> str: ...

    async def continue_reason(self) -> str | None: ...


class UsageSink(Protocol):
    """Counts each request's usage; returns the event that reports the totals."""

    def record(self, usage: Usage, model: str) -> ev.UsageUpdate: ...

    @property
    def cost_usd(self) -> float: ...


# The API refused a request as too long once more, after the history was summarised.
STILL_TOO_LONG = (
    "the prompt is too long for the model's context window, even after compacting the "
    "conversation: use /clear to start afresh, or /compact with instructions to keep less"
)

# What the history says about a turn that stopped early (the model reads it next turn).
CLOSING_NOTES: dict[str, str] = {
    "cancelled": "cancelled by user",
    "error": "the turn stopped because of an error",
    "max_iterations": "stopped: the round limit was reached",
    "max_budget": "stopped: the session's cost budget was spent",
    "hallucinated_tools": "stopped: repeated calls to unknown tools",
}


class _Stop(Exception):
    def __init__(self, reason: ev.StopReason, error: str | None = None) -> None:
        self.reason = reason
        self.error = error


class AgentLoop:
    """Runs one user turn to completion, emitting events as it goes."""

    def __init__(
        self,
        *,
        provider: llm.Provider,
        conversation: Conversation,
        executor: ToolExecutor,
        requests: RequestSource,
        emit: Callable[[ev.Event], Awaitable[None]],
        limits: LoopLimits,
        meter: UsageSink | None = None,
        addenda: ResultAddenda | None = None,
        hooks: TurnEndHooks | None = None,
    ) -> None:
        self.provider = provider
        self.conversation = conversation
        self.executor = executor
        self.requests = requests
        self.emit = emit
        self.limits = limits
        self.meter = meter
        self.addenda = addenda
        self.hooks = hooks
        self.stats = TurnStats()

    async def run(
        self, turn_id: str, text: str, attached: PromptAttachments | None = None
    ) -> ev.TurnCompleted:
        final_text, iterations = "", 0
        reason: ev.StopReason = "end_turn"
        error: str | None = None
        unknown_streak = 0
        try:
            attached = attached or PromptAttachments()
            await self.emit(ev.TurnStarted(turn_id=turn_id, input=text, attachments=attached.files))
            for note in attached.notes:
                await self.emit(ev.Notice(level="warning", message=note))
            # The text, then images and @-mentioned files; an image alone needs no empty text.
            message = user_text(text) if text or not attached.blocks else Message("user", [])
            message.content.extend(attached.blocks)
            self.conversation.append(message)
            while True:
                if iterations >= self.limits.max_iterations:
                    raise _Stop("max_iterations")
                self._check_budget()
                iterations += 1
                message, input_errors = await self._answer()
                final_text = message.text() or final_text
                calls = message.tool_uses()
                if not calls:
                    again = await self.hooks.continue_reason() if self.hooks else None
                    if again is None:
                        break
                    self.conversation.append(user_text(f"Stop hook feedback:\n{again}"))
                    continue
                before = self.executor.unknown_calls
                await self._run_tools(calls, input_errors)
                if await self._stopped_by_hook():
                    break
                all_unknown = self.executor.unknown_calls - before == len(calls)
                unknown_streak = unknown_streak + 1 if all_unknown else 0
                if unknown_streak >= self.limits.hallucination_rounds:
                    raise _Stop("hallucinated_tools")
        except _Stop as stop:
            reason, error = stop.reason, stop.error
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None:
                task.uncancel()
            reason = "cancelled"
        except ChannelClosed:
            reason = "cancelled"
        except ProviderError as exc:
            reason, error = "error", str(exc)
            await self._try_emit(ev.Error(kind=exc.kind, message=str(exc)))
        except MewCodeError as exc:  # e.g. the disk is full: the session cannot be written
            reason, error = "error", str(exc)
            await self._try_emit(ev.Error(kind="runtime", message=str(exc)))
        except Exception as exc:  # a bug must end the turn cleanly, never hang a front end
            log.exception("turn failed")
            reason, error = "error", f"internal error: {type(exc).__name__}: {exc}"
            await self._try_emit(ev.Error(kind="internal", message=error))
        finally:
            try:
                self._close_history(reason)
            except MewCodeError as exc:
                log.warning("could not close the history: %s", exc)
        self.stats.denials = list(self.executor.denials)
        done = ev.TurnCompleted(
            turn_id=turn_id,
            stop_reason=reason,
            final_text=final_text,
            iterations=iterations,
            usage=self.stats.usage,
            error=error,
        )
        await self._try_emit(ev.Status(phase="idle"))
        await self._try_emit(done)
        return done

    def _check_budget(self) -> None:
        """Before a request: stop when the budget is spent, or cannot be counted at all
        (no price for the model: its requests would cost nothing by our count)."""
        budget = self.limits.max_budget_usd
        if budget is None:
            return
        # The offline demo sends nothing anywhere: it costs nothing whatever its model's name.
        offline = self.provider.name == OFFLINE_PROVIDER
        if not offline and (unmetered := unenforceable_budget(self.provider.model)):
            raise _Stop("max_budget", unmetered)
        if self.meter is not None and self.meter.cost_usd > budget:
            raise _Stop("max_budget")

    async def _stopped_by_hook(self) -> bool:
        """A hook answered ``continue: false``: the turn ends after this round's results."""
        reason = self.hooks.stop_requested if self.hooks is not None else ""
        if not reason:
            return False
        note = f"stopped by a hook: {reason}"
        self.conversation.close_open_ends(note)
        await self.emit(ev.Notice(level="warning", message=note))
        return True

    async def _try_emit(self, event: ev.Event) -> None:
        try:
            await self.emit(event)
        except ChannelClosed:
            pass

    def _close_history(self, reason: str) -> None:
        if reason in CLOSING_NOTES:
            self._add_finished_results()
            self.conversation.close_open_ends(CLOSING_NOTES[reason])

    def _add_finished_results(self) -> None:
        """After a cancel mid-tools, keep the results of the calls that ran (to the end, or
        until interrupted: the executor records both); only the others are "not run"."""
        history = self.conversation.messages
        if not history or history[-1].role != "assistant" or not history[-1].tool_uses():
            return
        uses = history[-1].tool_uses()
        done = self.executor.completed
        if not any(u.id in done for u in uses):
            return
        self.conversation.append(
            Message(
                role="user",
                content=[
                    done.get(u.id)
                    or ToolResultBlock(
                        tool_use_id=u.id, content="not run: cancelled by user", is_error=True
                    )
                    for u in uses
                ],
            )
        )

    async def _answer(self) -> tuple[Message, dict[str, str]]:
        """This round's answer; a prompt the API finds too long is compacted and sent
        once more (docs/manual.md#sessions-and-context)."""
        try:
            return await self._stream_round()
        except ProviderError as exc:
            if exc.kind != "context_too_long":
                raise
            if not await self.requests.too_long(compact=True):
                raise
        try:
            return await self._stream_round()
        except ProviderError as exc:
            if exc.kind != "context_too_long":
                raise
            await self.requests.too_long(compact=False)
            raise ProviderError(exc.kind, STILL_TOO_LONG, status=exc.status) from None

    async def _stream_round(self) -> tuple[Message, dict[str, str]]:
        """Stream one answer into an assistant message; returns it and bad-JSON calls."""
        request = await self.requests.next_request()
        await self.emit(ev.Status(phase="thinking"))
        content: list[ContentBlock] = []
        text_parts: list[str] = []
        input_errors: dict[str, str] = {}
        usage = Usage()
        started = time.monotonic()
        streaming = completed = False

        def flush_text() -> None:
            if text_parts:
                content.append(TextBlock("".join(text_parts)))
                text_parts.clear()

        self.stats.requests += 1
        try:
            async for item in self.provider.stream(request):
                if isinstance(item, llm.TextDelta):
                    if not streaming:
                        streaming = True
                        await self.emit(ev.Status(phase="streaming"))
                    text_parts.append(item.text)
                    await self.emit(ev.MessageDelta(text=item.text))
                elif isinstance(item, llm.ThinkingDelta):
                    await self.emit(ev.ThinkingDelta(text=item.text))
                elif isinstance(item, llm.ThinkingComplete):
                    flush_text()
                    if item.redacted_data:
                        content.append(RedactedThinkingBlock(item.redacted_data))
                    else:
                        content.append(ThinkingBlock(item.thinking, item.signature))
                elif isinstance(item, llm.ToolCallComplete):
                    flush_text()
                    call_id = self.conversation.unique_call_id(item.id)
                    content.append(ToolUseBlock(call_id, item.name, item.input))
                    if item.input_error:
                        input_errors[call_id] = item.input_error
                elif isinstance(item, llm.UsageReport):
                    usage = item.usage
                elif isinstance(item, llm.Stop):
                    pass
                elif isinstance(item, llm.RetryNotice) and item.restart:
                    # What this attempt streamed is void: the answer comes again whole.
                    content.clear()
                    text_parts.clear()
                    input_errors.clear()
                    usage, streaming = Usage(), False
                    await self.emit(ev.AnswerRestarted(message=item.message, delay_s=item.delay_s))
                    await self.emit(ev.Status(phase="thinking"))  # waiting for the answer again
                elif isinstance(item, llm.RetryNotice):
                    await self.emit(ev.Notice(level="warning", message=item.message))
            completed = True
        finally:
            self.stats.api_seconds += time.monotonic() - started
            flush_text()
            if not completed:
                # A cut or cancelled stream keeps the text that did arrive.
                partial: list[ContentBlock] = [b for b in content if isinstance(b, TextBlock)]
                if partial:
                    self.conversation.append(Message(role="assistant", content=partial))
        if not content:
            content = [TextBlock("(no response)")]  # keeps roles alternating
        message = Message(role="assistant", content=content)
        self.conversation.append(message)
        self.stats.usage = self.stats.usage + usage
        await self.emit(
            ev.AssistantMessage(content=[msgspec.to_builtins(b) for b in content], usage=usage)
        )
        if self.meter is not None:
            await self.emit(self.meter.record(usage, self.provider.model))
        return message, input_errors

    async def _run_tools(self, calls: list[ToolUseBlock], errors: dict[str, str]) -> None:

        async def execute(call: ToolUseBlock) -> ToolResultBlock:
            return await self.executor.execute(call, errors.get(call.id))

        results = await run_ordered(
            calls, self.executor.is_read_only, execute, self.limits.max_concurrency
        )
        extra = self.addenda.take_blocks() if self.addenda is not None else []
        self.conversation.append(Message(role="user", content=[*results, *extra]))
