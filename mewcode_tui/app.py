"""The MewCode Textual app: themes, the main screen, the command palette."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.app import App

from mewcode_tui.screens.main import MainScreen, RuntimeOpener
from mewcode_tui.session_start import TuiOptions

_HERE = Path(__file__).parent


def _palette_commands() -> type:
    # Imported when the palette first opens, not before the first frame.
    from mewcode_tui.palette import MewCodeCommands

    return MewCodeCommands


class MewCodeApp(App[int]):
    """A terminal coding agent. ``provider``/``opener`` are injected by tests."""

    # The main screen is the default screen, whose own CSS_PATH Textual does not load.
    # Absolute, so subclasses defined elsewhere (tests, benches) find the files.
    CSS_PATH = [_HERE / "app.tcss", _HERE / "screens" / "main.tcss"]
    TITLE = "MewCode"
    COMMANDS = App.COMMANDS | {_palette_commands}

    def __init__(
        self,
        options: TuiOptions,
        *,
        provider: Any = None,
        opener: RuntimeOpener | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        # Textual allocates many short-lived objects per frame; with the default
        # thresholds the collector's pauses showed up as 50-120 ms stalls.
        gc.set_threshold(10_000, 10, 10)
        self.options = options
        self._main = MainScreen(options, provider=provider, opener=opener, clock=clock)
        # Choosing the theme before anything is styled spares a full restyle
        # before the first frame.
        from mewcode_tui.themes import load_themes, restore_theme

        self._theme_warnings = load_themes(self, options.paths)
        restore_theme(self, options.paths)

    @property
    def main_screen(self) -> MainScreen:
        return self._main

    def get_default_screen(self) -> MainScreen:
        # The chat is the first screen, so the first frame is the real one.
        return self._main

    def on_mount(self) -> None:
        for warning in self._theme_warnings:
            self._main.call_after_refresh(self._main.say, warning, "warning")
