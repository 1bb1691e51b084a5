"""The two-line status bar (docs/manual.md#the-full-screen-ui), driven by reactives.

The folder, model and phase detail are shown through ``visible_text``: a cloned
folder's name may hold an escape sequence.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from rich.style import Style
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from agent_core.modes import Mode
from agent_core.protocol.views import McpServerStatus
from agent_core.terminal_text import visible_text
from mewcode_tui.theme_styles import semantic_style

# Theme colour names (mewcode_tui/theme_styles.py) per mode and phase; bold/dim are set here.
MODE_COLORS = {
    "default": "mode-default",
    "acceptEdits": "mode-accept-edits",
    "plan": "mode-plan",
    "bypassPermissions": "mode-bypass",
}
PHASE_STYLES = {
    "idle": ("phase-idle", Style(dim=True)),
    "thinking": ("phase-thinking", Style()),
    "streaming": ("phase-streaming", Style()),
    "tool": ("phase-tool", Style()),
    "approval": ("phase-approval", Style(bold=True)),
}
BOLD = Style(bold=True)


class _Tokens(Protocol):
    @property
    def input_tokens(self) -> int: ...

    @property
    def output_tokens(self) -> int: ...

    @property
    def cache_read_tokens(self) -> int: ...


class _Sandbox(Protocol):
    @property
    def available(self) -> bool: ...


class ShownSnapshot(Protocol):
    """The snapshot figures the bar shows (``SessionSnapshot`` has them; a widget never
    imports the protocol's sandbox and MCP types behind it)."""

    @property
    def model(self) -> str: ...

    @property
    def mode(self) -> Mode: ...

    @property
    def context_tokens(self) -> int: ...

    @property
    def context_window(self) -> int: ...

    @property
    def usage(self) -> _Tokens: ...

    @property
    def cost_usd(self) -> float: ...

    @property
    def sandbox(self) -> _Sandbox: ...

    @property
    def mcp(self) -> Sequence[McpServerStatus]: ...


def compact_number(n: int) -> str:
    """12345 -> '12.3k'."""
    if n < 1000:
        return str(n)
    if n < 1_000_000:
        return f"{n / 1000:.1f}k"
    return f"{n / 1_000_000:.1f}M"


def context_bar(used: int, window: int, width: int = 10) -> tuple[str, int]:
    """A bar like '▰▰▰▱▱▱▱▱▱▱' and the percentage used."""
    percent = min(100, round(100 * used / window)) if window else 0
    filled = min(width, math.ceil(width * percent / 100))  # any use shows
    return "▰" * filled + "▱" * (width - filled), percent


def short_path(path: Path, home: Path | None = None) -> str:
    home = home or Path.home()
    try:
        return "~/" + str(path.relative_to(home)) if path != home else "~"
    except ValueError:
        return str(path)


def format_elapsed(seconds: float) -> str:
    seconds = int(seconds)
    if seconds < 60:
        return f"{seconds}s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}m{seconds:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m"


class StatusBar(Widget):
    """Mode, MCP and skills; then model, phase, context, tokens, cache, cost, time, cwd."""

    DEFAULT_CSS = """
    StatusBar {
        height: 2;
        padding: 0 1;
        background: $panel;
        color: $text;
    }
    """

    mode: reactive[Mode] = reactive("default")
    mcp_servers: reactive[int] = reactive(0)  # configured and allowed to start
    mcp_connected: reactive[int] = reactive(0)
    mcp_failed: reactive[int] = reactive(0)
    mcp_untrusted: reactive[int] = reactive(0)  # project servers waiting for trust
    skills: reactive[int] = reactive(0)
    model: reactive[str] = reactive("")
    phase: reactive[str] = reactive("idle")
    phase_detail: reactive[str] = reactive("")
    context_tokens: reactive[int] = reactive(0)
    context_window: reactive[int] = reactive(0)
    input_tokens: reactive[int] = reactive(0)
    output_tokens: reactive[int] = reactive(0)
    cache_read_tokens: reactive[int] = reactive(0)
    cost_usd: reactive[float] = reactive(0.0)
    elapsed: reactive[float] = reactive(0.0)
    cwd: reactive[str] = reactive("")
    unsandboxed: reactive[bool] = reactive(False)  # no OS sandbox on this machine

    def show_snapshot(self, snap: ShownSnapshot) -> None:
        """Copy a session snapshot's figures (model, mode, context, usage, cost, MCP)."""
        self.model = snap.model
        self.mode = snap.mode
        self.context_tokens = snap.context_tokens
        self.context_window = snap.context_window
        self.input_tokens = snap.usage.input_tokens
        self.output_tokens = snap.usage.output_tokens
        self.cache_read_tokens = snap.usage.cache_read_tokens
        self.cost_usd = snap.cost_usd
        self.unsandboxed = not snap.sandbox.available
        self.show_mcp(snap.mcp)
        if self.phase in ("starting", "no session"):
            self.phase = "idle"

    def show_mcp(self, statuses: Sequence[McpServerStatus]) -> None:
        """Count the servers by state: connected of those that may start, failed, untrusted."""
        states = [s.state for s in statuses]
        self.mcp_untrusted = states.count("needs-trust")
        self.mcp_servers = len(states) - self.mcp_untrusted
        self.mcp_connected = states.count("connected")
        self.mcp_failed = states.count("failed")

    def _mcp_text(self) -> Text:
        """'MCP 2/3', the failed ones in the warning colour; 'MCP 0' when none is configured."""
        text = Text("MCP ")
        if not self.mcp_servers and not self.mcp_untrusted:
            text.append("0")
            return text
        failed = self._color("mcp-failed") + BOLD if self.mcp_failed else Style()
        text.append(f"{self.mcp_connected}/{self.mcp_servers}", style=failed)
        if self.mcp_failed:
            text.append(f" {self.mcp_failed} failed", style=failed)
        if self.mcp_untrusted:
            text.append(f" +{self.mcp_untrusted} untrusted", style="dim")
        return text

    def _color(self, name: str) -> Style:
        return semantic_style(self.app, name)

    def render(self) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append("mode ", style="dim")
        color = MODE_COLORS.get(self.mode, "mode-default")
        text.append(self.mode, style=self._color(color) + BOLD)
        if self.mode == "plan":
            text.append(" (read-only)", style="dim")
        text.append("  ·  ", style="dim")
        text.append_text(self._mcp_text())
        text.append("  ·  ", style="dim")
        text.append(f"skills {self.skills}")
        if self.unsandboxed:
            text.append("  ·  ", style="dim")
            text.append("⚠ no sandbox", style=self._color("warning-strong") + BOLD)
        text.append("\n")
        text.append(visible_text(self.model) or "no model", style="bold")
        text.append("  ")
        detail = visible_text(self.phase_detail)
        phase = self.phase + (f" {detail}" if detail else "")
        if self.phase in PHASE_STYLES:
            color, attributes = PHASE_STYLES[self.phase]
            text.append(phase, style=self._color(color) + attributes)
        else:
            text.append(phase)  # "starting", "no session": plain
        bar, percent = context_bar(self.context_tokens, self.context_window)
        text.append("  ctx ", style="dim")
        level = "ctx-high" if percent >= 80 else "ctx-low" if percent < 50 else "ctx-mid"
        text.append(bar, style=self._color(level))
        text.append(f" {percent}%")
        text.append("  ↑", style="dim")
        text.append(compact_number(self.input_tokens))
        text.append(" ↓", style="dim")
        text.append(compact_number(self.output_tokens))
        text.append("  cache ", style="dim")
        text.append(compact_number(self.cache_read_tokens))
        text.append(f"  ${self.cost_usd:.4f}")
        text.append("  ⏱ ", style="dim")
        text.append(format_elapsed(self.elapsed))
        text.append("  " + visible_text(self.cwd), style="dim")
        return text
