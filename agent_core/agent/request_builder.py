"""Each round's request: the history (compacted first when it has outgrown the budget),
the system prompt for the current mode and the tools that mode offers."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from agent_core import events as ev
from agent_core.agent.conversation import Conversation
from agent_core.agent.prompt import OWN_PROMPT, PromptChoice, system_blocks
from agent_core.agent.tool_catalog import ToolCatalog
from agent_core.context.manager import ContextManager
from agent_core.llm.base import ChatRequest, Provider
from agent_core.modes import Mode
from agent_core.tools.base import FileStamp

RECENT_FILES = 8  # files re-read into a summary so work can go on where it was


def recent_files(file_stamps: Mapping[str, FileStamp]) -> list[Path]:
    """The files the agent touched last, newest first."""
    return [Path(p) for p in reversed(list(file_stamps)[-RECENT_FILES:])]


class ModeSource(Protocol):
    """Where the current permission mode is read (it may change mid-turn: a plan approved)."""

    @property
    def mode(self) -> Mode: ...


@dataclass
class TurnFacts:
    """What is read once at the start of a turn for its system prompt."""

    git: str
    memory: str
    overhead_tokens: int  # system prompt + tool definitions, until the provider reports usage
    chosen: list[str] = field(default_factory=list)  # blocks picked for this prompt (recall...)


@dataclass
class RequestBuilder:
    """Builds the next request of a turn; the loop calls ``next_request`` once per round."""

    conversation: Conversation
    context: ContextManager
    catalog: ToolCatalog
    session: ModeSource
    provider: Provider
    cwd: Path
    file_stamps: Mapping[str, FileStamp]
    facts: TurnFacts
    max_tokens: int
    emit: Callable[[ev.Event], Awaitable[None]]
    before_compaction: Callable[[], Awaitable[None]] | None = None  # PreCompact hooks
    choice: PromptChoice = OWN_PROMPT  # --system-prompt / --append-system-prompt

    async def next_request(self) -> ChatRequest:
        mode = self.session.mode
        await self.catalog.refresh()
        await self._compact_if_needed(self.catalog.offered_names(mode))
        extras = [b for b in (self.facts.memory, *self.facts.chosen) if b]
        return ChatRequest(
            messages=list(self.conversation.messages),
            system=system_blocks(
                self.cwd, mode, git=self.facts.git, extras=extras, choice=self.choice
            ),
            tools=self.catalog.specs(mode),
            max_tokens=self.max_tokens,
        )

    async def too_long(self, *, compact: bool) -> bool:
        """The API refused the request as too long: the context figure says full, and with
        ``compact`` the history is summarised now. True if it shrank."""
        self.context.note_too_long(self.conversation.messages)
        if not compact:
            return False
        names = self.catalog.offered_names(self.session.mode)
        return await self._compact_if_needed(names, too_long=True)

    async def _compact_if_needed(self, tool_names: list[str], *, too_long: bool = False) -> bool:
        outcome = await self.context.before_round(
            self.conversation.messages,
            provider=self.provider,
            tool_names=tool_names,
            recent_files=recent_files(self.file_stamps),
            overhead_tokens=self.facts.overhead_tokens,
            before_compaction=self.before_compaction,
            too_long=too_long,
        )
        if outcome is None:
            return False
        if outcome.compacted:
            self.conversation.replace(
                outcome.new_history, outcome.tokens_before, outcome.tokens_after
            )
            await self.emit(
                ev.Compaction(
                    layer="summary",
                    tokens_before=outcome.tokens_before,
                    tokens_after=outcome.tokens_after,
                    note=outcome.warning or "",
                )
            )
        elif outcome.warning:
            await self.emit(ev.Notice(level="warning", message=outcome.warning))
        return outcome.compacted
