"""Ctrl+P command palette: slash commands, screen actions and the theme picker.

A custom command's or skill's description comes from a project file: it is shown
through ``visible_text``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider

from agent_core.terminal_text import visible_text


class MewCodeCommands(Provider):
    """Every slash command plus the main screen's actions."""

    def _items(self) -> list[tuple[str, str, Callable[[], object]]]:
        from mewcode_tui.screens.main import MainScreen

        screen = self.screen
        if not isinstance(screen, MainScreen):
            return []
        items: list[tuple[str, str, Callable[[], object]]] = [
            ("Cycle permission mode", "default → acceptEdits → plan", screen.action_cycle_mode),
            ("Expand/collapse all tool calls", "Ctrl+O", screen.action_toggle_calls),
            ("Cancel the running turn", "Esc", screen.action_cancel_turn),
        ]
        for command in screen.registry.all():
            label = "/" + command.name
            if command.name == "theme":
                action = screen.app.search_themes  # a list of themes; the choice runs /theme
            elif command.usage:
                action = partial(screen.prefill, label + " ")
            else:
                action = partial(screen.run_command_text, label)
            items.append((visible_text(label), visible_text(command.description), action))
        return items

    async def discover(self) -> Hits:
        for label, help_text, action in self._items():
            yield DiscoveryHit(label, action, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for label, help_text, action in self._items():
            score = matcher.match(label)
            if score > 0:
                yield Hit(score, matcher.highlight(label), action, help=help_text)


class ThemeChoices(Provider):
    """The registered themes; choosing one runs ``/theme NAME``, which switches and saves it."""

    def _choose(self, name: str) -> None:
        from mewcode_tui.app import MewCodeApp

        if isinstance(self.app, MewCodeApp):
            self.app.main_screen.run_command_text(f"/theme {name}")

    def _themes(self) -> list[tuple[str, str]]:
        current = self.app.theme
        return [(n, "current" if n == current else "") for n in sorted(self.app.available_themes)]

    async def discover(self) -> Hits:
        for name, help_text in self._themes():
            yield DiscoveryHit(name, partial(self._choose, name), help=help_text or None)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, help_text in self._themes():
            score = matcher.match(name)
            if score > 0:
                yield Hit(
                    score,
                    matcher.highlight(name),
                    partial(self._choose, name),
                    help=help_text or None,
                )
