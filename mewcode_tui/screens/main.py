"""The main screen: chat pane, completion menu, prompt and status bar; drives turns.

Opening the session is its base class's job (session_opening.py). Each turn
runs in a worker (see turn_runner.py) that hands the runtime's events to the
presenter one at a time.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer

from agent_core.errors import MewCodeError
from agent_core.modes import MODE_CYCLE
from mewcode_tui.screens.session_opening import RuntimeOpener, SessionOpeningScreen
from mewcode_tui.transcript import Transcript, UserEntry
from mewcode_tui.widgets.chat_log import ChatLog
from mewcode_tui.widgets.completion_menu import CompletionMenu
from mewcode_tui.widgets.prompt_input import PromptInput
from mewcode_tui.widgets.status_bar import StatusBar, short_path
from mewcode_tui.widgets.tool_call_view import ToolCallLine
from mewcode_tui.widgets.working_indicator import WorkingIndicator

if TYPE_CHECKING:
    from agent_core.events import ApprovalRequested
    from agent_core.llm.base import Provider
    from mewcode_tui.commands.registry import CommandRegistry
    from mewcode_tui.completion import Candidate, CompletionQuery, FileIndex
    from mewcode_tui.presenter import TurnPresenter
    from mewcode_tui.session_start import TuiOptions

# The channel, events, presenter and completion modules are imported when first
# needed: none of them is needed for the first frame (docs/architecture.md#start-up).

log = logging.getLogger("mewcode.tui")

QUIT_WINDOW = 2.0  # seconds within which a second Ctrl+C on an idle, empty prompt quits


class MainScreen(SessionOpeningScreen):
    """The conversation."""

    BINDINGS = [
        Binding("escape", "cancel_turn", "Cancel turn", id="mewcode.cancel_turn"),
        # Replaces Screen's ctrl+c copy: action_interrupt still copies a selection first.
        Binding("ctrl+c", "interrupt", "Interrupt", show=False, id="mewcode.interrupt"),
        Binding("shift+tab", "cycle_mode", "Mode", priority=True, id="mewcode.cycle_mode"),
        Binding("ctrl+o", "toggle_calls", "Expand all", priority=True, id="mewcode.toggle_calls"),
        Binding(
            "pageup",
            "scroll_chat(-1)",
            "Scroll up",
            show=False,
            priority=True,
            id="mewcode.scroll_up",
        ),
        Binding(
            "pagedown",
            "scroll_chat(1)",
            "Scroll down",
            show=False,
            priority=True,
            id="mewcode.scroll_down",
        ),
    ]

    def __init__(
        self,
        options: TuiOptions,
        *,
        provider: Provider | None = None,
        opener: RuntimeOpener | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(options, provider=provider, opener=opener)
        self.clock = clock
        self.transcript = Transcript()
        self._presenter: TurnPresenter | None = None
        self.pending: list[str] = []  # prompts waiting for the runtime or the running turn
        self.turn_active = False  # a turn, or a command run by run_exclusive, holds the session
        self._turn_task: asyncio.Task | None = None
        self._turn_started: float | None = None
        self._quit_armed_at: float | None = None  # when Ctrl+C last asked "again to quit"

    @property
    def presenter(self) -> TurnPresenter:
        if self._presenter is None:
            from mewcode_tui.presenter import TurnPresenter

            self._presenter = TurnPresenter(self, self.transcript, self.chat, self.status)
        return self._presenter

    @property
    def files(self) -> FileIndex:
        if self._files is None:
            from mewcode_tui.completion import FileIndex

            self._files = FileIndex(self.options.cwd)
        return self._files

    @property
    def busy(self) -> bool:
        """A turn or an exclusive command holds the session: prompts queue."""
        return self.turn_active

    @property
    def registry(self) -> CommandRegistry:
        """The slash commands (built on first use: it reads custom command files)."""
        if self._registry is None:
            self._registry = self.load_commands()
        return self._registry

    def compose(self) -> ComposeResult:
        menu = CompletionMenu(id="completion")
        yield ChatLog(self.transcript, id="chat")
        yield WorkingIndicator(self.clock, id="working")
        yield menu
        yield PromptInput(menu, id="prompt")
        yield StatusBar(id="status")

    def on_mount(self) -> None:
        self.chat = self.query_one(ChatLog)
        self.prompt = self.query_one(PromptInput)
        self.menu = self.query_one(CompletionMenu)
        self.status = self.query_one(StatusBar)
        self.indicator = self.query_one(WorkingIndicator)
        self.status.cwd = short_path(self.options.cwd)
        self.status.mode = self.mode
        self.status.model = self.options.model or ""
        self.status.phase = "starting"
        self.prompt.focus()
        self.set_interval(1.0, self._tick)
        if self.options.prompt:
            self.pending.append(self.options.prompt)
        # First frame first: the key footer, the provider and its SDK import come after it.
        self.call_after_refresh(self._mount_footer)
        self.call_after_refresh(self.begin)

    async def _mount_footer(self) -> None:
        if not self.is_attached:  # the app quit before its first refresh was over
            return
        await self.mount(Footer(compact=True))
        self.refresh_bindings()  # a late footer missed the first bindings update

    # --- the host API for commands and the presenter -------------------------

    async def send_prompt(self, prompt: str, shown: str | None = None) -> None:
        """Start a turn now, or queue it until the session is free."""
        if self.runtime is None or self.turn_active:
            self.pending.append(prompt)
            waiting = "the session starts" if self.runtime is None else "this turn ends"
            self.app.notify(f"Queued: sent when {waiting}.", timeout=3)
            return
        await self.chat.append(self.transcript.add(UserEntry(shown or prompt)))
        self.run_turn(prompt)

    def on_session_opening_screen_session_opened(
        self, _message: SessionOpeningScreen.SessionOpened
    ) -> None:
        self._next_turn()

    def _next_turn(self) -> None:
        if self.pending and self.runtime is not None and not self.turn_active:
            prompt = self.pending.pop(0)
            self.run_worker(self.send_prompt(prompt), group="send")

    def set_mode(self, mode: str) -> bool:
        """Switch mode; False (and an error notice) when the mode is refused here."""
        if self.runtime is not None:
            try:
                self.runtime.set_mode(mode)
            except MewCodeError as refusal:
                self.say(f"Mode {self.mode} kept: {refusal}", "error")
                return False
        self.mode = mode
        self.status.mode = mode
        return True

    def mode_changed(self, mode: str) -> None:
        self.mode = mode
        self.status.mode = mode

    def run_exclusive(self, work: Coroutine[Any, Any, None], phase: str) -> None:
        """Run a command's ``work`` holding the session; queued prompts go after it."""
        self.turn_active = True
        self.status.phase = phase

        async def held() -> None:
            try:
                await work
            finally:
                self.turn_active = False
                self.status.phase = "idle"
            self._next_turn()

        self.run_worker(held(), group="exclusive", exclusive=True)

    async def clear_conversation(self) -> None:
        if self.turn_active:
            self.say("Wait for the turn to finish (or press Esc) before /clear.", "warning")
            return
        if self.runtime is not None:
            await self.runtime.new_session()
        self.transcript.clear()
        await self.chat.reload()
        self.refresh_status()

    def turn_clock(self, running: bool) -> None:
        if running:
            self._turn_started = self.clock()
        elif self._turn_started is not None:
            self.status.elapsed = self.clock() - self._turn_started
            self._turn_started = None

    def working(self, label: str | None) -> None:
        """Show the working indicator (elapsed time counted from the turn's start), or hide it."""
        if label is None:
            if self.indicator.working:
                self.indicator.hide()
            return
        from mewcode_tui.keymap import key_hint

        since = self._turn_started if self._turn_started is not None else self.clock()
        key = key_hint(self.app, self.BINDINGS, "mewcode.cancel_turn")
        self.indicator.show(label, since, f"{key} to interrupt")

    def _tick(self) -> None:
        if self._turn_started is not None:
            self.status.elapsed = self.clock() - self._turn_started

    def ask_approval(self, event: ApprovalRequested) -> None:
        """Open the approval (or plan) dialog; its answer releases the waiting agent."""
        if event.kind == "plan":
            from mewcode_tui.screens.plan_approval import PlanApprovalScreen

            screen: Screen = PlanApprovalScreen(event)
        else:
            from mewcode_tui.screens.approval import ApprovalScreen

            screen = ApprovalScreen(event)

        from agent_core.events import ApprovalReply

        def answered(reply: ApprovalReply | None) -> None:
            reply = reply or ApprovalReply("deny")
            if self.runtime is None or not self.runtime.answer_approval(event.approval_id, reply):
                log.warning("approval %s was no longer waiting", event.approval_id)

        self.app.push_screen(screen, answered)

    # --- turns ---------------------------------------------------------------

    @work(group="turn")
    async def run_turn(self, prompt: str) -> None:
        """Run one turn, consuming its events one at a time."""
        from mewcode_tui.turn_runner import consume_turn

        runtime = self.runtime
        assert runtime is not None, "turns start only once the session is open"
        self.turn_active = True
        try:
            failure = await consume_turn(runtime, prompt, self.presenter, self._keep_turn_task)
            if failure is not None:
                log.error("turn failed", exc_info=failure)
                self.turn_clock(False)
                self.status.phase = "idle"
                self.say(f"The turn failed: {failure}", "error")
        finally:
            self.working(None)  # however the turn ended
            self._turn_task = None
            self.turn_active = False
            self.refresh_status()
        self._next_turn()

    def _keep_turn_task(self, task: asyncio.Task[Any]) -> None:
        self._turn_task = task  # Esc cancels it if the runtime has not started the turn yet

    def action_cancel_turn(self) -> None:
        if not self.turn_active:
            return
        if self.pending:
            self.app.notify(f"Dropped {len(self.pending)} queued message(s).", timeout=3)
            self.pending.clear()
        self.status.phase = "cancelling"
        if self.runtime is not None and self.runtime.running:
            self.runtime.cancel()
        elif self._turn_task is not None:
            self._turn_task.cancel()

    def action_interrupt(self) -> None:
        """Ctrl+C: copy a selection, else cancel the turn, else clear the prompt, else quit."""
        if selected := self.get_selected_text():
            self.app.copy_to_clipboard(selected)
            return
        if self.turn_active:
            self.action_cancel_turn()
            return
        if self.prompt.text:
            self.prompt.clear()
            self.menu.hide()
            return
        now = self.clock()
        if self._quit_armed_at is not None and now - self._quit_armed_at <= QUIT_WINDOW:
            self.app.exit(0)
            return
        self._quit_armed_at = now
        from mewcode_tui.keymap import key_hint

        key = key_hint(self.app, self.BINDINGS, "mewcode.interrupt")
        self.app.notify(f"Press {key} again to quit.", timeout=QUIT_WINDOW)

    def action_cycle_mode(self) -> None:
        current = self.mode
        index = MODE_CYCLE.index(current) if current in MODE_CYCLE else -1
        self.set_mode(MODE_CYCLE[(index + 1) % len(MODE_CYCLE)])

    def action_toggle_calls(self) -> None:
        self.chat.toggle_all()

    def action_scroll_chat(self, direction: int) -> None:
        (self.chat.scroll_page_up if direction < 0 else self.chat.scroll_page_down)()

    # --- input -----------------------------------------------------------------

    async def on_prompt_input_submitted(self, message: PromptInput.Submitted) -> None:
        text = message.text
        self.chat.scroll_end(animate=False)  # answering: follow the bottom again
        if text.lstrip().startswith("/") and await self.registry.dispatch(self, text):
            return
        await self.send_prompt(text)

    def on_prompt_input_query_changed(self, message: PromptInput.QueryChanged) -> None:
        query = message.query
        if query is None:
            self.menu.hide()
        elif query.trigger == "/":
            from mewcode_tui.completion import rank_commands

            self.menu.show(query, rank_commands(query.fragment, self.registry.choices()))
        else:
            self.complete_files(query)

    @work(thread=True, exclusive=True, group="file-completion")
    def complete_files(self, query: CompletionQuery) -> None:
        from mewcode_tui.completion import rank_paths

        candidates = rank_paths(query.fragment, self.files.files())
        self.app.call_from_thread(self._show_file_candidates, query, candidates)

    def _show_file_candidates(self, query: CompletionQuery, candidates: list[Candidate]) -> None:
        if self.prompt.current_query() == query:
            self.menu.show(query, candidates)

    async def on_prompt_input_focus_tools(self, message: PromptInput.FocusTools) -> None:
        if not await self.chat.focus_last_call():
            self.app.notify("No tool calls yet.", timeout=2)

    def on_tool_call_line_leave(self, message: ToolCallLine.Leave) -> None:
        self.prompt.focus()

    def on_tool_call_line_diff_requested(self, message: ToolCallLine.DiffRequested) -> None:
        from mewcode_tui.screens.diff_screen import DiffScreen

        record = message.record
        self.app.push_screen(DiffScreen(record.diff or "", record.diff_path or record.summary))

    async def on_unmount(self) -> None:
        if self.runtime is not None:
            try:
                await self.close_session()
            except Exception:
                log.exception("closing the session failed")

    # --- used by the command palette ------------------------------------------

    def run_command_text(self, text: str) -> None:
        """Run a slash command as if typed."""
        self.run_worker(self.registry.dispatch(self, text), group="command")

    def prefill(self, text: str) -> None:
        """Put ``text`` in the prompt for the user to finish."""
        self.prompt.load_text(text)
        self.prompt.move_cursor(self.prompt.document.end)
        self.prompt.focus()
