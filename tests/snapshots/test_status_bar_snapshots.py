"""SVG snapshots of the main screen at 80x24 and 60x16: the status bar leaves whole fields out,
and an approval keeps cost and time (fixed clock and paths, as the main screen's snapshots).

Update after an intended visual change with
``pytest tests/snapshots/test_status_bar_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

import pytest

from agent_core import events as ev
from agent_core.usage import Usage
from tests.snapshots.test_main_screen_snapshots import FIXED_CWD, conversation, make_app
from tests.tui.conftest import past_key_guard, session_started, wait_until
from tests.tui.fakes import FakeProvider, FakeRuntime, tool_call

COMMAND = "rm -rf build/ dist/ && python -m build --wheel && twine upload dist/*"


@pytest.fixture(autouse=True)
def colors_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)


def asks_to_run(runtime: FakeRuntime):
    async def script(send, prompt):
        await send(ev.TurnStarted(turn_id="t2", input=prompt))
        await send(tool_call("c9", "Bash", COMMAND, command=COMMAND))
        await send(ev.Status(phase="approval", detail=COMMAND))
        await runtime.ask(
            send,
            ev.ApprovalRequested(
                approval_id="a9",
                call_id="c9",
                tool="Bash",
                input={"command": COMMAND},
                reason="commands need approval in default mode",
                layer="mode",
                suggested_rules=[f"Bash({COMMAND})"],
            ),
        )

    return script


async def one_turn_done(pilot, app, runtime: FakeRuntime):
    """The conversation of the main screen's snapshot, with its figures: 42 s, $0.0312."""
    screen = await session_started(pilot, app)
    screen.prompt.cursor_blink = False
    await pilot.press(*"Make the greeting friendlier", "enter")
    await wait_until(pilot, lambda: runtime.prompts and not screen.turn_active)
    runtime.usage = Usage(18_400, 920, 12_000)
    runtime.cost_usd, runtime.context_tokens = 0.0312, 61_000
    screen.refresh_status()
    return screen


def runtime_with(*scripts) -> FakeRuntime:
    runtime = FakeRuntime(FIXED_CWD, list(scripts))
    runtime.provider = FakeProvider(model="claude-sonnet-4-5")
    return runtime


@pytest.mark.parametrize("size", [(80, 24), (60, 16)], ids=["80x24", "60x16"])
def test_main_screen_after_a_turn(snap_compare, mewcode_home, size):
    runtime = runtime_with(conversation)
    app = make_app(mewcode_home, runtime)

    async def run_before(pilot) -> None:
        await one_turn_done(pilot, app, runtime)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


def test_main_screen_during_an_approval_at_80x24(snap_compare, mewcode_home):
    now = [1000.0]

    async def a_42_second_turn(send, prompt):
        await conversation(send, prompt)
        now[0] += 42

    runtime = runtime_with(a_42_second_turn)
    runtime.scripts.append(asks_to_run(runtime))
    app = make_app(mewcode_home, runtime)
    app.main_screen.clock = lambda: now[0]  # before the first frame: the screen's only clock

    async def run_before(pilot) -> None:
        from mewcode_tui.screens.approval import ApprovalScreen

        screen = await one_turn_done(pilot, app, runtime)
        assert screen.status.elapsed == 42
        await pilot.press(*"Publish it", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ApprovalScreen))
        await past_key_guard(pilot, app)
        now[0] += 17  # the approval has waited 17 s: the bar's timer counts this turn
        await wait_until(pilot, lambda: screen.status.phase == "approval")
        await wait_until(pilot, lambda: screen.status.elapsed == 17)

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
