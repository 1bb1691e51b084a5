"""The MewCode Textual app: themes, the main screen, the command palette."""

from __future__ import annotations

import errno
import gc
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.driver import Driver
from textual.screen import Screen

from mewcode_tui import css_parse_cache, terminal_keys
from mewcode_tui.prompt_history import PromptHistoryFile
from mewcode_tui.screens.main import MainScreen
from mewcode_tui.session_start import TuiOptions
from mewcode_tui.session_starter import RuntimeOpener, SessionStarter

_HERE = Path(__file__).parent
# Benchmarks only (bench_preload): print the time of the first frame on stdout and exit,
# so a run through the real entry, in a real terminal, can be timed from outside.
FIRST_PAINT_EXIT_ENV = "MEWCODE_BENCH_FIRST_PAINT_EXIT"
TERMINAL_CHECK_S = 2.0  # how often the UI checks its terminal is still there


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
    BINDINGS = [
        # Priority: the prompt's TextArea would take Ctrl+Z as undo (super+z still undoes).
        Binding(
            "ctrl+z", "suspend_process", "Suspend to the shell (fg resumes)", show=False,
            priority=True, id="mewcode.suspend",
        ),
    ]  # fmt: skip

    def __init__(
        self,
        options: TuiOptions,
        *,
        provider: Any = None,
        opener: RuntimeOpener | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        css_parse_cache.install()  # before the app's stylesheet parses anything
        terminal_keys.install()  # Alt+Enter (ESC CR) is a new line, not Enter
        super().__init__()
        # Textual allocates many short-lived objects per frame; with the default
        # thresholds the collector's pauses showed up as 50-120 ms stalls.
        gc.set_threshold(10_000, 10, 10)
        self.options = options
        # The system copy command; None until the first copy looks for one, [] for none.
        self.clipboard_command: list[str] | None = None
        self._main = MainScreen(
            lambda screen: SessionStarter(screen, options, provider=provider, opener=opener),
            clock=clock,
            history=PromptHistoryFile.for_project(options.paths),
        )
        # Choosing the theme before anything is styled spares a full restyle
        # before the first frame.
        from mewcode_tui.themes import load_themes, restore_theme

        self._startup_warnings = load_themes(self, options.paths)
        restore_theme(self, options.paths)
        if options.settings.keys:
            from mewcode_tui.keymap import apply_user_keys

            self._startup_warnings += apply_user_keys(
                self, options.settings.keys, options.paths.user_settings
            )

    # --- copy: selecting text copies it -----------------------------------------

    def on_text_selected(self) -> None:
        text = self.screen.get_selected_text()
        if text:
            self.copy_to_clipboard(text)
            lines = text.count("\n") + 1
            what = f"{lines} lines" if lines > 1 else f"{len(text)} characters"
            self.notify(f"Copied {what}.", timeout=2)

    def copy_to_clipboard(self, text: str) -> None:
        """The system clipboard where it has a copy command, else OSC 52."""
        from mewcode_tui.clipboard import clipboard_command, default_which

        if self.clipboard_command is None:
            self.clipboard_command = (
                clipboard_command(sys.platform, os.environ, default_which) or []
            )
        if not self.clipboard_command:
            super().copy_to_clipboard(text)
            return
        self._clipboard = text  # what App.clipboard returns (Textual sets it in OSC 52's path)
        self.run_worker(self._copy_with_command(self.clipboard_command, text), group="clipboard")

    async def _copy_with_command(self, command: list[str], text: str) -> None:
        from mewcode_tui.clipboard import copy_with

        if not await copy_with(command, text):
            App.copy_to_clipboard(self, text)

    # --- themes: /theme is the one theme command, and it saves the choice ----------

    def get_system_commands(self, screen: Screen[Any]) -> Iterator[SystemCommand]:
        # Textual's own "Theme" entry would switch without saving, beside /theme.
        for command in super().get_system_commands(screen):
            if command.callback != self.action_change_theme:
                yield command

    def search_themes(self) -> None:
        """The theme picker; a choice runs /theme, which switches and saves it."""
        from textual.command import CommandPalette

        from mewcode_tui.palette import ThemeChoices

        self.push_screen(CommandPalette(providers=[ThemeChoices], placeholder="Search for themes…"))

    def get_theme_variable_defaults(self) -> dict[str, str]:
        """Textual's defaults plus MewCode's semantic colours, which a theme may override."""
        from mewcode_tui.theme_styles import SEMANTIC_COLORS

        return {**super().get_theme_variable_defaults(), **SEMANTIC_COLORS}

    def get_driver_class(self) -> type[Driver]:
        driver = super().get_driver_class()
        from textual.drivers.linux_driver import LinuxDriver

        if driver is LinuxDriver:  # a preload child must not take the terminal after `bg`
            from mewcode_tui.terminal_driver import ForegroundLinuxDriver

            return ForegroundLinuxDriver
        return driver

    @property
    def main_screen(self) -> MainScreen:
        return self._main

    def get_default_screen(self) -> MainScreen:
        # The chat is the first screen, so the first frame is the real one.
        return self._main

    def on_mount(self) -> None:
        self.app_resume_signal.subscribe(self, self._repaint_after_resume)
        self.set_interval(TERMINAL_CHECK_S, self._exit_if_terminal_gone)
        for warning in self._startup_warnings:
            self._main.call_after_refresh(self._main.say, warning, "warning")

    def on_ready(self) -> None:
        # Read now, not at import: a preload child gets the caller's environment late.
        if os.environ.get(FIRST_PAINT_EXIT_ENV):
            os.write(1, f"{time.time()}\n".encode())  # sys.stdout is captured while we run
            self.exit(0)

    def _exit_if_terminal_gone(self) -> None:
        # A hung-up terminal may send no SIGHUP (the UI was not in its foreground group),
        # and Textual's input thread then reads end-of-file forever: leave instead.
        try:
            os.tcgetpgrp(sys.__stdin__.fileno())
        except (OSError, ValueError, AttributeError) as exc:
            if getattr(exc, "errno", None) == errno.EIO:
                self.exit(128 + signal.SIGHUP)

    def _repaint_after_resume(self, _app: object) -> None:
        # Back from Ctrl+Z/fg on a fresh alternate screen: Textual redraws only what
        # changes, so without a full refresh the screen stays blank but for the prompt.
        self.refresh(repaint=True, layout=True)
