"""MewCode's own semantic colours, as Textual theme variables a theme file can override.

The defaults are the ANSI colours the status bar and tool lines always used, so the
default look is unchanged. ``ansi_default`` means "no colour of its own": the text
keeps the widget's colour (bold and dim stay attributes set in code). A theme sets
any of these under ``variables:``; CSS may use them too (``color: $tool-ok``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from rich.style import Style

if TYPE_CHECKING:
    from textual.app import App

SEMANTIC_COLORS: dict[str, str] = {
    # Permission mode, first line of the status bar.
    "mode-default": "ansi_default",
    "mode-accept-edits": "ansi_green",
    "mode-plan": "ansi_cyan",
    "mode-bypass": "ansi_red",
    # What the agent is doing, second line of the status bar.
    "phase-idle": "ansi_default",
    "phase-thinking": "ansi_magenta",
    "phase-streaming": "ansi_cyan",
    "phase-tool": "ansi_yellow",
    "phase-approval": "ansi_magenta",
    # A tool call's status icon.
    "tool-pending": "ansi_default",
    "tool-running": "ansi_yellow",
    "tool-awaiting": "ansi_magenta",
    "tool-ok": "ansi_green",
    "tool-error": "ansi_red",
    "tool-denied": "ansi_red",
    "tool-cancelled": "ansi_default",
    # Lines added and removed by an edit.
    "diff-added": "ansi_green",
    "diff-removed": "ansi_red",
    # "⚠ no sandbox": the one warning that stays on screen.
    "warning-strong": "ansi_red",
    # The status bar's MCP count when a server failed.
    "mcp-failed": "ansi_yellow",
    # The context bar: under 50 %, 50-79 %, 80 % and over.
    "ctx-low": "ansi_green",
    "ctx-mid": "ansi_yellow",
    "ctx-high": "ansi_red",
}

_NO_COLOR = Style()
# Per app: the theme_variables dict the styles were made from, and the styles.
# Textual builds a new dict on every theme change, so identity says "still valid".
_styles: WeakKeyDictionary[App[object], tuple[dict[str, str], dict[str, Style]]]
_styles = WeakKeyDictionary()


def style_for_color(value: str) -> Style:
    """The Rich style (colour only) for a theme colour value; ``ansi_default`` is none."""
    from textual.color import Color, ColorParseError

    try:
        color = Color.parse(value)
    except ColorParseError:
        return _NO_COLOR  # themes.py rejects these; a theme made in code may not
    if color.ansi == -1:
        return _NO_COLOR
    return Style(color=color.rich_color)


def semantic_style(app: App[object], name: str) -> Style:
    """The active theme's colour for ``name`` (a key of SEMANTIC_COLORS) as a Rich style.

    Cached per theme, so cheap enough to call on every render. Add bold/dim in code:
    ``semantic_style(app, "mode-plan") + Style(bold=True)``.
    """
    default = SEMANTIC_COLORS[name]  # KeyError for a misspelt name, not a silent no-colour
    variables = app.theme_variables
    cached = _styles.get(app)
    if cached is None or cached[0] is not variables:
        cached = (variables, {})
        _styles[app] = cached
    styles = cached[1]
    style = styles.get(name)
    if style is None:
        style = styles[name] = style_for_color(variables.get(name, default))
    return style
