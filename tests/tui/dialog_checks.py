"""What a user sees of a dialog: which of its lines are on screen, and a real runtime to ask."""

from __future__ import annotations

from textual.app import App
from textual.errors import NoWidget
from textual.widget import Widget

from agent_core.agent.runtime import Runtime, RuntimeOptions
from mewcode_tui.app import MewCodeApp


def rows_on_screen(app: App, widget: Widget) -> int:
    """How many of ``widget``'s lines the user sees (not clipped, not covered, above the footer)."""
    region = widget.region
    footer = app.screen.size.height - 1
    seen = 0
    for y in range(region.y, min(region.bottom, footer)):
        try:
            hit, _ = app.screen.get_widget_at(region.x + 2, y)
        except NoWidget:
            continue
        seen += hit is widget
    return seen


def choice_lines(app: App) -> list[str]:
    """The dialog's choices as the user reads them."""
    return str(app.screen.query_one("#options").render()).splitlines()


def make_builtin_tools_app(options, provider) -> MewCodeApp:
    """The real runtime with the built-in tools (Read, Edit, ExitPlanMode, ...)."""

    async def opener(opts, prov):
        return await Runtime.open(
            RuntimeOptions(
                cwd=opts.cwd,
                paths=opts.paths,
                settings=opts.settings,
                provider=prov,
                mode=opts.mode,
            )
        )

    return MewCodeApp(options, provider=provider, opener=opener, clock=lambda: 0.0)
