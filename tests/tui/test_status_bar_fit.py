"""At 80 and 60 columns the status bar leaves whole fields out; during an approval cost and
time stay while they fit."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult

from mewcode_tui.widgets.status_bar import StatusBar

LONG_COMMAND = "rm -rf build/ dist/ && python -m build --wheel && twine upload dist/*"


class BarApp(App[None]):
    def compose(self) -> ComposeResult:
        yield StatusBar()


def fill(bar: StatusBar) -> None:
    """What a session an hour in shows: a long model name, a long folder, some spend."""
    bar.mode = "acceptEdits"
    bar.mcp_servers, bar.mcp_connected, bar.mcp_failed, bar.mcp_untrusted = 3, 2, 1, 1
    bar.skills = 4
    bar.unsandboxed = True
    bar.model = "claude-sonnet-4-5-20250929"
    bar.context_tokens, bar.context_window = 50_000, 200_000
    bar.input_tokens, bar.output_tokens, bar.cache_read_tokens = 18_400, 920, 12_000
    bar.cost_usd = 0.01
    bar.elapsed = 42
    bar.cwd = "~/src/a-project-with-a-rather-long-name"


async def lines(width: int, phase: str, detail: str = "") -> list[str]:
    app = BarApp()
    async with app.run_test(size=(width, 4)) as pilot:
        bar = app.query_one(StatusBar)
        fill(bar)
        bar.phase, bar.phase_detail = phase, detail
        await pilot.pause()
        return bar.render().plain.split("\n")


async def test_at_80_columns_an_approval_of_a_long_command_keeps_cost_and_time():
    first, second = await lines(80, "approval", LONG_COMMAND)
    assert "approval" in second and "ctx ▰▰▰▱▱▱▱▱▱▱ 25%" in second
    assert "$0.0100" in second and "⏱ 42s" in second
    assert "rm -rf" not in second and "cache" not in second and "~/src" not in second
    assert first.startswith("mode acceptEdits") and "⚠ no sandbox" in first
    assert "…" not in first + second


@pytest.mark.parametrize("width", [60, 80, 100])
@pytest.mark.parametrize(("phase", "detail"), [("idle", ""), ("approval", LONG_COMMAND)])
async def test_every_field_shown_is_whole(width, phase, detail):
    whole = [
        "mode acceptEdits",
        "MCP 2/3 1 failed +1 untrusted",
        "skills 4",
        "⚠ no sandbox",
        "claude-sonnet-4-5-20250929",
        phase,
        "ctx ▰▰▰▱▱▱▱▱▱▱ 25%",
        "↑18.4k ↓920",
        "cache 12.0k",
        "$0.0100",
        "⏱ 42s",
        "~/src/a-project-with-a-rather-long-name",
    ]
    if detail:
        whole.append(LONG_COMMAND[:29].rstrip() + "…")
    for line in await lines(width, phase, detail):
        assert len(line) <= width - 2  # the bar's padding
        rest = line
        for text in sorted(whole, key=len, reverse=True):
            rest = rest.replace(text, "", 1)
        assert set(rest) <= {" ", "·"}, (line, rest)  # nothing but joiners is left over
