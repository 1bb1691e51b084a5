"""Slash commands: the registry and what a command may ask of the screen (docs/manual.md#the-full-screen-ui).

Four kinds: ``local`` (answers from local state: /help, /cost), ``ui`` (changes
UI or session state: /mode, /clear), ``prompt`` (injects a prompt for the
model: /review, custom Markdown commands) and ``skill`` (one per skill).
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar

from agent_core.command_text import parse_invocation
from agent_core.errors import MewCodeError
from agent_core.modes import Mode
from agent_core.protocol.ops import Op, op_tag

if TYPE_CHECKING:
    from pathlib import Path

    from textual.app import App

    from mewcode_tui.session_client import SessionClient
    from mewcode_tui.transcript import Transcript
    from mewcode_tui.widgets.chat_log import ChatLog
    from mewcode_tui.widgets.status_bar import StatusBar

CommandKind = Literal["local", "ui", "prompt", "skill"]
Answer = TypeVar("Answer")


class UserFiles(Protocol):
    """Where the user's own files are (``MEWCODE_HOME``): what /theme and /mcp name."""

    @property
    def home(self) -> Path: ...

    @property
    def user_settings(self) -> Path: ...


class CommandHost(Protocol):
    """The screen as commands see it."""

    @property
    def session(self) -> SessionClient | None:
        """The session (ops in, events out), or None while it starts."""
        ...

    @property
    def paths(self) -> UserFiles: ...

    @property
    def registry(self) -> CommandRegistry: ...

    @property
    def app(self) -> App[Any]: ...

    @property
    def transcript(self) -> Transcript: ...

    @property
    def chat(self) -> ChatLog: ...

    @property
    def status(self) -> StatusBar: ...

    @property
    def busy(self) -> bool:
        """A turn or an exclusive command (``run_exclusive``) holds the session."""
        ...

    def run_worker(
        self, work: Coroutine[Any, Any, None], *, group: str = "default", exclusive: bool = False
    ) -> object: ...

    def say(self, text: str, level: Literal["info", "warning", "error"] = "info") -> None:
        """Show a line (or a few) in the chat pane."""

    async def send_prompt(self, prompt: str, shown: str | None = None) -> None:
        """Start a turn with ``prompt``; ``shown`` is what the chat displays instead."""

    async def set_mode(self, mode: Mode) -> bool:
        """Ask the session for ``mode``; False (the refusal said) when it is refused."""
        ...

    async def clear_conversation(self) -> None: ...

    async def show_history(self, *, keep: bool = False) -> None:
        """Show the session's conversation (after a resume) in place of the chat pane's."""

    def refresh_status(self) -> None: ...

    def run_exclusive(self, work: Coroutine[Any, Any, None], phase: str) -> None:
        """Run ``work`` with the session held: prompts typed meanwhile queue until it ends."""


Handler = Callable[[CommandHost, str], Awaitable[None] | None]


async def ask(session: SessionClient, op: Op, kind: type[Answer]) -> Answer:
    """``session.request(op)``, its answer held to be a ``kind``; a refusal raises
    OpRefusedError (its message is the session's one-line reason)."""
    answer = await session.request(op)
    if not isinstance(answer, kind):  # the host answers each op with one kind: a bug
        raise MewCodeError(f"{op_tag(op)} was answered by {type(answer).__name__}")
    return answer


@dataclass(frozen=True)
class SlashCommand:
    """One `/name` command."""

    name: str
    kind: CommandKind
    description: str
    handler: Handler
    usage: str = ""


def parse_command(text: str) -> tuple[str, str] | None:
    """'/name rest of line' -> ('name', 'rest of line'); None if not a command."""
    return parse_invocation(text)


class CommandRegistry:
    """Commands by name; later registrations replace earlier ones of the same name."""

    def __init__(self) -> None:
        self._commands: dict[str, SlashCommand] = {}
        self.shadowed: list[str] = []  # custom commands left out: a built-in has the name
        self.notices: list[str] = []  # about custom command files (front matter not applied)
        self.skills = 0  # skills installed, a shadowed one too (the status bar counts them)

    def register(self, command: SlashCommand) -> None:
        self._commands[command.name] = command

    def get(self, name: str) -> SlashCommand | None:
        return self._commands.get(name)

    def all(self) -> list[SlashCommand]:
        return sorted(self._commands.values(), key=lambda c: c.name)

    def choices(self) -> list[tuple[str, str]]:
        """(name, description) pairs, for completion and the palette."""
        return [(c.name, c.description) for c in self.all()]

    def __contains__(self, name: str) -> bool:
        return name in self._commands

    async def dispatch(self, host: CommandHost, text: str) -> bool:
        """Run the command in ``text``; False when ``text`` is not a command at all."""
        parsed = parse_command(text)
        if parsed is None:
            return False
        name, args = parsed
        command = self._commands.get(name)
        if command is None:
            host.say(f"Unknown command /{name} — type /help for the list.", "warning")
            return True
        result = command.handler(host, args)
        if inspect.isawaitable(result):
            await result
        return True
