"""SessionStore: the durable, append-only record of one conversation (docs/manual.md#sessions-and-context)."""

from __future__ import annotations

import datetime as _dt
import secrets
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import msgspec

from agent_core.config.paths import MewcodePaths
from agent_core.errors import MewCodeError
from agent_core.fsutil import private_dir
from agent_core.messages import Message, TextBlock, ToolResultBlock
from agent_core.session.journal import AppendOnlyFile, JournalWriteError
from agent_core.session.loader import LoadedSession, load_session
from agent_core.session.lock import SessionLock, SessionLocked, lock_path
from agent_core.session.records import (
    CallViewRecord,
    CompactionRecord,
    CustomRecord,
    MessageRecord,
    MetaRecord,
    PromptViewRecord,
    Record,
    TurnEndRecord,
    encode_record,
    utc_now,
)
from agent_core.session.redact import Redactor


class SessionNotFound(MewCodeError):
    """No session file with that id in this project."""


def new_session_id(now: _dt.datetime | None = None) -> str:
    """A sortable, unique id such as ``20261130-075612-ab12cd``."""
    now = now or _dt.datetime.now(_dt.UTC)
    return f"{now:%Y%m%d-%H%M%S}-{secrets.token_hex(3)}"


def _id_taken(chosen: str | None) -> None:
    """A chosen id already in use is refused; a made one is simply made again."""
    if chosen is not None:
        raise MewCodeError(f"--session-id {chosen}: this project has a session with that id")


def valid_session_uuid(raw: str) -> str:
    """``--session-id``: a UUID in its canonical form (it names a file), or a one-line error.

    Another spelling of a UUID is refused rather than rewritten: the app would get back a
    session id that is not the one it passed.
    """
    import uuid

    try:
        parsed = str(uuid.UUID(raw))
    except ValueError:
        raise MewCodeError(f"--session-id {raw}: expected a UUID such as {uuid.uuid4()}") from None
    if parsed == raw:
        return raw
    if parsed == raw.lower():
        raise MewCodeError(f"--session-id {raw}: expected the lowercase form {parsed}")
    raise MewCodeError(f"--session-id {raw}: expected the form {parsed} (lowercase, with hyphens)")


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("mewcode")
    except Exception:  # not installed (running from a checkout)
        return ""


