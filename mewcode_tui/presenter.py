"""Turns runtime events into transcript entries and widget updates, one event at a time."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, assert_never

from agent_core import events as ev
from agent_core.call_status import UNFINISHED, call_status
from agent_core.modes import Mode
from agent_core.protocol.ops import is_shell_call
from mewcode_tui.answer_stream import AnswerStream
from mewcode_tui.transcript import (
    AssistantEntry,
    NoticeEntry,
    NoticeLevel,
    ThinkingEntry,
    TodoEntry,
    ToolCallRecord,
    Transcript,
    UserEntry,
    answer_entries,
    stop_notice,
)

if TYPE_CHECKING:
    from mewcode_tui.widgets.chat_log import ChatLog
    from mewcode_tui.widgets.status_bar import StatusBar


def working_label(event: ev.Status) -> str | None:
    """What the working indicator says in this phase; None where it is hidden."""
    if event.phase == "thinking":
        return "Thinking…"
    if event.phase == "tool":
        detail = event.detail.splitlines()[0] if event.detail.strip() else "a tool"
        return f"Running {detail}…"
    return None  # streaming text, an approval dialog, or idle: nothing to wait for


class PresenterHost(Protocol):
    """What the presenter needs from the screen besides the widgets."""

    def ask_approval(self, event: ev.ApprovalRequested) -> None: ...

    def mode_changed(self, mode: Mode) -> None: ...

    def turn_clock(self, running: bool) -> None: ...

    def working(self, label: str | None) -> None:
        """Show the working indicator with ``label``, or hide it (None)."""
        ...


class TurnPresenter:
    """Applies each event to the transcript, the chat log and the status bar."""

    def __init__(
        self, host: PresenterHost, transcript: Transcript, log: ChatLog, status: StatusBar
    ) -> None:
        self.host = host
        self.transcript = transcript
        self.log = log
        self.status = status
        self._streamed = False  # did the current message arrive as deltas?
        self._answer_from: int | None = None  # where this round's streamed entries begin
        self._todo: TodoEntry | None = None
        self._error_shown = False  # the loop sends Error, then TurnCompleted(error)
        self.answer = AnswerStream(transcript, log)

    async def apply(self, event: ev.Event) -> None:
        if not isinstance(event, ev.MessageDelta):
            # Buffered text (and a flush already under way) comes before what follows.
            await self.answer.flush()
        # Exhaustive: a new event type fails the type check (and the dispatch test) here.
        match event:
            case ev.TurnStarted():
                await self.on_turn_started(event)
            case ev.MessageDelta():
                await self.on_message_delta(event)
            case ev.ThinkingDelta():
                await self.on_thinking_delta(event)
            case ev.AssistantMessage():
                await self.on_assistant_message(event)
            case ev.ToolCall():
                await self.on_tool_call(event)
            case ev.PermissionDecision():
                await self.on_permission_decision(event)
            case ev.ApprovalRequested():
                await self.on_approval_requested(event)
            case ev.ToolResult():
                await self.on_tool_result(event)
            case ev.ToolOutputUpdate():
                await self.on_tool_output(event)
            case ev.FileDiff():
                await self.on_file_diff(event)
            case ev.Diagnostics():
                await self.on_diagnostics(event)
            case ev.TodoUpdate():
                await self.on_todo_update(event)
            case ev.UsageUpdate():
                await self.on_usage_update(event)
            case ev.Status():
                await self.on_status(event)
            case ev.ModeChanged():
                await self.on_mode_changed(event)
            case ev.Compaction():
                await self.on_compaction(event)
            case ev.Error():
                await self.on_error(event)
            case ev.Notice():
                await self.on_notice(event)
            case ev.TurnCompleted():
                await self.on_turn_completed(event)
            case ev.OpRefused():
                await self.say("warning", event.reason)
            case ev.AnswerRestarted():
                await self.on_answer_restarted(event)
            case (
                ev.SessionOpened()
                | ev.ModelChanged()
                | ev.McpServerChanged()
                | ev.OpDone()
                | ev.HookCallbackRequested()
                | ev.SessionList()
                | ev.MemoryReport()
                | ev.SkillList()
                | ev.HookList()
                | ev.McpServerList()
                | ev.FactRemembered()
                | ev.FactForgotten()
                | ev.RuleList()
                | ev.RuleRemoved()
                | ev.ContextReport()
                | ev.DiffReport()
                | ev.CommandList()
                | ev.HistoryReport()
                | ev.SettingsReport()
                | ev.DirectoryAdded()
                | ev.DoctorReport()
                | ev.ModelList()
                | ev.ShellList()
            ):
                pass  # session news: the screen reads it from the runtime until it migrates
            case _:
                assert_never(event)

    async def say(self, level: NoticeLevel, text: str) -> None:
        await self.log.append(self.transcript.add(NoticeEntry(level, text)))

    # --- streaming text ---------------------------------------------------

    async def on_turn_started(self, event: ev.TurnStarted) -> None:
        self._todo = None
        self._error_shown = False
        self.status.phase = "thinking"
        self.host.turn_clock(True)
        self.host.working("Thinking…")
        if event.attachments:
            await self._show_attachments(event.attachments)

    async def _show_attachments(self, files: list[ev.AttachedFile]) -> None:
        """Chips under the prompt the user sent: the files its @-mentions attached."""
        entry = next(
            (e for e in reversed(self.transcript.entries) if isinstance(e, UserEntry)), None
        )
        if entry is None:
            return
        entry.attachments = list(files)
        if (view := self.log.view(entry)) is not None:
            await view.entry_changed()

    def _answer_begins(self) -> None:
        if self._answer_from is None:
            self._answer_from = len(self.transcript.entries)

    async def on_message_delta(self, event: ev.MessageDelta) -> None:
        self.host.working(None)  # the answer itself shows that something is happening
        self._answer_begins()
        self._streamed = True
        self.answer.add(event.text)

    async def on_answer_restarted(self, event: ev.AnswerRestarted) -> None:
        """The stream broke mid-answer and starts again: take away what it had shown."""
        start, self._answer_from = self._answer_from, None
        if start is not None:
            doomed = [
                e
                for e in self.transcript.entries[start:]
                if isinstance(e, AssistantEntry | ThinkingEntry)
            ]
            await self.log.forget(doomed)
        self._streamed = False
        self.answer.reset()
        await self.say("warning", event.message)

    async def on_thinking_delta(self, event: ev.ThinkingDelta) -> None:
        self._answer_begins()
        self._streamed = True
        entry, new = self.transcript.open_thinking()
        entry.chunks.append(event.text)
        if new:
            await self.log.append(entry)
        elif (view := self.log.view(entry)) is not None:
            await view.entry_changed()

    async def _finish_streams(self) -> None:
        for entry in self.transcript.entries[-3:]:
            if isinstance(entry, AssistantEntry | ThinkingEntry) and not entry.done:
                entry.done = True
                if (view := self.log.view(entry)) is not None:
                    await view.entry_changed()

    async def on_assistant_message(self, event: ev.AssistantMessage) -> None:
        if not self._streamed:
            text = "".join(b.get("text", "") for b in event.content if b.get("type") == "text")
            if text:
                entries = [self.transcript.add(entry) for entry in answer_entries(text)]
                await self.log.append_all(entries)
        await self._finish_streams()
        self._streamed = False
        self._answer_from = None
        self.answer.reset()
        self.transcript.end_round()

    # --- tool calls -------------------------------------------------------

    def _refresh_call(self, record: ToolCallRecord) -> None:
        line = self.log.line_for(record.call_id)
        if line is not None:
            line.refresh_line()
            if record.expanded and line.detail is not None:
                line.detail.refresh_detail()

    async def on_tool_call(self, event: ev.ToolCall) -> None:
        await self._finish_streams()
        record = ToolCallRecord(
            event.call_id, event.tool, event.summary, event.input, event.read_only
        )
        # A command the user typed (``!``) is shown open: its output is what they asked for.
        record.expanded = is_shell_call(event.call_id)
        round_, new = self.transcript.add_call(record)
        if new:
            await self.log.append(round_)
            return
        if (view := self.log.view(round_)) is not None:
            await view.entry_changed()

    async def on_permission_decision(self, event: ev.PermissionDecision) -> None:
        record = self.transcript.calls.get(event.call_id)
        if record is None:
            return
        record.status = call_status(record.status, event)
        record.reason = event.reason if event.decision == "deny" else ""
        self._refresh_call(record)

    async def on_approval_requested(self, event: ev.ApprovalRequested) -> None:
        record = self.transcript.calls.get(event.call_id)
        if record is not None:
            record.status = call_status(record.status, event)
            self._refresh_call(record)
        self.host.ask_approval(event)

    async def on_tool_result(self, event: ev.ToolResult) -> None:
        record = self.transcript.calls.get(event.call_id)
        if record is None:
            return
        record.status = call_status(record.status, event)
        record.duration_ms = event.duration_ms
        record.set_output(event.content)
        self._refresh_call(record)

    async def on_tool_output(self, event: ev.ToolOutputUpdate) -> None:
        """A running call's last lines (or, ``final``, what the model got from an
        interrupted one); a late update never replaces a result."""
        record = self.transcript.calls.get(event.call_id)
        if record is None:
            return
        if event.final:
            record.set_output(event.text)
        elif record.status in UNFINISHED:
            record.set_tail(event.text, event.total_chars, event.shell_id)
        else:
            return
        if record.expanded:
            self._refresh_call(record)

    async def on_file_diff(self, event: ev.FileDiff) -> None:
        record = self.transcript.calls.get(event.call_id)
        if record is None:
            return
        record.diff, record.diff_path = event.diff, event.path
        record.added, record.removed = event.added, event.removed
        self._refresh_call(record)

    async def on_diagnostics(self, event: ev.Diagnostics) -> None:
        items = event.items[:5]
        more = f"\n  … {len(event.items) - 5} more" if len(event.items) > 5 else ""
        body = "\n".join(f"  {item}" for item in items)
        await self.say("warning", f"Diagnostics in {event.path}:\n{body}{more}")

    async def on_todo_update(self, event: ev.TodoUpdate) -> None:
        if self._todo is not None and (view := self.log.view(self._todo)) is not None:
            self._todo.todos = event.todos
            await view.entry_changed()
            return
        self._todo = TodoEntry(event.todos)
        await self.log.append(self.transcript.add(self._todo))

    # --- status -----------------------------------------------------------

    async def on_usage_update(self, event: ev.UsageUpdate) -> None:
        status = self.status
        status.input_tokens = event.input_tokens
        status.output_tokens = event.output_tokens
        status.cache_read_tokens = event.cache_read_tokens
        status.cost_usd = event.cost_usd
        status.context_tokens = event.context_tokens
        status.context_window = event.context_window

    async def on_status(self, event: ev.Status) -> None:
        self.status.phase = event.phase
        self.status.phase_detail = event.detail
        self.host.working(working_label(event))

    async def on_mode_changed(self, event: ev.ModeChanged) -> None:
        self.host.mode_changed(event.mode)

    async def on_compaction(self, event: ev.Compaction) -> None:
        if event.op_id:
            return  # the answer to /compact: the command that asked says it, with its figures
        note = f" {event.note}" if event.note else ""
        await self.say(
            "info",
            f"Context compacted ({event.layer}): {event.tokens_before:,} → "
            f"{event.tokens_after:,} tokens.{note}",
        )

    async def on_error(self, event: ev.Error) -> None:
        self._error_shown = True
        await self.say("error", event.message)

    async def on_notice(self, event: ev.Notice) -> None:
        await self.say(event.level, event.message)

    async def on_turn_completed(self, event: ev.TurnCompleted) -> None:
        await self._finish_streams()
        self._streamed = False
        for record in self.transcript.calls.values():
            if (status := call_status(record.status, event)) != record.status:
                record.status = status
                self._refresh_call(record)
        self.status.phase = "idle"
        self.status.phase_detail = ""
        self.host.working(None)
        self.host.turn_clock(False)
        if event.stop_reason == "error" and not self._error_shown:
            await self.say("error", event.error or "The turn failed.")
        elif (note := stop_notice(event.stop_reason, event.error)) is not None:
            await self.say(note.level, note.text)
