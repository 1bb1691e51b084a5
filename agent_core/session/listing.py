"""List a project's sessions cheaply: read each file's head, stat the rest."""

from __future__ import annotations

import os
from pathlib import Path

import msgspec

from agent_core.config.paths import MewcodePaths
from agent_core.session.records import MessageRecord, PromptViewRecord, decode_record

_HEAD_LINES = 12
_PROMPT_CHARS = 200
_CHUNK = 1 << 20
# Records are encoded with their tag first, so this prefix marks a message line.
_MESSAGE_PREFIX = b'\n{"type":"message"'


class SessionInfo(msgspec.Struct, frozen=True):
    """What a session picker shows for one session."""

    session_id: str
    path: Path
    first_prompt: str
    modified: float  # mtime, seconds since the epoch
    size_bytes: int
    message_count: int


def list_sessions(paths: MewcodePaths) -> list[SessionInfo]:
    """Every session of the project with a message in it, most recently modified first.

    A file with only its header (left by an older version on open-and-quit) is no session.
    """
    folder = paths.sessions_dir
    try:
        entries = [e for e in os.scandir(folder) if e.name.endswith(".jsonl") and e.is_file()]
    except FileNotFoundError:
        return []
    infos = []
    for entry in entries:
        try:
            st = entry.stat()
            path = Path(entry.path)
            count = _count_messages(path)
            if count == 0:
                continue
            infos.append(
                SessionInfo(
                    session_id=entry.name[: -len(".jsonl")],
                    path=path,
                    first_prompt=_first_prompt(path),
                    modified=st.st_mtime,
                    size_bytes=st.st_size,
                    message_count=count,
                )
            )
        except OSError:
            continue  # removed or unreadable while listing
    infos.sort(key=lambda i: (i.modified, i.session_id), reverse=True)
    return infos


def latest_session_id(paths: MewcodePaths) -> str | None:
    """The most recently modified session of the project with a message (for ``--continue``)."""
    folder = paths.sessions_dir
    try:
        entries = [e for e in os.scandir(folder) if e.name.endswith(".jsonl") and e.is_file()]
    except FileNotFoundError:
        return None
    for entry in sorted(entries, key=lambda e: (_mtime(e), e.name), reverse=True):
        if _has_message(Path(entry.path)):
            return entry.name[: -len(".jsonl")]
    return None


def _has_message(path: Path) -> bool:
    """Whether the file holds a message line; stops at the first (usually line 2)."""
    tail = b"\n"
    keep = len(_MESSAGE_PREFIX) - 1
    try:
        with open(path, "rb") as fh:
            while chunk := fh.read(_CHUNK):
                data = tail + chunk
                if _MESSAGE_PREFIX in data:
                    return True
                tail = data[-keep:]
    except OSError:  # removed or unreadable while looking
        return False
    return False


def _mtime(entry: os.DirEntry[str]) -> float:
    try:
        return entry.stat().st_mtime
    except OSError:  # removed while listing
        return -1.0


def _first_prompt(path: Path) -> str:
    """The user's first words in the head of the file, on one line: what they typed (the
    slash command, not its expansion), without the files an @-mention attached."""
    from agent_core.attached_files import attachments_of

    typed = ""
    with open(path, "rb") as fh:
        for _ in range(_HEAD_LINES):
            line = fh.readline()
            if not line:
                break
            try:
                record = decode_record(line)
            except (msgspec.DecodeError, msgspec.ValidationError):
                continue
            if isinstance(record, PromptViewRecord):
                typed = record.shown
            elif isinstance(record, MessageRecord):
                if record.message.role == "user":
                    words, _ = attachments_of(record.message)
                    text = " ".join((typed if typed and words else " ".join(words)).split())
                    if text:
                        return text[:_PROMPT_CHARS]
                typed = ""  # it named the message that followed it only
    return ""


def _count_messages(path: Path) -> int:
    """Count message lines by scanning bytes, without decoding any JSON."""
    count = 0
    tail = b"\n"  # the first line counts as if preceded by a newline
    keep = len(_MESSAGE_PREFIX) - 1
    with open(path, "rb") as fh:
        while chunk := fh.read(_CHUNK):
            data = tail + chunk
            count += data.count(_MESSAGE_PREFIX)
            tail = data[-keep:]
    return count
