"""Durable sessions (append-only JSONL) and the audit log."""

from agent_core.session.audit import AuditLog
from agent_core.session.journal import JournalWriteError
from agent_core.session.listing import SessionInfo, latest_session_id, list_sessions
from agent_core.session.loader import LoadedSession, SavedViews, load_session
from agent_core.session.lock import SessionLocked
from agent_core.session.records import (
    CallViewRecord,
    CompactionRecord,
    CustomRecord,
    MessageRecord,
    MetaRecord,
    Record,
    TurnEndRecord,
)
from agent_core.session.repair import history_problems, repair_history
from agent_core.session.store import SessionNotFound, SessionStore, new_session_id

__all__ = [
    "AuditLog",
    "CallViewRecord",
    "CompactionRecord",
    "CustomRecord",
    "JournalWriteError",
    "LoadedSession",
    "MessageRecord",
    "MetaRecord",
    "Record",
    "SavedViews",
    "SessionInfo",
    "SessionLocked",
    "SessionNotFound",
    "SessionStore",
    "TurnEndRecord",
    "history_problems",
    "latest_session_id",
    "list_sessions",
    "load_session",
    "new_session_id",
    "repair_history",
]
