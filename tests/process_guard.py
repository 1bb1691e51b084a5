"""Tiers: a test that starts a process, tmux or a server is marked ``slow``.

``make check`` runs the rest (``-m "not slow"``) for a fast inner loop; ``make test`` runs
everything. The marking is checked, not trusted: every process a test starts is
recorded, and a test not marked slow that starts one fails, naming the command. Tests
under tests/integration and tests that use the fake LLM server are slow by place.
"""

from __future__ import annotations

import os
import subprocess
import threading
from collections.abc import Callable
from typing import Any

import pytest

SLOW_FIXTURES = frozenset({"fake_llm"})  # a server in a thread, and usually a mewcode process
_lock = threading.Lock()
_started: list[str] = []


def _note(what: object) -> None:
    with _lock:
        _started.append(str(what)[:120])


def install() -> None:
    """Record every process started in this interpreter (subprocess, fork, posix_spawn)."""
    execute_child = subprocess.Popen._execute_child  # type: ignore[attr-defined]

    def recording_execute_child(self: subprocess.Popen[Any], args: Any, *rest: Any) -> Any:
        _note(args)
        return execute_child(self, args, *rest)

    subprocess.Popen._execute_child = recording_execute_child  # type: ignore[attr-defined]
    for name in ("fork", "posix_spawn", "posix_spawnp"):
        original: Callable[..., Any] | None = getattr(os, name, None)
        if original is not None:
            setattr(os, name, _recording(name, original))


def _recording(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
    def call(*args: Any, **kwargs: Any) -> Any:
        _note(f"os.{name}{args[:1]}")
        return original(*args, **kwargs)

    return call


def slow_by_place(item: pytest.Item) -> bool:
    return "integration" in item.path.parts or bool(SLOW_FIXTURES & set(item.fixturenames))


def started_since(mark: int) -> list[str]:
    with _lock:
        return _started[mark:]


def mark() -> int:
    with _lock:
        return len(_started)
