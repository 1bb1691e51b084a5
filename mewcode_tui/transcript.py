"""The chat transcript as data: entries the chat pane windows over (docs/manual.md#the-full-screen-ui).

Widgets come and go as the user scrolls; the transcript keeps what they show,
so an entry can be re-mounted at any time. Tool output is kept only as a
bounded preview, so a 10 MB result costs a few kilobytes here.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import msgspec

from agent_core.call_status import CallStatus as CallStatus  # re-exported for the widgets

if TYPE_CHECKING:
    from collections.abc import Mapping

    from agent_core.events import (
        AttachedFile,
        CallViewRecord,
        HistoryItem,
        HistoryReport,
        ShellRun,
        TurnEndRecord,
    )

PREVIEW_CHARS = 4_000
PREVIEW_LINES = 60

NoticeLevel = Literal["info", "warning", "error"]

# The notice a turn that stopped early ends with, live and when resumed.
STOP_NOTES: dict[str, tuple[NoticeLevel, str]] = {
    "cancelled": ("warning", "Turn cancelled."),
    "max_iterations": ("warning", "Stopped: the turn hit the iteration limit."),
    "max_budget": ("warning", "Stopped: the session's cost passed --max-budget-usd."),
    "hallucinated_tools": ("warning", "Stopped: the model kept calling tools that do not exist."),
}


def bounded_preview(text: str, chars: int = PREVIEW_CHARS, lines: int = PREVIEW_LINES) -> str:
    """The head of ``text``: at most ``lines`` lines and ``chars`` characters."""
    head = text[:chars]
    cut = head.split("\n", lines)
    if len(cut) > lines:
        head = "\n".join(cut[:lines])
    return head


def bounded_tail(text: str, chars: int = PREVIEW_CHARS, lines: int = PREVIEW_LINES) -> str:
    """The end of ``text``: at most ``lines`` lines and ``chars`` characters."""
    tail = text[-chars:]
    cut = tail.rsplit("\n", lines)
    if len(cut) > lines:
        tail = "\n".join(cut[-lines:])
    return tail


def human_size(n: int) -> str:
    """1234567 -> '1.2 MB' (characters, counted like bytes for ASCII)."""
    size = float(n)
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1000 or unit == "GB":
            return f"{int(size)} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1000
    return f"{n} B"


class ToolCallRecord(msgspec.Struct):
    """One tool call as the UI shows it."""

    call_id: str
    tool: str
    summary: str
    input: dict[str, Any]
    read_only: bool = True
    status: CallStatus = "pending"
    reason: str = ""
    duration_ms: int | None = None
    output: str = ""  # bounded preview
    output_size: int = 0
    # While it runs: the last lines it printed (bounded), of how much; for BashOutput, the
    # last lines of the background shell ``tail_shell``.
    tail: str = ""
    tail_chars: int = 0
    tail_shell: str = ""
    diff: str | None = None
    diff_path: str = ""
    added: int = 0
    removed: int = 0
    expanded: bool = False

    def set_output(self, text: str) -> None:
        self.output = bounded_preview(text)
        self.output_size = len(text)

    def set_tail(self, text: str, total_chars: int, shell_id: str = "") -> None:
        self.tail = bounded_tail(text)
        self.tail_chars = max(total_chars, len(self.tail))
        self.tail_shell = shell_id

    @property
    def output_truncated(self) -> bool:
        return self.output_size > len(self.output)

    def input_preview(self) -> str:
        try:
            text = json.dumps(self.input, indent=2, ensure_ascii=False, default=str)
        except (TypeError, ValueError):
            text = repr(self.input)
        return bounded_preview(text, chars=2_000, lines=30)


class UserEntry(msgspec.Struct):
    text: str
    attachments: list[AttachedFile] = msgspec.field(default_factory=list)  # @-mentioned files


class AssistantEntry(msgspec.Struct):
    chunks: list[str] = msgspec.field(default_factory=list)
    done: bool = False
    continued: bool = False  # a later segment of one long streamed answer

    @property
    def text(self) -> str:
        if len(self.chunks) > 1:
            self.chunks[:] = ["".join(self.chunks)]
        return self.chunks[0] if self.chunks else ""


class ThinkingEntry(msgspec.Struct):
    chunks: list[str] = msgspec.field(default_factory=list)
    expanded: bool = False
    done: bool = False

    @property
    def text(self) -> str:
        if len(self.chunks) > 1:
            self.chunks[:] = ["".join(self.chunks)]
        return self.chunks[0] if self.chunks else ""


class ToolRoundEntry(msgspec.Struct):
    calls: list[ToolCallRecord] = msgspec.field(default_factory=list)


class NoticeEntry(msgspec.Struct):
    level: NoticeLevel
    text: str


class TodoEntry(msgspec.Struct):
    todos: list[dict[str, Any]]


Entry = UserEntry | AssistantEntry | ThinkingEntry | ToolRoundEntry | NoticeEntry | TodoEntry
AnyEntry = TypeVar("AnyEntry", bound=Entry)


class Transcript:
    """The ordered entries of a conversation plus an index of tool calls."""

    def __init__(self) -> None:
        self.entries: list[Entry] = []
        self.calls: dict[str, ToolCallRecord] = {}
        self.rounds: dict[str, ToolRoundEntry] = {}  # the round each call is in, by call id
        self._round_open = False  # do new calls join the last round?

    def __len__(self) -> int:
        return len(self.entries)

    def clear(self) -> None:
        self.entries.clear()
        self.calls.clear()
        self.rounds.clear()
        self._round_open = False

    def prepend(self, earlier: Transcript) -> None:
        """Put an earlier conversation (a resumed session) before these entries, calls indexed."""
        self.entries[:0] = earlier.entries
        self.calls.update(earlier.calls)
        self.rounds.update(earlier.rounds)

    def end_round(self) -> None:
        """A model message ended: its tool calls (if any) form a new round."""
        self._round_open = False

    def add(self, entry: AnyEntry) -> AnyEntry:
        self.entries.append(entry)
        return entry

    @property
    def last(self) -> Entry | None:
        return self.entries[-1] if self.entries else None

    def open_assistant(self) -> tuple[AssistantEntry, bool]:
        """The assistant entry deltas go to, and whether it was just created."""
        last = self.last
        if isinstance(last, AssistantEntry) and not last.done:
            return last, False
        entry = AssistantEntry()
        self.add(entry)
        return entry, True

    def open_thinking(self) -> tuple[ThinkingEntry, bool]:
        last = self.last
        if isinstance(last, ThinkingEntry) and not last.done:
            return last, False
        entry = ThinkingEntry()
        self.add(entry)
        return entry, True

    def close_streams(self) -> None:
        """Mark open assistant/thinking entries finished (a message ended)."""
        for entry in reversed(self.entries[-3:]):
            if isinstance(entry, AssistantEntry | ThinkingEntry):
                entry.done = True

    def add_call(self, record: ToolCallRecord) -> tuple[ToolRoundEntry, bool]:
        """File a call into the current round; returns the round and whether it is new."""
        self.calls[record.call_id] = record
        last = self.last
        if isinstance(last, ToolRoundEntry) and self._round_open:
            last.calls.append(record)
            self.rounds[record.call_id] = last
            return last, False
        self.close_streams()
        round_ = ToolRoundEntry([record])
        self.rounds[record.call_id] = round_
        self.add(round_)
        self._round_open = True
        return round_, True

    def all_calls(self) -> list[ToolCallRecord]:
        return list(self.calls.values())


SEGMENT_CHARS = 1_000
_FENCE = re.compile(r"^ {0,3}(```|~~~)", re.MULTILINE)


def estimated_height(markdown: str, width: int) -> int:
    """Rows ``markdown`` will roughly take at ``width``, without rendering it.

    Source lines wrapped at ``width``: close for prose and code, which is all a
    not-yet-visible view needs for the scrollbar until it is measured.
    """
    rows = 0
    for line in markdown.splitlines() or [""]:
        rows += max(1, -(-len(line) // width))
    return rows


def segment_cut(text: str, delta: str, limit: int = SEGMENT_CHARS) -> int | None:
    """Where in ``delta`` a long streamed answer may start a new segment, if anywhere.

    A cut goes right after a blank line, outside any code fence, and not before
    an indented line (which would turn into a code block on its own). Cutting
    long answers keeps each streaming Markdown widget, and its re-layout, small.
    """
    if len(text) + len(delta) < limit:
        return None
    search_from = max(0, limit - len(text) - 2)  # segments are at least ``limit`` long
    while True:
        at = delta.find("\n\n", search_from)
        if at < 0:
            return None
        cut = at + 2
        following = delta[cut : cut + 1]
        head = text + delta[:cut]
        if following not in (" ", "\t", "\n") and len(_FENCE.findall(head)) % 2 == 0:
            return cut
        search_from = at + 1


def last_cut(piece: str) -> int | None:
    """The last place a segment that starts with ``piece`` may end (same rules as a cut).

    A fast stream completes segments several at a time: ending the last of them
    here leaves the new live segment only the text after the last paragraph,
    instead of up to a whole segment of Markdown to build at once.
    """
    fences = [match.start() for match in _FENCE.finditer(piece)]
    end = len(piece)
    while (at := piece.rfind("\n\n", 0, end)) >= 0:
        cut = at + 2
        if piece[cut : cut + 1] not in (" ", "\t", "\n") and bisect_left(fences, cut) % 2 == 0:
            return cut
        end = at + 1
    return None


def split_segments(segment_text: str, text: str, limit: int = SEGMENT_CHARS) -> list[str]:
    """``text`` as pieces: all but the last end a segment (the first continues ``segment_text``)."""
    pieces: list[str] = []
    current = segment_text
    while True:
        cut = segment_cut(current, text, limit)
        if cut is None:
            break
        pieces.append(text[:cut])
        text, current = text[cut:], ""
    if pieces and (cut := last_cut(text)):
        # The segment completed last takes the tail's whole paragraphs with it.
        pieces[-1] += text[:cut]
        text = text[cut:]
    pieces.append(text)
    return pieces


def answer_entries(text: str) -> list[AssistantEntry]:
    """A finished answer as segment entries, cut where a stream of it would be.

    One widget renders each; a long answer in one piece would be rendered
    whole (seconds for hundreds of KB) the moment any of it is shown.
    """
    pieces = split_segments("", text)
    return [AssistantEntry([piece], done=True, continued=i > 0) for i, piece in enumerate(pieces)]


def transcript_from_history(report: HistoryReport) -> Transcript:
    """Rebuild a transcript from the session's history (resume): text, thinking, tool rounds.

    Calls keep the status word, duration, summary and diff the live view showed, and a
    turn that stopped early shows a notice instead of the note its history got. Without
    saved views (an older session file), statuses come from the results.
    """
    transcript = Transcript()
    calls, turn_ends = report.calls, report.turn_ends
    for position, item in enumerate(report.items, start=1):
        message = item.message
        end = turn_ends.get(position)  # a turn stopped after this message
        is_marker = (
            end is not None
            and bool(end.marker)
            and message.role == "assistant"
            and message.text() == end.marker
        )
        if not is_marker:
            _add_message(transcript, item, calls)
        if end is not None:
            transcript.add(turn_end_notice(end))
    return transcript


def turn_end_notice(end: TurnEndRecord) -> NoticeEntry:
    """The notice the live view showed when this turn stopped."""
    return stop_notice(end.stop_reason, end.error) or NoticeEntry(
        "error", end.error or "The turn failed."
    )


def stop_notice(stop_reason: str, error: str | None) -> NoticeEntry | None:
    """The notice for a turn that stopped early, with its own reason when it has one
    (a budget that cannot be counted says why); None for an error or a normal end."""
    if stop_reason not in STOP_NOTES:
        return None
    level, text = STOP_NOTES[stop_reason]
    return NoticeEntry(level, f"Stopped: {error}" if error else text)


def _add_message(
    transcript: Transcript, item: HistoryItem, calls: Mapping[str, CallViewRecord]
) -> None:
    from agent_core.messages import (
        TextBlock,
        ThinkingBlock,
        ToolResultBlock,
        ToolUseBlock,
        result_text,
    )

    message = item.message
    if item.shown_as == "summary":
        # The summary is for the model; the reader gets a one-line marker.
        transcript.add(NoticeEntry("info", "Earlier conversation summarised (compacted)."))
        return
    if item.shown_as in ("summary_ack", "shell_ack"):
        return  # the model's acknowledgement of the summary, the note after a ! command
    if item.shell is not None:
        _add_shell_run(transcript, item.shell)
        return
    if message.role == "user":
        if item.words:
            transcript.add(UserEntry("\n".join(item.words), list(item.attached)))
        for block in message.content:
            if isinstance(block, ToolResultBlock):
                record = transcript.calls.get(block.tool_use_id)
                if record is not None:
                    record.set_output(result_text(block))
                    view = calls.get(block.tool_use_id)
                    if view is not None:
                        record.status = view.status
                    else:
                        record.status = "error" if block.is_error else "ok"
        return
    transcript.end_round()
    for block in message.content:
        if isinstance(block, TextBlock) and block.text:
            for entry in answer_entries(block.text):
                transcript.add(entry)
        elif isinstance(block, ThinkingBlock) and block.thinking:
            transcript.add(ThinkingEntry([block.thinking], done=True))
        elif isinstance(block, ToolUseBlock):
            view = calls.get(block.id)
            summary = view.summary if view is not None and view.summary else None
            record = ToolCallRecord(
                block.id, block.name, summary or summarize_input(block.input), block.input
            )
            record.status = "cancelled"  # until its result is found
            if view is not None:
                record.reason, record.duration_ms = view.reason, view.duration_ms
                record.diff, record.diff_path = view.diff, view.diff_path
                record.added, record.removed = view.added, view.removed
            transcript.add_call(record)


def _add_shell_run(transcript: Transcript, run: ShellRun) -> None:
    """A ``!`` command as the live view showed it: the prompt, then its Bash line."""
    transcript.add(UserEntry(f"! {run.command}"))
    view = run.call
    record = ToolCallRecord(
        view.call_id if view is not None else f"shell_{len(transcript)}",
        "Bash",
        (view.summary if view is not None else "") or summarize_input({"command": run.command}),
        {"command": run.command},
        read_only=False,
    )
    record.set_output(run.output)
    record.expanded = True  # shown open, as live
    if view is not None:
        record.status, record.reason = view.status, view.reason
        record.duration_ms = view.duration_ms
    else:
        record.status = "ok" if run.ran else "denied"
    transcript.end_round()
    transcript.add_call(record)
    transcript.end_round()


def summarize_input(data: dict[str, Any], width: int = 60) -> str:
    """A short argument for calls that came without a tool summary (resumed history)."""
    for key in ("file_path", "path", "command", "pattern", "url", "query", "description"):
        value = data.get(key)
        if isinstance(value, str) and value:
            return value.splitlines()[0][:width]
    if not data:
        return ""
    first = next(iter(data.values()))
    return str(first).splitlines()[0][:width] if str(first) else ""
