"""The main screen: chat pane, completion menu, prompt and status bar; drives turns.

Opening the session is a collaborator's job (session_starter.py), which posts
``SessionOpened`` with the session client. The session is driven through ops alone: a
prompt is a ``UserTurn``, Esc an ``Interrupt``, Shift+Tab a ``SetMode`` (mode_control.py);
every event comes through the session client, one at a time, to the presenter
(docs/protocol.md). Completion (prompt_completion.py) and the approval dialogs'
answers (approval_answers.py) are collaborators too.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, Literal

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer

from agent_core.errors import MewCodeError
from agent_core.modes import Mode
from mewcode_tui.mode_control import ModeControl
from mewcode_tui.prompt_completion import PromptCompletion
from mewcode_tui.session_starter import SessionOpened
from mewcode_tui.transcript import NoticeEntry, Transcript, UserEntry, transcript_from_history
from mewcode_tui.widgets.chat_log import ChatLog
from mewcode_tui.widgets.completion_menu import CompletionMenu
from mewcode_tui.widgets.prompt_input import PromptInput
from mewcode_tui.widgets.status_bar import StatusBar, short_path
from mewcode_tui.widgets.tool_call_view import ToolCallLine
from mewcode_tui.widgets.working_indicator import WorkingIndicator

if TYPE_CHECKING:
    from agent_core.events import ApprovalReply, ApprovalRequested, Event
    from agent_core.protocol.host import SessionHost
    from agent_core.protocol.ops import Op
    from mewcode_tui.commands.registry import CommandRegistry, UserFiles
    from mewcode_tui.presenter import TurnPresenter
    from mewcode_tui.session_client import SessionClient
    from mewcode_tui.session_start import TuiOptions
    from mewcode_tui.session_starter import SessionStarter, StartingScreen
    from mewcode_tui.widgets.prompt_input import PromptHistory

# The channel, events, presenter and completion modules are imported when first
# needed: none of them is needed for the first frame (docs/architecture.md#start-up).

log = logging.getLogger("mewcode.tui")

QUIT_WINDOW = 2.0  # seconds within which a second Ctrl+C on an idle, empty prompt quits


def _figure_events(ev: Any) -> tuple[type, ...]:
    """The events after which the status bar reads the session's snapshot again."""
    return (
        ev.UsageUpdate,
        ev.TurnCompleted,
        ev.ModeChanged,
        ev.ModelChanged,
        ev.SessionOpened,
        ev.Compaction,
    )


