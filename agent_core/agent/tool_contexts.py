"""The context each tool call runs in, made from what the session shares."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from agent_core import events as ev
from agent_core.tools.base import FileStamp, ToolContext
from agent_core.tools.session_state import SessionToolState


@dataclass
class SessionToolContexts:
    """One turn's contexts: the session's files, stamps and tool state, the turn's event sink."""

    cwd: Path
    session_dir: Path
    emit: Callable[[ev.Event], Awaitable[None]]
    file_stamps: dict[str, FileStamp]
    state: SessionToolState

    def for_call(self, call_id: str) -> ToolContext:
        return ToolContext(
            cwd=self.cwd,
            session_dir=self.session_dir,
            call_id=call_id,
            emit=self.emit,
            file_stamps=self.file_stamps,
            state=self.state,
        )
