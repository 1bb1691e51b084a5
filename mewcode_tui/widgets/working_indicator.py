"""The line above the prompt that says the agent is working, and for how long."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.timer import Timer
from textual.widget import Widget

from agent_core.terminal_text import visible_text


def elapsed_text(seconds: float) -> str:
    """``7s``, ``1m 05s``: whole seconds, as the indicator shows them."""
    whole = max(0, int(seconds))
    return f"{whole}s" if whole < 60 else f"{whole // 60}m {whole % 60:02d}s"


class WorkingIndicator(Widget):
    """``✻ Thinking… 3s · esc to interrupt`` while the model has not answered yet.

    Hidden (and its timer stopped) otherwise, so it costs nothing when idle.
    """

    DEFAULT_CSS = """
    WorkingIndicator {
        display: none;
        height: 1;
        padding: 0 2;
        color: $text-accent;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    WorkingIndicator.-working {
        display: block;
    }
    """

    def __init__(self, clock: Callable[[], float], id: str | None = None) -> None:
        super().__init__(id=id)
        self.clock = clock
        self.label = ""
        self.since = 0.0
        self.hint = "esc to interrupt"
        self._timer: Timer | None = None

    @property
    def working(self) -> bool:
        return self.has_class("-working")

    def show(self, label: str, since: float, hint: str) -> None:
        """Say ``label``, counting seconds from ``since`` (a reading of ``clock``)."""
        self.label, self.since, self.hint = label, since, hint
        self.add_class("-working")
        if self._timer is None:
            self._timer = self.set_interval(1.0, self.refresh)
        self.refresh()

    def hide(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self.remove_class("-working")

    def render(self) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(f"✻ {visible_text(self.label)} ")  # it names the command that runs
        text.append(elapsed_text(self.clock() - self.since), style="bold")
        text.append(f" · {self.hint}", style="dim")
        return text
