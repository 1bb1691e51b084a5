"""Opening the main screen's session: trust, first-run setup, the provider, runtime and host.

The steps run after the first frame (docs/architecture.md#start-up): the trust dialog
for an untrusted project, the setup screen on a first run, then a worker that builds
the provider (its SDK import in a thread), opens the runtime and hosts it. The screen
is told with a ``SessionOpened`` message carrying the session client; from then on it
drives the session through ops alone. Composition level, like session_start.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal, Protocol

from textual.message import Message

from agent_core.errors import MewCodeError
from mewcode_tui.session_start import (
    TuiOptions,
    build_provider,
    choose_session,
    open_runtime,
    options_after_setup,
)
from mewcode_tui.widgets.status_bar import short_path

if TYPE_CHECKING:
    from textual.app import App
    from textual.worker import Worker

    from agent_core.agent.session_api import RuntimeSession
    from agent_core.events import Event
    from agent_core.llm.base import Provider
    from agent_core.modes import Mode
    from agent_core.protocol.host import SessionHost
    from mewcode_tui.screens.setup import SetupChoice
    from mewcode_tui.session_client import SessionClient
    from mewcode_tui.widgets.chat_log import ChatLog
    from mewcode_tui.widgets.status_bar import StatusBar

log = logging.getLogger("mewcode.tui")

RuntimeOpener = Callable[[TuiOptions, "Provider"], Awaitable["RuntimeSession"]]


class SessionOpened(Message):
    """The session is open: the main screen drives it through ``client``."""

    def __init__(self, client: SessionClient, host: SessionHost) -> None:
        super().__init__()
        self.client = client
        self.host = host  # closed with the screen


class StartingScreen(Protocol):
    """What the starter needs of the screen it opens a session for."""

    @property
    def app(self) -> App[Any]: ...

    @property
    def status(self) -> StatusBar: ...

    @property
    def chat(self) -> ChatLog: ...

    def say(self, text: str, level: Literal["info", "warning", "error"] = "info") -> None: ...

    def run_worker(self, work: Any, *, group: str = ..., exclusive: bool = ...) -> Worker[Any]: ...

    def post_message(self, message: Message) -> bool: ...

    async def session_event(self, event: Event) -> None:
        """Where every event of the session goes (the client's deliver)."""
        ...

    def folder_changed(self) -> None:
        """The options now name another folder or settings (setup's demo copy, trust)."""
        ...

    def mode_changed(self, mode: Mode) -> None: ...


class SessionStarter:
    """Opens one session for a screen, after its first frame."""

    def __init__(
        self,
        screen: StartingScreen,
        options: TuiOptions,
        *,
        provider: Provider | None = None,
        opener: RuntimeOpener | None = None,
    ) -> None:
        self.screen = screen
        self.options = options
        self.provider = provider
        self.opener = opener or self._open_runtime
        self._env: dict[str, str] | None = None  # the environment with a key from setup
        # The runtime it opened: the session host drives it; the screen never reads it.
        self.runtime: RuntimeSession | None = None

    # choose_session reads these from what it is given.
    @property
    def app(self) -> App[Any]:
        return self.screen.app

    @property
    def paths(self) -> Any:
        return self.options.paths

    def say(self, text: str, level: Literal["info", "warning", "error"] = "info") -> None:
        self.screen.say(text, level)

    async def _open_runtime(self, options: TuiOptions, provider: Provider) -> RuntimeSession:
        # The environment carries a key typed in the setup screen (for /model too).
        return await open_runtime(options, provider, self._env)

    def begin(self) -> None:
        """Ask whether to trust an untrusted project, then for a provider on first run; start."""
        status = self.screen.status
        if self.options.ask_trust:
            from mewcode_tui.screens.trust import TrustScreen
            from mewcode_tui.trust_question import trust_question

            status.phase = "trust"
            question = trust_question(self.options.paths, self.options.settings)
            self.app.push_screen(TrustScreen(question), self._trusted)
        elif self.provider is None and self.options.needs_setup:
            from mewcode_tui.screens.setup import SetupScreen
            from mewcode_tui.setup_methods import setup_methods, validate_choice

            status.phase = "setup"
            self.app.push_screen(SetupScreen(setup_methods(), validate_choice), self._setup_chosen)
        else:
            self.screen.run_worker(self._start(), group="start", exclusive=True)

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
        self.screen.folder_changed()
        self.screen.mode_changed(self.options.mode)  # what the settings now in force choose
        self.screen.status.model = self.options.model or ""
        self.begin()

    def _setup_chosen(self, choice: SetupChoice | None) -> None:
        from mewcode_tui.setup_store import apply_setup

        if choice is None:  # the user chose to leave: a quit, not a failure (exit 0)
            self.app.exit(0)
            return
        try:
            apply_setup(choice, self.options.paths)
        except (OSError, MewCodeError) as exc:
            self.say(f"Your choice was not saved: {exc}", "warning")
        self.options, self._env = options_after_setup(self.options, choice)
        # The demo runs in a scratch copy: everything tied to the folder follows it.
        self.screen.status.cwd = short_path(self.options.cwd)
        self.screen.folder_changed()
        if choice.api_key:
            self.say(
                f"Saved provider {choice.provider} in {self.options.paths.user_settings}; the "
                "key is in credentials.yaml. You can also export it in your shell profile instead."
            )
        self.screen.run_worker(self._start(), group="start", exclusive=True)

    async def _start(self) -> None:
        """Create the provider (SDK import in a thread), open the runtime and host it."""
        status = self.screen.status
        try:
            if self.options.resume_id == "":  # `--resume` without an id: ask which
                self.options = await choose_session(self)
            provider = self.provider
            if provider is None:
                provider = await asyncio.to_thread(build_provider, self.options, self._env)
            self.provider = provider
            self.screen.run_worker(self._warm_provider(), group="warm")  # while it opens
            views_ready = self.screen.run_worker(self._warm_views(), group="warm")
            runtime = await self.opener(self.options, provider)
            with contextlib.suppress(Exception):  # a failure is logged by the worker
                await views_ready.wait()
        except MewCodeError as exc:
            status.phase = "no session"
            self.say(f"Cannot start: {exc}", "error")
            return
        except Exception as exc:  # one line for the user, the traceback for the log
            log.exception("session start failed")
            status.phase = "no session"
            self.say(f"Cannot start: {type(exc).__name__}: {exc}", "error")
            return
        from agent_core.protocol.host import SessionHost
        from mewcode_tui.session_client import SessionClient

        # The first frame does not wait for MCP servers: they connect in the background.
        host = SessionHost(runtime, settle_tools=False)
        host.start()
        runtime.start_mcp()
        client = SessionClient(host, self.screen.session_event)
        self.runtime = runtime
        self.screen.post_message(SessionOpened(client, host))

    async def _warm_provider(self) -> None:
        """Build the provider's client ahead of the first turn (it costs tens of ms)."""
        from agent_core.llm.base import Warmable

        if isinstance(self.provider, Warmable):
            try:
                await self.provider.warm()
            except Exception:  # the first request reports the problem to the user
                log.warning("warming the provider failed", exc_info=True)

    async def _warm_views(self) -> None:
        """Load and style the answer views ahead of the first answer."""
        from mewcode_tui.warmup import warm_answer_views

        screen: Any = self.screen  # the answer views are mounted inside it, out of sight
        try:
            await warm_answer_views(screen, self.screen.chat.answer_width)
        except Exception:  # only a head start: the first answer does the work instead
            log.warning("warming the answer views failed", exc_info=True)
