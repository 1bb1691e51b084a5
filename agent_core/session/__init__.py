"""Durable sessions (append-only JSONL) and the audit log.

The names below load on first use, so importing one light module of the package (the
records, which the event vocabulary names) does not import the store and the loader.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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
        PromptViewRecord,
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
    "PromptViewRecord",
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


_HOMES = {
    "AuditLog": "audit",
    "CallViewRecord": "records",
    "CompactionRecord": "records",
    "CustomRecord": "records",
    "JournalWriteError": "journal",
    "LoadedSession": "loader",
    "MessageRecord": "records",
    "MetaRecord": "records",
    "PromptViewRecord": "records",
    "Record": "records",
    "SavedViews": "loader",
    "SessionInfo": "listing",
    "SessionLocked": "lock",
    "SessionNotFound": "store",
    "SessionStore": "store",
    "TurnEndRecord": "records",
    "history_problems": "repair",
    "latest_session_id": "listing",
    "list_sessions": "listing",
    "load_session": "loader",
    "new_session_id": "store",
    "repair_history": "repair",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)
