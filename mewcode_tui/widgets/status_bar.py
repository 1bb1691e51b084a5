"""The two-line status bar (docs/manual.md#the-full-screen-ui), driven by reactives.

A narrow terminal drops whole fields by rank (``fit_line``; ``StatusBar`` lists the
ranks). The folder, model and phase detail are shown through ``visible_text``: a
cloned folder's name may hold an escape sequence.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from rich.cells import cell_len
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
DETAIL_CELLS = 30  # the phase detail's longest form: a command or path is cut with "…"

# Field ranks, 0 kept longest (StatusBar's docstring says why this order).
LINE_1_RANKS = {"mode": 0, "sandbox": 1, "mcp": 2, "skills": 3}
LINE_2_RANKS = {
    "phase": 0,
    "context": 1,
    "model": 2,
    "cost": 3,
    "elapsed": 4,
    "tokens": 5,
    "detail": 6,
    "cache": 7,
    "cwd": 8,
}


@dataclass(frozen=True)
class StatusField:
    """One field of a status line: its text, its rank (0 is dropped last) and the
    text that joins it to the field shown before it."""

    name: str
    text: Text
    rank: int
    joiner: Text


def fit_line(fields: Sequence[StatusField], width: int) -> Text:
    """The best-ranked fields whose whole texts fit in ``width`` cells, in their order.

    The shown fields are always the ``k`` best-ranked (ties go by position), for the
    largest ``k`` that fits: a field is never cut, nor left out while a worse one shows.
    """
    by_rank = sorted(range(len(fields)), key=lambda i: (fields[i].rank, i))
    shown: list[int] = []
    for index in by_rank:
        trial = sorted([*shown, index])
        if _width(fields, trial) > width:
            break
        shown = trial
    line = Text(no_wrap=True, overflow="crop")
    for position, index in enumerate(shown):
        if position:
            line.append_text(fields[index].joiner)
        line.append_text(fields[index].text)
    return line


def _width(fields: Sequence[StatusField], shown: Sequence[int]) -> int:
    texts = [fields[i].text.cell_len for i in shown]
    joiners = [fields[i].joiner.cell_len for i in shown[1:]]
    return sum(texts) + sum(joiners)


def shorten(text: str, cells: int) -> str:
    """``text`` cut to ``cells`` cells, ending in "…" when it was longer."""
    if cell_len(text) <= cells:
        return text
    while text and cell_len(text) > cells - 1:
        text = text[:-1]
    return text.rstrip() + "…"


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
    """Mode, MCP and skills; then model, phase, context, tokens, cache, cost, time, cwd.

    Each line is a row of fields, and a line too narrow for all of them drops whole
    fields, never part of one. Each field has a rank (``LINE_1_RANKS``,
    ``LINE_2_RANKS``); a line shows the best-ranked fields that fit, in their usual
    order, and never a worse-ranked field while a better one is left out. Best first,
    as a Claude Code user looks at them (what is also shown elsewhere goes first):

    - line 1: permission mode, the no-sandbox warning, MCP servers, skills;
    - line 2: phase, context bar and percent, model, cost, elapsed time, tokens
      in/out, the phase's detail (the approval dialog and the working line show it
      too), cache hits, working directory.

    So an approval's long detail is dropped before cost and time are. The detail is
    its first line cut to ``DETAIL_CELLS`` cells at any width: that is the field's
    form, not the layout cutting it.
    """

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
        width = self.size.width
        text = fit_line(self._first_line(), width)
        text.append("\n")
        text.append_text(fit_line(self._second_line(), width))
        return text

    def _first_line(self) -> list[StatusField]:
        mode = Text.assemble(("mode ", "dim"))  # a span: Text("…", style=) would dim it all
        color = MODE_COLORS.get(self.mode, "mode-default")
        mode.append(self.mode, style=self._color(color) + BOLD)
        if self.mode == "plan":
            mode.append(" (read-only)", style="dim")
        fields = [
            ("mode", mode),
            ("mcp", self._mcp_text()),
            ("skills", Text(f"skills {self.skills}")),
        ]
        if self.unsandboxed:
            warning = Text("⚠ no sandbox", style=self._color("warning-strong") + BOLD)
            fields.append(("sandbox", warning))
        joiner = Text("  ·  ", style="dim")
        return [StatusField(name, text, LINE_1_RANKS[name], joiner) for name, text in fields]

    def _second_line(self) -> list[StatusField]:
        if self.phase in PHASE_STYLES:
            color, attributes = PHASE_STYLES[self.phase]
            phase_style = self._color(color) + attributes
        else:
            phase_style = Style()  # "starting", "no session": plain
        bar, percent = context_bar(self.context_tokens, self.context_window)
        level = "ctx-high" if percent >= 80 else "ctx-low" if percent < 50 else "ctx-mid"
        context = Text.assemble(("ctx ", "dim"), (bar, self._color(level)), f" {percent}%")
        tokens = Text.assemble(
            ("↑", "dim"),
            compact_number(self.input_tokens),
            (" ↓", "dim"),
            compact_number(self.output_tokens),
        )
        fields = [
            ("model", Text(visible_text(self.model) or "no model", style="bold")),
            ("phase", Text(self.phase, style=phase_style)),
        ]
        lines = self.phase_detail.strip().splitlines()
        detail = shorten(visible_text(lines[0]), DETAIL_CELLS) if lines else ""
        if detail:
            fields.append(("detail", Text(detail, style=phase_style)))
        fields += [
            ("context", context),
            ("tokens", tokens),
            ("cache", Text.assemble(("cache ", "dim"), compact_number(self.cache_read_tokens))),
            ("cost", Text(f"${self.cost_usd:.4f}")),
            ("elapsed", Text.assemble(("⏱ ", "dim"), format_elapsed(self.elapsed))),
        ]
        if self.cwd:
            fields.append(("cwd", Text(visible_text(self.cwd), style="dim")))
        detail_joiner, joiner = Text(" ", style=phase_style), Text("  ", style="dim")
        return [
            StatusField(
                name, text, LINE_2_RANKS[name], detail_joiner if name == "detail" else joiner
            )
            for name, text in fields
        ]
