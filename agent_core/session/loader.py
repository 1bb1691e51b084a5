"""Read a session file back: skip what is damaged, say so, keep the rest."""

from __future__ import annotations

from pathlib import Path

import msgspec

from agent_core.messages import Message, ThinkingBlock
from agent_core.session.journal import read_lines
from agent_core.session.records import (
    CallViewRecord,
    CompactionRecord,
    CustomRecord,
    MessageRecord,
    MetaRecord,
    PromptViewRecord,
    TurnEndRecord,
    decode_record,
)
from agent_core.session.redact import REDACTED_THINKING_SIGNATURE
from agent_core.session.repair import repair_history


class SavedViews(msgspec.Struct):
    """What the live view showed beyond the messages: each call's ending, by call id, the
    turns that stopped early, by how many messages came before the stop, and the words
    typed for an expanded prompt, by the index of the message holding it."""

    calls: dict[str, CallViewRecord] = {}
    turn_ends: dict[int, TurnEndRecord] = {}
    prompts: dict[int, str] = {}

    def note(
        self, record: CallViewRecord | TurnEndRecord | PromptViewRecord, messages: int
    ) -> None:
        """Keep ``record``, written when the history held ``messages`` messages."""
        if isinstance(record, CallViewRecord):
            self.calls[record.call_id] = record
        elif isinstance(record, PromptViewRecord):
            self.prompts[messages] = record.shown  # the message appended next holds it
        else:
            self.turn_ends[messages] = record

    def compacted(self, old_length: int, history: list[Message]) -> None:
        """A compaction replaced ``old_length`` messages by ``history``: its summary, then
        the most recent messages kept as they were. What was said of a kept message moves
        with it; what was said of a summarised one goes."""
        from agent_core.context.compaction import summary_head

        shift, head = len(history) - old_length, summary_head(history)
        self.turn_ends = {n + shift: end for n, end in self.turn_ends.items() if n + shift > head}
        self.prompts = {i + shift: words for i, words in self.prompts.items() if i + shift >= head}


class LoadedSession(msgspec.Struct):
    """A session as read from disk: a valid history plus what went wrong reading it."""

    messages: list[Message]
    warnings: list[str]
    meta: MetaRecord | None
    extras: list[CustomRecord] = []
    # Messages the repair added at the end; the store appends them to the file.
    repaired_tail: list[Message] = []
    views: SavedViews = msgspec.field(default_factory=SavedViews)


def load_session(path: Path) -> LoadedSession:
    """Parse a session JSONL file. Never raises for bad content, only for I/O."""
    messages: list[Message] = []
    warnings: list[str] = []
    extras: list[CustomRecord] = []
    meta: MetaRecord | None = None
    views = SavedViews()
    unknown = 0
    for number, line, complete in read_lines(path):
        try:
            record = decode_record(line)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            if not complete:
                warnings.append(
                    f"session {path.name} line {number}: incomplete last line "
                    "(the app stopped while writing it; skipped)"
                )
            elif _is_unknown_kind(line):
                unknown += 1  # written by a newer version: not damage
            else:
                warnings.append(f"session {path.name} line {number}: {_problem(exc)} (skipped)")
            continue
        if isinstance(record, MessageRecord):
            messages.append(_sendable(record.message))
        elif isinstance(record, CompactionRecord):
            views.compacted(len(messages), record.history)
            messages = [_sendable(m) for m in record.history]
        elif isinstance(record, CallViewRecord | TurnEndRecord | PromptViewRecord):
            views.note(record, len(messages))
        elif isinstance(record, MetaRecord):
            meta = meta or record
        else:
            extras.append(record)
    if unknown:
        warnings.append(f"session {path.name}: skipped {unknown} record(s) of an unknown kind")
    if meta is None:
        warnings.append(f"session {path.name}: no session header found")
    history, tail, notes = repair_history(messages)
    warnings.extend(f"session {path.name}: {note}" for note in notes)
    return LoadedSession(history, warnings, meta, extras, tail, views)


def _sendable(msg: Message) -> Message:
    """Thinking redacted at rest is shown again but never sent: unsigned, the wire drops it."""
    if not any(
        isinstance(b, ThinkingBlock) and b.signature == REDACTED_THINKING_SIGNATURE
        for b in msg.content
    ):
        return msg
    blocks = [
        ThinkingBlock(b.thinking)
        if isinstance(b, ThinkingBlock) and b.signature == REDACTED_THINKING_SIGNATURE
        else b
        for b in msg.content
    ]
    return Message(role=msg.role, content=blocks)


def _is_unknown_kind(line: bytes) -> bool:
    try:
        data = msgspec.json.decode(line)
    except msgspec.DecodeError:
        return False
    known = ("meta", "message", "compaction", "custom", "call_view", "turn_end")
    return (
        isinstance(data, dict) and isinstance(data.get("type"), str) and data["type"] not in known
    )


def _problem(exc: Exception) -> str:
    if isinstance(exc, msgspec.DecodeError):
        return "not valid JSON"
    return f"unexpected record: {exc}"
