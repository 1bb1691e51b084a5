"""The main screen's permission mode: as the session last told it, and asking for another.

The runtime owns the mode; the screen shows what the session's ``ModeChanged`` said.
A mode chosen before the session opened (Shift+Tab during start-up, ``--permission-mode``)
is asked for once it opens.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, Protocol

from agent_core.errors import MewCodeError
from agent_core.modes import MODE_CYCLE, MODES, Mode, mode_named

if TYPE_CHECKING:
    from collections.abc import Coroutine

    from mewcode_tui.session_client import SessionClient
    from mewcode_tui.widgets.status_bar import StatusBar


class ModeScreen(Protocol):
    """What the mode needs of the screen."""

    @property
    def session(self) -> SessionClient | None: ...

    @property
    def status(self) -> StatusBar: ...

    def say(self, text: str, level: Literal["info", "warning", "error"] = "info") -> None: ...

    def run_worker(self, work: Coroutine[Any, Any, Any], *, group: str = ...) -> object: ...


class ModeControl:
    """The mode shown, and the one asked for and not answered yet."""

    def __init__(self, screen: ModeScreen, mode: Mode) -> None:
        self._screen = screen
        self.mode: Mode = mode
        self._asked: Mode | None = None  # a SetMode sent and not answered yet

    def changed(self, mode: Mode) -> None:
        """The session told a new mode (whoever changed it)."""
        self.mode = self._screen.status.mode = mode

    async def ask_start(self, session: SessionClient) -> None:
        """Ask for the mode chosen before the session opened; fall back to default."""
        from agent_core.protocol.ops import SetMode
        from mewcode_tui.session_client import OpRefusedError

        try:
            await session.request(SetMode(mode=self.mode))
        except OpRefusedError as refusal:
            self._screen.say(f"Mode default: {refusal}", "error")
            try:
                await session.request(SetMode(mode="default"))
            except MewCodeError:
                return
        except MewCodeError:
            return  # the session ended already
        self.changed(session.snapshot().mode)  # the session's mode, whatever was asked

    async def set(self, mode: Mode) -> bool:
        """Ask for ``mode``; False (and an error notice) when the session refuses it."""
        screen = self._screen
        wanted = mode_named(mode)
        if wanted is None:
            screen.say(f"Unknown mode {mode!r}; choose one of: {', '.join(MODES)}.", "warning")
            return False
        session = screen.session
        if session is None:
            self.changed(wanted)  # asked for once the session opens
            return True
        from agent_core.protocol.ops import SetMode
        from mewcode_tui.session_client import OpRefusedError

        self._asked = wanted
        try:
            await session.request(SetMode(mode=wanted))
        except OpRefusedError as refusal:
            screen.say(f"Mode {self.mode} kept: {refusal}", "error")
            return False
        except MewCodeError as exc:  # the session ended
            screen.say(f"Mode {self.mode} kept: {exc}", "error")
            return False
        finally:
            if self._asked == wanted:
                self._asked = None
        return True

    def cycle(self) -> None:
        """Shift+Tab: the next mode of the cycle (a quick second press steps on from the first)."""
        current = self._asked or self.mode
        index = MODE_CYCLE.index(current) if current in MODE_CYCLE else -1
        wanted = MODE_CYCLE[(index + 1) % len(MODE_CYCLE)]
        if self._screen.session is None:
            self.changed(wanted)  # asked for once the session opens
            return
        self._asked = wanted
        self._screen.run_worker(self.set(wanted), group="mode")
