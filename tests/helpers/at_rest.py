"""Searching everything under a MEWCODE_HOME for secrets: every byte, and every SQLite row."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

SQLITE_MAGIC = b"SQLite format 3\x00"
# Limits under which the 8 `cat`s of secret_reading_steps (80 KB) spill in both the
# Bash capture and the context layer, while the Read of the file (12 KB) stays inline.
SPILLING_LIMITS = "limits:\n  bash_output_chars: 20000\n  spill_bytes: 16000\n"


def needles(values: list[str]) -> list[bytes]:
    """Each secret as it could appear in a file: raw, JSON-escaped, and line by line."""
    out: set[bytes] = set()
    for value in values:
        for part in [value, *value.splitlines()]:
            if len(part) >= 8:
                out.add(part.encode())
                out.add(json.dumps(part)[1:-1].encode())
    return sorted(out)


def walk(home: Path) -> tuple[list[Path], list[Path]]:
    """Every file and every directory under ``home`` (``home`` itself among the directories)."""
    files, dirs = [], [home]
    for root, dirnames, filenames in os.walk(home):
        dirs += [Path(root, d) for d in dirnames]
        files += [Path(root, f) for f in filenames]
    return files, dirs


def readable_copies(path: Path) -> list[bytes]:
    """The file's bytes and, for a SQLite database, its rows as text (read-only)."""
    data = path.read_bytes()
    if not data.startswith(SQLITE_MAGIC):
        return [data]
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        dump = "\n".join(conn.iterdump())
    finally:
        conn.close()
    return [data, dump.encode("utf-8", "surrogatepass")]


def secrets_found(home: Path, secrets: list[str]) -> list[str]:
    """``relative path: secret`` for each secret found in a file under ``home``."""
    wanted = needles(secrets)
    found = []
    for path in walk(home)[0]:
        copies = readable_copies(path)
        found += [
            f"{path.relative_to(home)}: {n[:24]!r}" for n in wanted if any(n in c for c in copies)
        ]
    return found


def secret_reading_steps(thinking: str) -> list[dict]:
    """Fake-model steps that put ``secrets.txt`` through every tool writer of a session.

    It thinks ``thinking`` (signed) and Reads the file, then `cat`s it 8 times
    (under SPILLING_LIMITS it spills in both the Bash capture and the context
    layer), then `cat`s it in a background shell.
    """
    copies = " ".join(["secrets.txt"] * 8)
    return [
        {
            "thinking": thinking,
            "signature": "sig-thinking-1",
            "tool_calls": [{"id": "r1", "name": "Read", "input": {"file_path": "secrets.txt"}}],
        },
        {"tool_calls": [{"id": "b1", "name": "Bash", "input": {"command": f"cat {copies}"}}]},
        {
            "tool_calls": [
                {
                    "id": "b2",
                    "name": "Bash",
                    "input": {"command": "cat secrets.txt", "run_in_background": True},
                }
            ]
        },
    ]
