"""A ToolContext that keeps the events its tool emits, for tests of a tool on its own."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent_core.tools.base import ToolContext


@dataclass
class RecordingContext(ToolContext):
    """A ToolContext whose ``emit`` appends to ``events``."""

    events: list[Any] = field(default_factory=list)

    def __post_init__(self) -> None:
        async def emit(event: Any) -> None:
            self.events.append(event)

        self.emit = emit


def recording_context(cwd: Path, session_dir: Path, call_id: str) -> RecordingContext:
    """A fresh context in ``cwd`` that records every event it is sent."""
    return RecordingContext(cwd=cwd, session_dir=session_dir, call_id=call_id)
