"""What the tools of one session share: limits, the OS sandbox, background shells, todos.

The runtime makes one ``SessionToolState`` per runtime and hands it to every
ToolContext. The sandbox policy is replaced when the session changes
(/clear, /resume); background shells are killed by ``close`` at the end.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import msgspec

from agent_core.net.web_access import WebAccess
from agent_core.sandbox.policy import SandboxPolicy
from agent_core.skills.buffer import SkillBuffer
from agent_core.skills.loader import SkillLibrary
from agent_core.tools.shells import ShellRegistry

if TYPE_CHECKING:
    from agent_core.memory.long_term import LongTermMemory

DEFAULT_TIMEOUT_MS = 120_000
DEFAULT_OUTPUT_CHARS = 30_000

ExecOutcome = Literal["exited", "timed_out", "cancelled", "background"]


class ExecRecord(msgspec.Struct):
    """What one Bash call ran and how it ended, for the audit log."""

    command: str
    exit_code: int | None  # None: killed before exiting, or still running in the background
    duration_ms: int
    outcome: ExecOutcome


@dataclass
class SessionToolState:
    """Per-session state and limits the tools read; one per runtime, passed in every ToolContext."""

    bash_output_chars: int = DEFAULT_OUTPUT_CHARS
    bash_timeout_ms: int = DEFAULT_TIMEOUT_MS
    withheld_env: tuple[str, ...] = ()  # variables commands never see (the session's API key)
    command_env: dict[str, str] = field(default_factory=dict)  # the settings' env for commands
    sandbox_policy: SandboxPolicy | None = None  # None runs commands unconfined
    web: WebAccess = field(default_factory=WebAccess)  # what WebFetch may reach
    shells: ShellRegistry = field(default_factory=ShellRegistry)
    todos: list[dict[str, Any]] = field(default_factory=list)
    execs: dict[str, ExecRecord] = field(default_factory=dict)  # by call id, until taken
    sandbox_findings: list[str] = field(default_factory=list)  # see take_sandbox_findings
    memory: LongTermMemory | None = None  # long-term facts (Remember); None: no memory
    skill_library: SkillLibrary | None = None  # None: no skills (the Skill tool finds none)
    skill_buffer: SkillBuffer = field(default_factory=SkillBuffer)  # bodies for the next round

    def take_exec_fields(self, call_id: str) -> dict[str, Any]:
        """The record a call left, as audit-log fields ({} if none); removed, so the table
        does not grow for the whole session."""
        record = self.execs.pop(call_id, None)
        return msgspec.structs.asdict(record) if record is not None else {}

    def take_sandbox_findings(self) -> list[str]:
        """What the sandbox's guard undid since the last call (commands and shells that
        ended), one line each; taken, so each is told once."""
        found = [*self.sandbox_findings, *self.shells.findings]
        self.sandbox_findings.clear()
        self.shells.findings.clear()
        return found

    async def close(self) -> None:
        """Kill the session's background shells still running."""
        await self.shells.close_all()
        if self.memory is not None:
            self.memory.close()
