"""SessionStore: the durable, append-only record of one conversation (SPEC §9)."""

from __future__ import annotations

import datetime as _dt
import secrets
from collections.abc import Mapping
from pathlib import Path

from agent_core.config.paths import MewcodePaths
from agent_core.errors import MewCodeError
from agent_core.fsutil import ensure_dir
from agent_core.messages import Message
from agent_core.session.journal import AppendOnlyFile
from agent_core.session.loader import LoadedSession, load_session
from agent_core.session.records import (
    CompactionRecord,
    MessageRecord,
    MetaRecord,
    Record,
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


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("mewcode")
    except Exception:  # not installed (running from a checkout)
        return ""


class SessionStore:
    """Appends records to ``<sessions dir>/<id>.jsonl``, each fsynced before returning.

    Secrets (values of secret-named environment variables, ``sk-...`` keys,
    bearer tokens) are redacted from messages before they are written.
    """

    def __init__(
        self, path: Path, session_id: str, *, env: Mapping[str, str] | None = None
    ) -> None:
        self.session_id = session_id
        self.path = path
        self._file = AppendOnlyFile(path)
        self._redactor = Redactor(env, assignments=False)

    @classmethod
    def create(
        cls,
        paths: MewcodePaths,
        *,
        model: str,
        provider: str,
        env: Mapping[str, str] | None = None,
    ) -> SessionStore:
        """Start a new session file whose first line is its ``meta`` record."""
        ensure_dir(paths.sessions_dir)
        while True:
            session_id = new_session_id()
            path = paths.sessions_dir / f"{session_id}.jsonl"
            if not path.exists():
                break
        store = cls(path, session_id, env=env)
        now = utc_now()
        store.append_record(
            MetaRecord(
                ts=now,
                session_id=session_id,
                cwd=str(paths.project),
                created=now,
                model=model,
                provider=provider,
                version=_version(),
            )
        )
        return store

    @classmethod
    def open(
        cls, paths: MewcodePaths, session_id: str, *, env: Mapping[str, str] | None = None
    ) -> tuple[SessionStore, LoadedSession]:
        """Load a session and reopen it for appending.

        If the history needed closing (a crash mid-turn), the repair messages
        are appended now, so the file says what the model will see next.
        """
        path = paths.sessions_dir / f"{session_id}.jsonl"
        if not path.is_file():
            raise SessionNotFound(f"no session {session_id} in this project")
        loaded = load_session(path)
        store = cls(path, session_id, env=env)
        for msg in loaded.repaired_tail:
            store.append_message(msg)
        return store, loaded

    @property
    def dir(self) -> Path:
        """The per-session folder (tool-results/, audit.jsonl...), created on demand."""
        folder = self.path.with_suffix("")
        ensure_dir(folder)
        return folder

    def append_message(self, msg: Message) -> None:
        """Record one message of the conversation."""
        self.append_record(MessageRecord(message=self._redactor.message(msg)))

    def append_compaction(
        self, history: list[Message], tokens_before: int, tokens_after: int
    ) -> None:
        """Record the full history that replaced the old one after a summary."""
        self.append_record(
            CompactionRecord(
                history=[self._redactor.message(m) for m in history],
                tokens_before=tokens_before,
                tokens_after=tokens_after,
            )
        )

    def append_record(self, record: Record) -> None:
        """Write any record as one fsynced line."""
        self._file.append(encode_record(record))

    def close(self) -> None:
        self._file.close()
