"""Long-term memory in a real SQLite file under a temp MEWCODE_HOME (docs/configuration.md#long-term-memory)."""

from __future__ import annotations

import logging
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from agent_core.config.paths import MewcodePaths
from agent_core.memory.long_term import LongTermMemory
from agent_core.memory.recall_context import MemoryRecall
from agent_core.memory.store import MemoryStore, MemoryUnavailable


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


class LogLines(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


def memory_for(home: Path, project: Path, clock: Clock | None = None) -> LongTermMemory:
    project.mkdir(parents=True, exist_ok=True)
    return LongTermMemory(MewcodePaths(home, project.resolve()), clock or Clock())


def test_the_file_is_wal_versioned_and_private(mewcode_home: Path, project: Path) -> None:
    memory = memory_for(mewcode_home, project)
    memory.remember("the staging DB is on port 5433")
    files = sorted(p.name for p in mewcode_home.glob("memory.db*"))
    assert files == ["memory.db", "memory.db-shm", "memory.db-wal"]
    assert {oct(stat.S_IMODE(p.stat().st_mode)) for p in mewcode_home.glob("memory.db*")} == {
        "0o600"
    }
    conn = sqlite3.connect(mewcode_home / "memory.db")
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1


def test_a_secret_in_a_fact_is_stored_redacted(mewcode_home: Path, project: Path) -> None:
    token = "gh" + "p_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    memory = memory_for(mewcode_home, project)
    added = memory.remember(f"the CI token is {token}")
    plain = memory.remember("the staging DB is on port 5433")
    again = memory.remember(f"The CI token is {token}.")
    assert added.redacted and not plain.redacted and again.id == added.id and again.redacted
    assert [f.content for f in memory.listing()][-1] == "the CI token is [REDACTED]"
    memory.close()
    for path in mewcode_home.glob("memory.db*"):
        assert token.encode() not in path.read_bytes(), path.name


def test_a_duplicate_returns_the_existing_id_per_scope(mewcode_home: Path, project: Path) -> None:
    memory = memory_for(mewcode_home, project)
    first = memory.remember("The staging DB is on port 5433.")
    again = memory.remember("  the staging db is on PORT 5433 ")
    elsewhere = memory.remember("the staging DB is on port 5433", "global")
    assert first.new and not again.new and again.id == first.id
    assert elsewhere.new and elsewhere.id != first.id
    assert [f.content for f in memory.listing()] == [
        "the staging DB is on port 5433",
        "The staging DB is on port 5433.",
    ]


def test_scopes_a_project_fact_stays_in_its_project(mewcode_home: Path, tmp_path: Path) -> None:
    one = memory_for(mewcode_home, tmp_path / "one")
    two = memory_for(mewcode_home, tmp_path / "two")
    one.remember("the staging DB is on port 5433")
    one.remember("I prefer tabs over spaces", "global")
    assert [f.content for f in two.listing()] == ["I prefer tabs over spaces"]
    assert two.recall("which port is the staging db on") == []
    assert [f.content for f in two.recall("tabs or spaces?")] == ["I prefer tabs over spaces"]
    project_fact = next(f for f in one.listing() if f.scope != "global")
    assert not two.delete(project_fact.id)  # another project's fact is not this one's to delete
    assert one.delete(project_fact.id)
    assert [f.content for f in one.listing()] == ["I prefer tabs over spaces"]


def test_recall_counts_the_access(mewcode_home: Path, project: Path) -> None:
    clock = Clock()
    memory = memory_for(mewcode_home, project, clock)
    memory.remember("the staging DB is on port 5433")
    clock.now += 60
    block = MemoryRecall(memory).block_for("which port is the staging db on")
    assert block.endswith("\n- the staging DB is on port 5433")
    (row,) = memory.listing()
    assert row.access_count == 1 and row.last_access_at == clock.now


def test_ttl_expires_and_is_purged_on_open(mewcode_home: Path, project: Path) -> None:
    clock = Clock()
    memory = memory_for(mewcode_home, project, clock)
    memory.remember("the demo server is up at demo.example", ttl_seconds=3_600)
    memory.remember("the staging DB is on port 5433")
    clock.now += 3_599
    assert len(memory.listing()) == 2
    clock.now += 1
    assert [f.content for f in memory.listing()] == ["the staging DB is on port 5433"]
    assert memory.recall("is the demo server up") == []
    memory.close()
    memory_for(mewcode_home, project, clock).listing()  # the next session's open purges it
    (count,) = (
        sqlite3.connect(mewcode_home / "memory.db").execute("SELECT COUNT(*) FROM facts").fetchone()
    )
    assert count == 1


def test_the_cap_evicts_lowest_importance_then_confidence_then_access(tmp_path: Path) -> None:
    clock = Clock()
    store = MemoryStore(tmp_path / "memory.db", clock, cap=4)
    ids = {
        "keep-important": store.add("p", "a", importance=0.9).id,
        "low-confidence": store.add("p", "b", importance=0.5, confidence=0.3).id,
        "used": store.add("p", "c", importance=0.5).id,
        "unused": store.add("p", "d", importance=0.5).id,
    }
    store.touch([ids["used"]])
    added = store.add("p", "e", importance=0.1)  # over the cap; the new fact is spared
    left = {f.id for f in store.facts(["p"])}
    assert left == {ids["keep-important"], ids["used"], ids["unused"], added.id}
    f = store.add("p", "f", importance=0.5).id  # e (importance 0.1) goes now
    assert {x.id for x in store.facts(["p"])} == {
        ids["keep-important"],
        ids["used"],
        ids["unused"],
        f,
    }
    clock.now += 1
    g = store.add("p", "g", importance=0.5).id  # then the unused one, older than f
    assert {x.id for x in store.facts(["p"])} == {ids["keep-important"], ids["used"], f, g}


def test_a_thousand_facts_then_the_cap(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path / "memory.db", Clock())
    for i in range(1_000):
        store.add("p", f"fact number {i}", importance=0.5 if i else 0.1)
    store.add("p", "one too many")
    contents = {f.content for f in store.facts(["p"])}
    assert len(contents) == 1_000 and "fact number 0" not in contents


def test_two_processes_write_at_once(mewcode_home: Path, project: Path) -> None:
    script = (
        "import sys; from pathlib import Path\n"
        "from agent_core.memory.store import MemoryStore\n"
        "s = MemoryStore(Path(sys.argv[1]))\n"
        "for i in range(200): s.add('p', f'{sys.argv[2]} fact {i}')\n"
    )
    db = str(mewcode_home / "memory.db")
    procs = [
        subprocess.Popen([sys.executable, "-c", script, db, name], stderr=subprocess.PIPE)
        for name in ("left", "right")
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err.decode()
    assert len(MemoryStore(mewcode_home / "memory.db").facts(["p"])) == 400


@pytest.mark.parametrize(
    "junk", [b"this is not a database at all\n" * 40, b"SQLite format 3\x00" + b"\xff" * 4_000]
)
def test_a_corrupt_file_turns_memory_off_and_is_left_as_is(
    mewcode_home: Path, project: Path, junk: bytes
) -> None:
    db = mewcode_home / "memory.db"
    db.write_bytes(junk)
    memory = memory_for(mewcode_home, project)
    logged = LogLines()
    logger = logging.getLogger("mewcode.memory")
    logger.addHandler(logged)  # the app's debug log may stop propagation: listen here
    try:
        assert MemoryRecall(memory).block_for("which port is the staging db on") == ""
    finally:
        logger.removeHandler(logged)
    problem = memory.problem
    assert problem is not None and str(db) in problem and "\n" not in problem
    assert "off for this session" in problem
    assert logged.lines == [problem]
    with pytest.raises(MemoryUnavailable, match="off for this session"):
        memory.remember("the staging DB is on port 5433")
    assert db.read_bytes() == junk
