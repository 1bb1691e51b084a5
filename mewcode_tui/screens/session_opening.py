"""The main screen's start: trust, first-run setup, the provider and the runtime.

The steps run after the first frame (docs/architecture.md#start-up): the trust dialog for an
untrusted project, the setup screen on a first run, then a worker that
builds the provider (its SDK import in a thread) and opens the session.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Literal

from textual import work
from textual.message import Message
from textual.screen import Screen

from agent_core.errors import MewCodeError
from mewcode_tui.session_start import (
    TuiOptions,
    build_provider,
    choose_session,
    open_runtime,
    options_after_setup,
)
from mewcode_tui.transcript import NoticeEntry, Transcript, transcript_from_history
from mewcode_tui.widgets.status_bar import short_path

if TYPE_CHECKING:
    from agent_core.agent.session_api import RuntimeSession
    from agent_core.events import Event
    from agent_core.llm.base import Provider
    from agent_core.protocol.host import SessionHost
    from mewcode_tui.commands.registry import CommandRegistry
    from mewcode_tui.completion import FileIndex
    from mewcode_tui.screens.setup import SetupChoice
    from mewcode_tui.session_client import SessionClient
    from mewcode_tui.widgets.chat_log import ChatLog
    from mewcode_tui.widgets.status_bar import StatusBar

log = logging.getLogger("mewcode.tui")

RuntimeOpener = Callable[[TuiOptions, "Provider"], Awaitable["RuntimeSession"]]


class SessionOpeningScreen(Screen):
    """A screen that opens a session once it is shown; MainScreen runs its turns."""

    class SessionOpened(Message):
        """The session is open and idle: prompts typed while it started may go."""

    # Made by the main screen (compose, on_mount, __init__).
    chat: ChatLog
    status: StatusBar
    transcript: Transcript

    def __init__(
        self,
        options: TuiOptions,
        *,
        provider: Provider | None = None,
        opener: RuntimeOpener | None = None,
    ) -> None:
        super().__init__()
        self.options = options
        self.paths = options.paths
        self.settings = options.settings
        self.provider = provider
        self.opener = opener or self._open_runtime
        self.runtime: RuntimeSession | None = None
        self.host: SessionHost | None = None  # owns the runtime once it is open
        self.session: SessionClient | None = None  # the host as the screen and commands use it
        self.mode = options.mode
        self._registry: CommandRegistry | None = None
        self._open_told = False  # the session's stream has told its opening
        self._files: FileIndex | None = None
        self._env: dict[str, str] | None = None  # the environment with a key from setup

    async def _open_runtime(self, options: TuiOptions, provider: Provider) -> RuntimeSession:
        # The environment carries a key typed in the setup screen (for /model too).
        return await open_runtime(options, provider, self._env)

    def load_commands(self) -> CommandRegistry:
        """Built-in, custom and skill commands as on disk now, before the session answers
        (completion at start-up); the status bar counts skills."""
        from agent_core.protocol.queries import custom_commands, installed_skills
        from mewcode_tui.commands import build_registry

        skills = installed_skills(self.paths)
        self.status.skills = len(skills.skills)
        return build_registry(custom_commands(self.paths), skills)

    async def load_session_commands(self) -> CommandRegistry:
        """The commands as the open session lists them; the status bar counts skills."""
        from mewcode_tui.commands import session_registry

        assert self.session is not None
        registry = await session_registry(self.session)
        self.status.skills = registry.skills
        return registry

    async def show_history(self) -> None:
        """Show the runtime's conversation in place of the chat pane's (after a resume)."""
        assert self.runtime is not None
        restored = transcript_from_history(self.runtime.history, self.runtime.saved_views)
        self.transcript.clear()
        self.transcript.prepend(restored)
        await self.chat.reload()

    def say_command_notices(self, registry: CommandRegistry) -> None:
        """What the custom command files did not get, said once a session."""
        if registry.shadowed:
            names = ", ".join(f"/{n}" for n in registry.shadowed)
            self.say(f"Custom commands not loaded (a built-in has the name): {names}", "warning")
        for notice in registry.notices:
            self.say(notice, "warning")

    def begin(self) -> None:
        """Ask whether to trust an untrusted project, then for a provider on first run; start."""
        if self.options.ask_trust:
            from mewcode_tui.screens.trust import trust_screen

            self.status.phase = "trust"
            self.app.push_screen(trust_screen(self.paths, self.options.settings), self._trusted)
        elif self.provider is None and self.options.needs_setup:
            from mewcode_tui.screens.setup import SetupScreen

            self.status.phase = "setup"
            self.app.push_screen(SetupScreen(), self._setup_chosen)
        else:
            self.start_session()

    def _trusted(self, answer: str | None) -> None:
        from mewcode_tui.session_start import trust_project

        if answer == "quit":
            self.app.exit(0)
            return
        if answer == "trust":
            self.options, notes = trust_project(self.options, self._env)
            for note in notes:
                self.say(note, "warning")
        elif self.options.settings.project_trusted:
            self.options = replace(self.options, ask_trust=False)
            self.say("Not now: the new and changed hooks and MCP servers do not run this time.")
        else:
            self.options = replace(self.options, ask_trust=False)
            self.say("Not trusted: this folder's settings only make things stricter this time.")
        self.settings = self.options.settings
        self.mode = self.status.mode = self.options.mode
        self.status.model = self.options.model or ""
        self.begin()

    def _setup_chosen(self, choice: SetupChoice | None) -> None:
        from mewcode_tui.screens.setup import apply_setup

        if choice is None:
            self.app.exit(1)
            return
        try:
            apply_setup(choice, self.paths)
        except (OSError, MewCodeError) as exc:
            self.say(f"Your choice was not saved: {exc}", "warning")
        self.options, self._env = options_after_setup(self.options, choice)
        # The demo runs in a scratch copy: everything tied to the folder follows it.
        self.paths, self.settings = self.options.paths, self.options.settings
        self.status.cwd = short_path(self.options.cwd)
        self._files, self._registry = None, None
        if choice.api_key:
            self.say(
                f"Saved provider {choice.provider} in {self.paths.user_settings}; the key is in "
                "credentials.yaml. You can also export it in your shell profile instead."
            )
        self.start_session()

    @work(group="start", exclusive=True)
    async def start_session(self) -> None:
        """Create the provider (SDK import in a thread) and open the runtime."""
        try:
            if self.options.resume_id == "":  # `--resume` without an id: ask which
                self.options = await choose_session(self)
            provider = self.provider
            if provider is None:
                provider = await asyncio.to_thread(build_provider, self.options, self._env)
            self.provider = provider
            self.warm_provider()  # the HTTP client is built while the session opens
            views_ready = self.warm_views()
            runtime = await self.opener(self.options, provider)
            with contextlib.suppress(Exception):  # a failure is logged by the worker
                await views_ready.wait()
        except MewCodeError as exc:
            self.status.phase = "no session"
            self.say(f"Cannot start: {exc}", "error")
            return
        except Exception as exc:  # one line for the user, the traceback for the log
            log.exception("session start failed")
            self.status.phase = "no session"
            self.say(f"Cannot start: {type(exc).__name__}: {exc}", "error")
            return
        self.runtime = runtime
        self.open_session(runtime)
        if refusal := runtime.mode_refusal(self.mode):  # chosen before the session opened
            self.say(f"Mode default: {refusal}", "error")
            self.mode = self.status.mode = "default"
        runtime.set_mode(self.mode)
        self.status.phase = "idle"
        self.refresh_status()
        self._registry = await self.load_session_commands()  # after the first frame
        self.say_command_notices(self._registry)
        runtime.start_mcp()  # after the first frame: servers connect in the background
        if runtime.history:
            restored = transcript_from_history(runtime.history, runtime.saved_views)
            self.transcript.prepend(restored)
            await self.chat.reload()
            self.say(f"Resumed session {runtime.session_id} ({len(runtime.history)} messages).")
        else:
            self.say(
                f"MewCode · {runtime.provider.name} {runtime.provider.model} · "
                f"{short_path(self.options.cwd)} — /help for commands, @ to mention files."
            )
        for problem in [*runtime.settings_problems, *runtime.load_warnings]:
            self.say(problem, "warning")
        if len(runtime.history) > 500:
            # A big resumed history lives until exit: keep it out of the
            # collector's full passes, whose pauses grow with it.
            gc.collect()
            gc.freeze()
        self.post_message(self.SessionOpened())  # the main screen sends queued prompts

    def open_session(self, runtime: RuntimeSession) -> None:
        """Host the runtime and read its events in a worker for the session's life."""
        from agent_core.protocol.host import SessionHost
        from mewcode_tui.session_client import SessionClient

        # The first frame does not wait for MCP servers: they connect in the background.
        self.host = SessionHost(runtime, settle_tools=False)
        self.host.start()
        self.session = SessionClient(self.host, self.session_event)
        self.run_worker(self.session.run(), group="session-events")

    async def session_event(self, event: Event) -> None:
        """News from the session between turns (a turn's own events go to the presenter)."""
        from agent_core import events as ev

        match event:
            case ev.ModeChanged():
                self.mode = self.status.mode = event.mode
            case ev.McpServerChanged():
                self.mcp_changed()
            case ev.SessionOpened(op_id=""):
                self._open_told = True
            case ev.Notice() if self._open_told:
                # After the opening (whose notices start_session says): what a resume
                # found wrong, why a compaction did not happen.
                self.say(event.message, "warning" if event.level == "warning" else "info")
            case _:
                pass

    async def close_session(self) -> None:
        """Close the host (and with it the runtime)."""
        if self.host is not None:
            await self.host.close()
        elif self.runtime is not None:
            await self.runtime.close()

    @work(group="warm")
    async def warm_provider(self) -> None:
        """Build the provider's client ahead of the first turn (it costs tens of ms)."""
        from agent_core.llm.base import Warmable

        if isinstance(self.provider, Warmable):
            try:
                await self.provider.warm()
            except Exception:  # the first request reports the problem to the user
                log.warning("warming the provider failed", exc_info=True)

    @work(group="warm")
    async def warm_views(self) -> None:
        """Load and style the answer views ahead of the first answer."""
        from mewcode_tui.warmup import warm_answer_views

        try:
            await warm_answer_views(self, self.chat.answer_width)
        except Exception:  # only a head start: the first answer does the work instead
            log.warning("warming the answer views failed", exc_info=True)

    def refresh_status(self) -> None:
        if self.runtime is not None:
            self.status.show_runtime(self.runtime)

    def mcp_changed(self) -> None:
        """A server's state changed: the status bar and an open /mcp list show it."""
        self.refresh_status()
        from mewcode_tui.screens.mcp_servers import McpServersScreen

        if isinstance(self.app.screen, McpServersScreen):
            self.app.screen.show_servers()

    # --- shown while starting, and after ---------------------------------------

    def say(self, text: str, level: Literal["info", "warning", "error"] = "info") -> None:
        """Show a notice in the chat pane."""
        entry = self.transcript.add(NoticeEntry(level, text))
        self.run_worker(self.chat.append(entry), group="notice")
