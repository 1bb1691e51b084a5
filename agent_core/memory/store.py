"""The long-term memory database: ``MEWCODE_HOME/memory.db`` (SQLite, WAL; docs/configuration.md#long-term-memory).

Opened on first use, from whichever thread asks first: one connection shared
under a lock. A file that is not a usable memory database turns memory off for
the session with a one-line ``problem``; the file is never rewritten.
A fact is stored redacted, like everything else under MEWCODE_HOME (docs/security.md#secrets-at-rest).
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from agent_core.fsutil import open_private, private_dir
from agent_core.memory.recall import Fact, content_hash, to_evict
from agent_core.session.redact import Redactor

log = logging.getLogger("mewcode.memory")

SCHEMA_VERSION = 1
DEFAULT_CAP = 1_000
_SCHEMA = """
CREATE TABLE IF NOT EXISTS facts (
    id INTEGER PRIMARY KEY,
    scope TEXT NOT NULL,
    content TEXT NOT NULL,
    hash TEXT NOT NULL,
    importance REAL NOT NULL DEFAULT 0.5,
    confidence REAL NOT NULL DEFAULT 1.0,
    access_count INTEGER NOT NULL DEFAULT 0,
    created_at REAL NOT NULL,
    last_access_at REAL,
    expires_at REAL,
    UNIQUE (scope, hash)
);
CREATE INDEX IF NOT EXISTS facts_scope ON facts (scope);
"""
OPEN_ATTEMPTS = 8  # about 0.7 s of retries in all
_COLUMNS = (
    "id, scope, content, importance, confidence, access_count, created_at, last_access_at,"
    " expires_at"
)


class MemoryUnavailable(Exception):
    """Long-term memory is off for this session; the message says why, naming the file."""


@dataclass(frozen=True)
class Added:
    """What storing a fact did: its id, whether it was new, and whether a secret was taken out."""

    id: int
    new: bool
    redacted: bool = False


class MemoryStore:
    """Facts in one SQLite file, shared by every project (rows carry their scope)."""

    def __init__(
        self,
        path: Path,
        clock: Callable[[], float] = time.time,
        cap: int = DEFAULT_CAP,
        redactor: Redactor | None = None,
    ) -> None:
        self.path = path
        self.clock = clock
        self.cap = cap
        self._redactor = redactor or Redactor()
        self.problem: str | None = None
        self._conn: sqlite3.Connection | None = None
        self._lock = threading.Lock()

    # --- opening ------------------------------------------------------------

    def _connection(self) -> sqlite3.Connection:
        if self.problem is not None:
            raise MemoryUnavailable(self.problem)
        if self._conn is None:
            self._conn = self._open()
        return self._conn

    def _open(self) -> sqlite3.Connection:
        # Two processes opening a new file at once can find it locked while one of them
        # switches it to WAL (the busy timeout does not cover that): a few short retries.
        for attempt in range(OPEN_ATTEMPTS):
            try:
                return self._open_once()
            except MemoryUnavailable:
                if self.problem is not None or attempt == OPEN_ATTEMPTS - 1:
                    raise
                time.sleep(0.02 * (attempt + 1))
        raise AssertionError("unreachable")

    def _open_once(self) -> sqlite3.Connection:
        private_dir(self.path.parent)
        # Facts may be sensitive: 0600, and SQLite gives the -wal and -shm files the same mode.
        os.close(open_private(self.path, os.O_RDONLY))
        conn = sqlite3.connect(
            self.path, timeout=5.0, isolation_level=None, check_same_thread=False
        )
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise sqlite3.DatabaseError(f"schema version {version} is newer than this MewCode")
            conn.execute("PRAGMA journal_mode=WAL")
            # In WAL, NORMAL cannot corrupt the file; a power cut may lose the last recall counts.
            conn.execute("PRAGMA synchronous=NORMAL")
            if version < SCHEMA_VERSION:
                conn.executescript(
                    f"BEGIN; {_SCHEMA} PRAGMA user_version={SCHEMA_VERSION}; COMMIT;"
                )
            conn.execute(
                "DELETE FROM facts WHERE expires_at IS NOT NULL AND expires_at <= ?",
                (self.clock(),),
            )
        except sqlite3.OperationalError as exc:  # busy or locked: try again on the next use
            conn.close()
            raise MemoryUnavailable(f"{self.path}: {exc}") from None
        except sqlite3.Error as exc:
            conn.close()
            self._disable(exc)
        return conn

    def _disable(self, exc: sqlite3.Error) -> None:
        self.problem = (
            f"{self.path}: {exc}; long-term memory is off for this session (the file is left as is)"
        )
        self._conn = None
        log.warning(self.problem)
        raise MemoryUnavailable(self.problem)

    def _run(self, work: Callable[[sqlite3.Connection], object]) -> object:
        with self._lock:
            conn = self._connection()
            try:
                return work(conn)
            except sqlite3.OperationalError as exc:  # busy or locked: this call fails, not memory
                raise MemoryUnavailable(f"{self.path}: {exc}") from None
            except sqlite3.DatabaseError as exc:
                conn.close()
                self._disable(exc)
                raise  # not reached: _disable raises

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    # --- reading and writing --------------------------------------------------

    def add(
        self,
        scope: str,
        content: str,
        *,
        importance: float = 0.5,
        confidence: float = 1.0,
        ttl_seconds: int | None = None,
    ) -> Added:
        """Store a fact in ``scope``, redacted; an equal fact (same normalised hash) is left as it is."""
        now = self.clock()
        expires = now + ttl_seconds if ttl_seconds else None
        text = content.strip()
        stored = self._redactor.text(text)
        redacted = stored != text
        digest = content_hash(stored)

        def work(conn: sqlite3.Connection) -> Added:
            conn.execute("BEGIN IMMEDIATE")
            try:
                row = conn.execute(
                    "SELECT id FROM facts WHERE scope = ? AND hash = ?", (scope, digest)
                ).fetchone()
                if row is not None:
                    conn.execute("COMMIT")
                    return Added(row[0], new=False, redacted=redacted)
                cursor = conn.execute(
                    "INSERT INTO facts (scope, content, hash, importance, confidence, created_at,"
                    " expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (scope, stored, digest, importance, confidence, now, expires),
                )
                new_id = int(cursor.lastrowid or 0)
                self._evict_over_cap(conn, keep=new_id)
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            return Added(new_id, new=True, redacted=redacted)

        result = self._run(work)
        assert isinstance(result, Added)
        return result

    def _evict_over_cap(self, conn: sqlite3.Connection, keep: int) -> None:
        (count,) = conn.execute("SELECT COUNT(*) FROM facts").fetchone()
        if count <= self.cap:
            return
        rows = [_fact(r) for r in conn.execute(f"SELECT {_COLUMNS} FROM facts")]
        doomed = to_evict(rows, self.cap, keep=keep)
        conn.executemany("DELETE FROM facts WHERE id = ?", [(i,) for i in doomed])

    def facts(self, scopes: Iterable[str]) -> list[Fact]:
        """The unexpired facts of ``scopes``, newest first."""
        wanted = list(scopes)
        marks = ", ".join("?" * len(wanted))

        def work(conn: sqlite3.Connection) -> list[Fact]:
            rows = conn.execute(
                f"SELECT {_COLUMNS} FROM facts WHERE scope IN ({marks})"
                " AND (expires_at IS NULL OR expires_at > ?) ORDER BY created_at DESC, id DESC",
                (*wanted, self.clock()),
            )
            return [_fact(r) for r in rows]

        result = self._run(work)
        assert isinstance(result, list)
        return result

    def touch(self, ids: Iterable[int]) -> None:
        """Count a recall of each fact in ``ids``."""
        now = self.clock()
        rows = [(now, i) for i in ids]
        if rows:
            self._run(lambda conn: _in_transaction(conn, _TOUCH, rows))

    def delete(self, fact_id: int, scopes: Iterable[str]) -> bool:
        """Delete fact ``fact_id`` if it is in one of ``scopes``; False when there is none."""
        wanted = list(scopes)
        marks = ", ".join("?" * len(wanted))
        cursor = self._run(
            lambda conn: conn.execute(
                f"DELETE FROM facts WHERE id = ? AND scope IN ({marks})", (fact_id, *wanted)
            )
        )
        assert isinstance(cursor, sqlite3.Cursor)
        return cursor.rowcount > 0


_TOUCH = "UPDATE facts SET access_count = access_count + 1, last_access_at = ? WHERE id = ?"


def _in_transaction(conn: sqlite3.Connection, sql: str, rows: list[tuple[float, int]]) -> None:
    with conn:  # one commit for all the rows, not one each
        conn.execute("BEGIN")
        conn.executemany(sql, rows)


def _fact(row: tuple) -> Fact:
    return Fact._make(row)
