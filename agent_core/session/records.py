"""The records a session JSONL file holds, one JSON object per line."""

from __future__ import annotations

import datetime as _dt
from typing import Any, Literal

import msgspec

from agent_core.messages import Message


def utc_now() -> str:
    """An ISO-8601 UTC timestamp with milliseconds, as written in every record."""
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class _Record(msgspec.Struct, tag_field="type", kw_only=True, omit_defaults=True):
    ts: str = ""


class MetaRecord(_Record, tag="meta"):
    """The first line of every session: who, where and with which model."""

    session_id: str
    cwd: str
    created: str
    model: str = ""
    provider: str = ""
    version: str = ""
    forked_from: str = ""  # the session this one was copied from (`--continue` while in use)


class MessageRecord(_Record, tag="message"):
    """One message appended to the conversation."""

    message: Message


class CompactionRecord(_Record, tag="compaction"):
    """A layer-2 summary: ``history`` replaces everything before it on load."""

    history: list[Message]
    tokens_before: int
    tokens_after: int


class CustomRecord(_Record, tag="custom"):
    """A record another module keeps with the session (e.g. a turn's snapshot id)."""

    name: str
    data: dict[str, Any] = {}


CallViewStatus = Literal["ok", "error", "denied", "cancelled"]


class CallViewRecord(_Record, tag="call_view"):
    """How a front end showed one tool call when it ended, so a resumed session shows it
    the same way: the status word, why it was denied, how long it ran, its diff."""

    call_id: str
    status: CallViewStatus
    summary: str = ""
    reason: str = ""
    duration_ms: int | None = None
    diff: str | None = None
    diff_path: str = ""
    added: int = 0
    removed: int = 0


class TurnEndRecord(_Record, tag="turn_end"):
    """A turn that ended early (cancelled, an error, a limit), where it ended.

    ``marker`` is the note the history got to stay valid ("[cancelled by user]"),
    if any: a front end shows the stop instead of that text.
    """

    stop_reason: str
    error: str = ""
    marker: str = ""


class PromptViewRecord(_Record, tag="prompt_view"):
    """What the user typed for the prompt the next message holds, when that message is its
    expansion (``/review`` sends a long prompt): a resumed session shows these words."""

    shown: str


Record = (
    MetaRecord
    | MessageRecord
    | CompactionRecord
    | CustomRecord
    | CallViewRecord
    | TurnEndRecord
    | PromptViewRecord
)

_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(Record)


def encode_record(record: Record) -> bytes:
    """One JSON line (with trailing newline) for a record, stamping ``ts`` if unset."""
    if not record.ts:
        record.ts = utc_now()
    return _encoder.encode(record) + b"\n"


def decode_record(line: bytes) -> Record:
    """Decode one line; raises msgspec.DecodeError (bad JSON) or ValidationError."""
    return _decoder.decode(line)