class MainScreen(Screen):
    """The conversation."""

    BINDINGS = [
        Binding("escape", "cancel_turn", "Cancel turn", id="mewcode.cancel_turn"),
        # Replaces Screen's ctrl+c copy: action_interrupt still copies a selection first.
        Binding("ctrl+c", "interrupt", "Interrupt", show=False, id="mewcode.interrupt"),
        Binding("shift+tab", "cycle_mode", "Mode", priority=True, id="mewcode.cycle_mode"),
        Binding("ctrl+o", "toggle_calls", "Expand all", priority=True, id="mewcode.toggle_calls"),
        Binding("ctrl+r", "search_history", "Search prompt history", show=False,
                id="mewcode.search_history"),
        Binding("pageup", "scroll_chat(-1)", "Scroll up", show=False, priority=True,
                id="mewcode.scroll_up"),
        Binding("pagedown", "scroll_chat(1)", "Scroll down", show=False, priority=True,
                id="mewcode.scroll_down"),
    ]  # fmt: skip

    def __init__(
        self,
        starter: Callable[[StartingScreen], SessionStarter],
        *,
        clock: Callable[[], float] = time.monotonic,
        history: PromptHistory | None = None,
    ) -> None:
        super().__init__()
        self._history = history  # the project's prompts; None: this run's only
        self.starter = starter(self)  # the app makes it: it knows the provider and opener
        self.modes = ModeControl(self, self.starter.options.mode)
        self.session: SessionClient | None = None  # the session, once open
        self.session_ready = False  # open, greeted and in the chosen mode: prompts go now
        self.host: SessionHost | None = None
        self._registry: CommandRegistry | None = None
        self.completion = PromptCompletion(self, self.starter.options.cwd)
        self.clock = clock
        self.transcript = Transcript()
        self._presenter: TurnPresenter | None = None
        self.pending: list[str] = []  # prompts waiting for the runtime or the running turn
        self._queued_shown: dict[str, str] = {}  # a queued expansion -> what the user typed
        self.turn_active = False  # a turn, or a command run by run_exclusive, holds the session
        self._turn_started: float | None = None
        self._quit_armed_at: float | None = None  # when Ctrl+C last asked "again to quit"

    @property
    def mode(self) -> Mode:
        """The mode as the session last told it (or as chosen before it opened)."""
        return self.modes.mode

    @property
    def options(self) -> TuiOptions:
        return self.starter.options

    @property
    def paths(self) -> UserFiles:
        return self.starter.options.paths

    @property
    def presenter(self) -> TurnPresenter:
        if self._presenter is None:
            from mewcode_tui.presenter import TurnPresenter

            self._presenter = TurnPresenter(self, self.transcript, self.chat, self.status)
        return self._presenter

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
        if self._history is not None:
            self.prompt.prompts = self._history
        self.menu = self.query_one(CompletionMenu)
        self.status = self.query_one(StatusBar)
        self.indicator = self.query_one(WorkingIndicator)
        self.status.cwd = short_path(self.options.cwd)
        self.status.mode = self.modes.mode
        self.status.model = self.options.model or ""
        self.status.phase = "starting"
        self.prompt.focus()
        self.set_interval(1.0, self._tick)
        if self.options.prompt:
            self.pending.append(self.options.prompt)
        # First frame first: the key footer, the provider and its SDK import come after it.
        self.call_after_refresh(self._mount_footer)
        self.call_after_refresh(self.starter.begin)

    async def _mount_footer(self) -> None:
        if not self.is_attached:  # the app quit before its first refresh was over
            return
        await self.mount(Footer(compact=True))
        self.refresh_bindings()  # a late footer missed the first bindings update

    # --- the host API for commands and the presenter -------------------------

    async def send_prompt(self, prompt: str, shown: str | None = None) -> None:
        """Start a turn now, or queue it until the session is free."""
        if self.session is None or self.turn_active:
            self.pending.append(prompt)
            if shown:
                self._queued_shown[prompt] = shown
            waiting = "the session starts" if self.session is None else "this turn ends"
            self.app.notify(f"Queued: sent when {waiting}.", timeout=3)
            return
        await self.chat.append(self.transcript.add(UserEntry(shown or prompt)))
        self.run_turn(prompt, shown or "")

    # --- the session: opened by the starter, then ops in and events out ---------

    async def on_session_opened(self, message: SessionOpened) -> None:
        """Drive the new session: read its events, greet, ask for the chosen mode."""
        import gc

        session = self.session = message.client
        self.host = message.host
        self.run_worker(session.run(), group="session-events")
        self.status.phase = "idle"
        self._registry = await self.load_session_commands(session)  # after the first frame
        self.say_command_notices(self._registry)
        snap = session.snapshot()
        if snap.messages:
            await self.show_history(keep=True)
            self.say(f"Resumed session {snap.session_id} ({snap.messages} messages).")
        else:
            self.say(
                f"MewCode · {snap.provider} {snap.model} · "
                f"{short_path(self.options.cwd)} — /help for commands, @ to mention files."
            )
        await self.modes.ask_start(session)
        if snap.messages > 500:
            # A big resumed history lives until exit: keep it out of the
            # collector's full passes, whose pauses grow with it.
            gc.collect()
            gc.freeze()
        self.session_ready = True
        self._next_turn()  # prompts typed while it started go now

    async def session_event(self, event: Event) -> None:
        """Every event of the session: to the presenter, then the figures it changed."""
        from agent_core import events as ev

        session = self.session
        if isinstance(event, ev.OpRefused) and session is not None and session.awaits(event.op_id):
            return  # its request raises: the asker tells it
        await self.presenter.apply(event)
        if isinstance(event, ev.McpServerChanged):
            self.mcp_changed()
        elif isinstance(event, _figure_events(ev)):
            self.refresh_status()

    def refresh_status(self) -> None:
        if self.session is not None:
            self.status.show_snapshot(self.session.snapshot())

    def mcp_changed(self) -> None:
        """A server's state changed: the status bar and an open /mcp list show it."""
        self.refresh_status()
        from mewcode_tui.screens.mcp_servers import McpServersScreen

        if isinstance(self.app.screen, McpServersScreen):
            self.app.screen.show_servers()

    def folder_changed(self) -> None:
        """The starter's options name another folder or settings: forget what was read."""
        self.completion.forget(self.options.cwd)
        self._registry = None

    def load_commands(self) -> CommandRegistry:
        """Built-in, custom and skill commands as on disk now, before the session answers
        (completion at start-up); the status bar counts skills."""
        from agent_core.protocol.queries import custom_commands, installed_skills
        from mewcode_tui.commands import build_registry

        skills = installed_skills(self.options.paths)
        self.status.skills = len(skills.skills)
        return build_registry(custom_commands(self.options.paths), skills)

    async def load_session_commands(self, session: SessionClient) -> CommandRegistry:
        """The commands as the open session lists them; the status bar counts skills."""
        from mewcode_tui.commands import session_registry

        registry = await session_registry(session)
        self.status.skills = registry.skills
        return registry

    async def show_history(self, *, keep: bool = False) -> None:
        """Show the session's conversation in place of the chat pane's (after a resume);
        with ``keep``, before what the pane shows already (notices said while it opened)."""
        from agent_core.events import HistoryReport
        from agent_core.protocol.ops import QueryHistory

        if self.session is None:
            return
        try:
            report = await self.session.request(QueryHistory())
        except MewCodeError as exc:
            self.say(f"Cannot show the conversation: {exc}", "error")
            return
        assert isinstance(report, HistoryReport), "query_history is answered by history.report"
        if not keep:
            self.transcript.clear()
        self.transcript.prepend(transcript_from_history(report))
        await self.chat.reload()

    def say_command_notices(self, registry: CommandRegistry) -> None:
        """What the custom command files did not get, said once a session."""
        if registry.shadowed:
            names = ", ".join(f"/{n}" for n in registry.shadowed)
            self.say(f"Custom commands not loaded (a built-in has the name): {names}", "warning")
        for notice in registry.notices:
            self.say(notice, "warning")

    def say(self, text: str, level: Literal["info", "warning", "error"] = "info") -> None:
        """Show a notice in the chat pane."""
        entry = self.transcript.add(NoticeEntry(level, text))
        self.run_worker(self.chat.append(entry), group="notice")

    def _next_turn(self) -> None:
        if self.pending and self.session is not None and not self.turn_active:
            prompt = self.pending.pop(0)
            shown = self._queued_shown.pop(prompt, None)
            self.run_worker(self.send_prompt(prompt, shown), group="send")

    async def set_mode(self, mode: Mode) -> bool:
        """Ask for ``mode``; False (and an error notice) when the session refuses it.

        The screen and the status bar follow the session's ``ModeChanged``; a mode
        chosen before the session opened is asked for once it opens.
        """
        return await self.modes.set(mode)

    def mode_changed(self, mode: Mode) -> None:
        """The session told a new mode (whoever changed it)."""
        self.modes.changed(mode)

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
        if self.session is not None:
            from agent_core.protocol.ops import NewSession
            from mewcode_tui.session_client import OpRefusedError

            try:
                await self.session.request(NewSession())
            except (OpRefusedError, MewCodeError) as exc:
                self.say(f"Not cleared: {exc}", "error")
                return
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
        from mewcode_tui.approval_answers import approval_dialog

        def answered(reply: ApprovalReply | None) -> None:
            self.run_worker(self._answer_approval(event, reply), group="approval")

        self.app.push_screen(approval_dialog(event), answered)

    async def _answer_approval(self, event: ApprovalRequested, reply: ApprovalReply | None) -> None:
        """Send the dialog's answer as the op of the request's kind."""
        from mewcode_tui.approval_answers import answer_op
        from mewcode_tui.session_client import OpRefusedError

        if self.session is None:
            return
        try:
            await self.session.request(answer_op(event, reply))
        except (OpRefusedError, MewCodeError) as exc:  # the turn ended meanwhile
            log.warning("approval %s was not taken: %s", event.approval_id, exc)

    # --- turns ---------------------------------------------------------------

    @work(group="turn")
    async def run_turn(self, prompt: str, shown: str = "", op: Op | None = None) -> None:
        """Submit one turn (``op``, else a user turn with ``prompt``, ``shown`` being what
        the user typed for it) and wait for its end; its events reach the presenter."""
        from agent_core.protocol.ops import UserTurn
        from mewcode_tui.session_client import OpRefusedError

        session = self.session
        assert session is not None, "turns start only once the session is open"
        self.turn_active = True
        try:
            await session.request(op or UserTurn(text=prompt, shown=shown))
        except OpRefusedError as refusal:
            self.say(f"The turn did not start: {refusal}", "error")
        except MewCodeError as exc:  # the session's stream ended under the turn
            log.error("turn failed: %s", exc)
            self.turn_clock(False)
            self.status.phase = "idle"
            self.say(f"The turn failed: {exc}", "error")
        finally:
            self.working(None)  # however the turn ended
            self.turn_active = False
            self.refresh_status()
        self._next_turn()

    def action_cancel_turn(self) -> None:
        if not self.turn_active:
            return
        if self.pending:
            self.app.notify(f"Dropped {len(self.pending)} queued message(s).", timeout=3)
            self.pending.clear()
            self._queued_shown.clear()
        self.status.phase = "cancelling"
        if self.session is not None:
            self.run_worker(self._interrupt(), group="interrupt")

    async def _interrupt(self) -> None:
        from agent_core.protocol.ops import Interrupt
        from mewcode_tui.session_client import OpRefusedError

        assert self.session is not None
        try:
            await self.session.request(Interrupt())
        except (OpRefusedError, MewCodeError):  # no turn runs: it ended meanwhile
            pass

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
        self.modes.cycle()

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
        if text.lstrip().startswith("!"):
            await self.run_shell_prompt(text.strip())
            return
        await self.send_prompt(text)

    async def run_shell_prompt(self, text: str) -> None:
        """``!command``: run it as a Bash call, permission decided (and asked) as for the
        model's; the model reads its input and output with the next prompt."""
        from agent_core.protocol.ops import ShellCommand

        command = text[1:].strip()
        if not command:
            self.say("Type a command after ! to run it in the shell: ! git status", "warning")
            return
        if self.session is None or self.turn_active:
            self.prefill(text)  # kept for when the session is free
            self.app.notify("A ! command runs when no turn is running (Esc stops one).", timeout=3)
            return
        shown = f"! {command}"  # as a resumed session shows it
        await self.chat.append(self.transcript.add(UserEntry(shown)))
        self.run_turn(shown, op=ShellCommand(command=command))

    def on_prompt_input_query_changed(self, message: PromptInput.QueryChanged) -> None:
        self.completion.query_changed(message.query)

    def action_search_history(self) -> None:
        """Ctrl+R: pick a prompt sent before; it goes into the prompt to edit or send."""
        from mewcode_tui.screens.history_search import HistorySearchScreen

        def chosen(entry: str | None) -> None:
            if entry is not None:
                self.prompt.put(entry)
            self.prompt.focus()

        entries = self.prompt.prompts.entries()
        self.app.push_screen(HistorySearchScreen(entries, self.prompt.text.strip()), chosen)

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
        if self.host is not None:
            try:
                await self.host.close()  # and with it the runtime
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