class SessionStore:
    """Appends records to ``<sessions dir>/<id>.jsonl``, each fsynced before returning.

    What is written is the at-rest copy: secrets redacted (see redact.py) and
    any text over ``spill_bytes`` saved to ``tool-results/`` with a preview in
    its place. The store holds the session's lock (lock.py) until ``close``:
    one writer per session.
    """

    def __init__(
        self,
        path: Path,
        session_id: str,
        *,
        env: Mapping[str, str] | None = None,
        lock: SessionLock | None = None,
        spill_bytes: int | None = None,
        header: MetaRecord | None = None,
    ) -> None:
        self.session_id = session_id
        self.path = path
        self._lock = lock or SessionLock.acquire(path, session_id)
        # A new session (``header`` given) has no file until its first record: opening the
        # app and quitting, or /clear, must leave nothing to resume, even after a crash.
        self._header = header
        self._file: AppendOnlyFile | None = None
        if header is None:
            try:
                self._file = AppendOnlyFile(path)
            except BaseException:
                self._lock.release()
                raise
        self._redactor = Redactor(env)
        self.spill_bytes = spill_bytes  # None: the context layer's default

    @classmethod
    def create(
        cls,
        paths: MewcodePaths,
        *,
        model: str,
        provider: str,
        env: Mapping[str, str] | None = None,
        spill_bytes: int | None = None,
        forked_from: str = "",
        session_id: str | None = None,
    ) -> SessionStore:
        """Start a new session; its file, headed by the ``meta`` record, is written with the
        first record appended (a session nothing was said in leaves no file).

        ``session_id`` (a UUID a front end chose, ``--session-id``) is taken as given, or
        refused when a session of this project has it; otherwise a fresh id is made.
        """
        private_dir(paths.sessions_dir, root=paths.home)
        while True:
            chosen = session_id if session_id is not None else new_session_id()
            path = paths.sessions_dir / f"{chosen}.jsonl"
            if path.exists():
                _id_taken(session_id)
                continue
            # Locked before the file exists: nobody can pick it up half-written.
            try:
                lock = SessionLock.acquire(path, chosen)
            except SessionLocked:
                _id_taken(session_id)
                continue  # the same id, taken by another process this second
            if path.exists():
                lock.release()
                _id_taken(session_id)
                continue
            session_id = chosen
            break
        now = utc_now()
        header = MetaRecord(
            ts=now,
            session_id=session_id,
            cwd=str(paths.project),
            created=now,
            model=model,
            provider=provider,
            version=_version(),
            forked_from=forked_from,
        )
        return cls(path, session_id, env=env, lock=lock, spill_bytes=spill_bytes, header=header)

    @classmethod
    def open(
        cls,
        paths: MewcodePaths,
        session_id: str,
        *,
        env: Mapping[str, str] | None = None,
        spill_bytes: int | None = None,
    ) -> tuple[SessionStore, LoadedSession]:
        """Lock a session, load it and reopen it for appending.

        Raises SessionLocked if another process has it open. If the history
        needed closing (a crash mid-turn), the repair messages are appended
        now, so the file says what the model will see next.
        """
        path = _session_path(paths, session_id)
        private_dir(paths.sessions_dir, root=paths.home)  # tightened if an old version left it
        lock = SessionLock.acquire(path, session_id)
        try:
            loaded = load_session(path)
            store = cls(path, session_id, env=env, lock=lock, spill_bytes=spill_bytes)
        except BaseException:
            lock.release()
            raise
        # A message saved whole by an older version is not resent whole either.
        loaded.messages = [store.at_rest_size(m) for m in loaded.messages]
        for msg in loaded.repaired_tail:
            store.append_message(msg)
        return store, loaded

    @classmethod
    def fork(
        cls,
        paths: MewcodePaths,
        source_id: str,
        *,
        model: str,
        provider: str,
        env: Mapping[str, str] | None = None,
        spill_bytes: int | None = None,
    ) -> tuple[SessionStore, LoadedSession]:
        """A new session holding a copy of ``source_id``'s history (which may be in use).

        The source is only read. Its history is copied in one write, so a
        crash leaves the fork either empty or whole.
        """
        loaded = load_session(_session_path(paths, source_id))
        store = cls.create(
            paths,
            model=model,
            provider=provider,
            env=env,
            spill_bytes=spill_bytes,
            forked_from=source_id,
        )
        loaded.messages = [store.at_rest_size(m) for m in loaded.messages]
        loaded.repaired_tail = []
        store.append_records([MessageRecord(message=m) for m in loaded.messages])
        return store, loaded

    @property
    def dir(self) -> Path:
        """The per-session folder (tool-results/, audit.jsonl...), created on demand."""
        return private_dir(self.path.with_suffix(""))

    def append_message(self, msg: Message) -> None:
        """Record one message of the conversation."""
        self.append_record(MessageRecord(message=msg))

    def append_compaction(
        self, history: list[Message], tokens_before: int, tokens_after: int
    ) -> None:
        """Record the full history that replaced the old one after a summary."""
        self.append_record(
            CompactionRecord(
                history=history, tokens_before=tokens_before, tokens_after=tokens_after
            )
        )

    @property
    def written(self) -> bool:
        """The session file exists (something was recorded in this session)."""
        return self._header is None

    def append_record(self, record: Record) -> None:
        """Write any record (its at-rest copy) as one fsynced line."""
        self.append_records([record])

    def append_records(self, records: list[Record]) -> None:
        """Write several records with one write and one fsync."""
        lines = [encode_record(self._at_rest(r)) for r in records]
        if self._file is None:
            if self._header is None:
                raise JournalWriteError(f"{self.path} is closed")
            # The file is created with its header and first records in one write.
            self._file = AppendOnlyFile(self.path, exclusive=True)
            lines.insert(0, encode_record(self._header))
            self._header = None
        self._file.append_many(lines)

    def at_rest_size(self, msg: Message) -> Message:
        """The message with every text over ``spill_bytes`` saved to a file and previewed."""
        blocks = [self._shrink(b) for b in msg.content]
        if all(a is b for a, b in zip(blocks, msg.content, strict=True)):
            return msg
        return Message(role=msg.role, content=blocks)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
        elif self._header is not None:
            # Never written: take away the folder and lock made for it (nothing ran in it).
            self._header = None
            shutil.rmtree(self.path.with_suffix(""), ignore_errors=True)
            lock_path(self.path).unlink(missing_ok=True)
        self._lock.release()

    def _at_rest(self, record: Record) -> Record:
        if isinstance(record, MessageRecord):
            message = self._redactor.message(self.at_rest_size(record.message))
            return MessageRecord(ts=record.ts, message=message)
        if isinstance(record, CompactionRecord):
            history = [self._redactor.message(self.at_rest_size(m)) for m in record.history]
            return CompactionRecord(
                ts=record.ts,
                history=history,
                tokens_before=record.tokens_before,
                tokens_after=record.tokens_after,
            )
        if isinstance(record, CallViewRecord):
            # Redacted like messages; a big diff is saved to a file and previewed.
            diff = record.diff
            if diff is not None:
                diff = self._redactor.text(self._spill(diff) or diff)
            return msgspec.structs.replace(
                record,
                summary=self._redactor.text(record.summary),
                reason=self._redactor.text(record.reason),
                diff=diff,
            )
        if isinstance(record, TurnEndRecord):
            return msgspec.structs.replace(record, error=self._redactor.text(record.error))
        if isinstance(record, PromptViewRecord):
            return msgspec.structs.replace(record, shown=self._redactor.text(record.shown))
        if isinstance(record, CustomRecord):
            return CustomRecord(
                ts=record.ts, name=record.name, data=self._redactor.value(record.data)
            )
        return record

    def _shrink(self, block: Any) -> Any:
        if isinstance(block, TextBlock):
            preview = self._spill(block.text)
            return block if preview is None else TextBlock(preview)
        if isinstance(block, ToolResultBlock) and isinstance(block.content, str):
            preview = self._spill(block.content)
            if preview is None:
                return block
            return ToolResultBlock(block.tool_use_id, preview, block.is_error)
        return block

    def _spill(self, text: str) -> str | None:
        # Imported here: the context layer imports this package (journal, redact).
        from agent_core.context.spill import DEFAULT_SPILL_BYTES, spill_message_text

        limit = self.spill_bytes or DEFAULT_SPILL_BYTES
        if len(text) <= limit // 4:
            return None  # under the limit whatever its characters (at most 4 bytes each)
        return spill_message_text(self.dir, text, limit=limit, redactor=self._redactor)


def _session_path(paths: MewcodePaths, session_id: str) -> Path:
    path = paths.sessions_dir / f"{session_id}.jsonl"
    if "/" in session_id or not path.is_file():
        raise SessionNotFound(f"no session {session_id} in this project")
    return path
