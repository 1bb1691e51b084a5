"""What the prompt's menu offers as the user types: slash commands after ``/``, and the
project's files after ``@`` (ranked in a thread, so a big tree never blocks typing)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from pathlib import Path

    from textual.app import App

    from mewcode_tui.commands.registry import CommandRegistry
    from mewcode_tui.completion import Candidate, CompletionQuery, FileIndex
    from mewcode_tui.widgets.completion_menu import CompletionMenu
    from mewcode_tui.widgets.prompt_input import PromptInput


class CompletingScreen(Protocol):
    @property
    def app(self) -> App[Any]: ...

    @property
    def registry(self) -> CommandRegistry: ...

    menu: CompletionMenu
    prompt: PromptInput

    def run_worker(self, work: Any, *, thread: bool = ..., exclusive: bool = ...,
                   group: str = ...) -> object: ...  # fmt: skip


class PromptCompletion:
    """The menu's candidates for the prompt's current query."""

    def __init__(self, screen: CompletingScreen, cwd: Path) -> None:
        self._screen = screen
        self._cwd = cwd
        self._files: FileIndex | None = None

    def forget(self, cwd: Path) -> None:
        """The screen's folder changed: index ``cwd`` when next asked."""
        self._cwd, self._files = cwd, None

    def files(self) -> FileIndex:
        if self._files is None:
            from mewcode_tui.completion import FileIndex

            self._files = FileIndex(self._cwd)
        return self._files

    def query_changed(self, query: CompletionQuery | None) -> None:
        screen = self._screen
        if query is None:
            screen.menu.hide()
        elif query.trigger == "/":
            from mewcode_tui.completion import rank_commands

            screen.menu.show(query, rank_commands(query.fragment, screen.registry.choices()))
        else:
            screen.run_worker(
                lambda: self._rank_files(query), thread=True, exclusive=True,
                group="file-completion",
            )  # fmt: skip

    def _rank_files(self, query: CompletionQuery) -> None:
        from mewcode_tui.completion import rank_paths

        candidates = rank_paths(query.fragment, self.files().files())
        self._screen.app.call_from_thread(self._show, query, candidates)

    def _show(self, query: CompletionQuery, candidates: list[Candidate]) -> None:
        if self._screen.prompt.current_query() == query:
            self._screen.menu.show(query, candidates)
