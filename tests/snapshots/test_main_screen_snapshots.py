"""SVG snapshots of the main screen mid-conversation (fixed size, clock and paths).

Update after an intended visual change with ``pytest tests/snapshots --snapshot-update``.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from agent_core import events as ev
from agent_core.config.paths import MewcodePaths
from agent_core.config.settings import Settings
from agent_core.usage import Usage
from mewcode_tui.app import MewCodeApp
from mewcode_tui.session_start import TuiOptions
from tests.tui.conftest import session_started, wait_until
from tests.tui.fakes import FakeRuntime, opener_for, tool_call, tool_result

SIZE = (100, 52)
FIXED_CWD = Path("/home/user/project")
DIFF = """--- a/app.py
+++ b/app.py
@@ -1,3 +1,3 @@
 import sys
-print("hello")
+print("hello, world")
 sys.exit(0)
"""
ANSWER = (
    "## Done\n\nThe greeting now says `hello, world`.\n\n"
    '```python\nprint("hello, world")\n```\n\n- one edit in `app.py`\n- no tests needed\n'
)


@pytest.fixture(autouse=True)
def colors_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)


async def conversation(send, prompt):
    await send(ev.TurnStarted(turn_id="t", input=prompt))
    await send(ev.ThinkingDelta(text="The user wants a friendlier greeting. "))
    await send(ev.ThinkingDelta(text="Read app.py first, then edit it."))
    await send(ev.AssistantMessage(content=[], usage=Usage()))
    await send(tool_call("c1", "Read", "app.py", file_path="app.py"))
    await send(tool_call("c2", "Grep", "'hello' in .", pattern="hello"))
    await send(tool_result("c1", "Read", 'import sys\nprint("hello")\nsys.exit(0)\n', 4))
    await send(tool_result("c2", "Grep", 'app.py:2:print("hello")', 23))
    await send(ev.AssistantMessage(content=[], usage=Usage()))
    await send(tool_call("c3", "Edit", "app.py", file_path="app.py"))
    await send(ev.PermissionDecision(call_id="c3", decision="allow", layer="mode", reason="ok"))
    await send(ev.FileDiff(call_id="c3", path="app.py", diff=DIFF, added=1, removed=1))
    await send(tool_result("c3", "Edit", "edited app.py", 1250))
    await send(
        ev.UsageUpdate(
            input_tokens=18_400,
            output_tokens=920,
            cache_read_tokens=12_000,
            cache_write_tokens=0,
            cost_usd=0.0312,
            context_tokens=61_000,
            context_window=200_000,
        )
    )
    await send(ev.MessageDelta(text=ANSWER[:40]))
    await send(ev.MessageDelta(text=ANSWER[40:]))
    await send(ev.AssistantMessage(content=[], usage=Usage()))


def make_app(mewcode_home: Path, runtime: FakeRuntime) -> MewCodeApp:
    paths = MewcodePaths(home=mewcode_home, project=FIXED_CWD)
    options = TuiOptions(cwd=FIXED_CWD, paths=paths, settings=Settings(), provider_name="fake")
    ticks = iter([1000.0, 1042.0])
    return MewCodeApp(
        options,
        provider=SimpleNamespace(name="fake", model="fake-model"),
        opener=opener_for(runtime),
        clock=lambda: next(ticks, 1042.0),
    )


def test_main_screen_mid_conversation(snap_compare, mewcode_home):
    runtime = FakeRuntime(FIXED_CWD, [conversation])
    app = make_app(mewcode_home, runtime)

    async def run_before(pilot) -> None:
        screen = await session_started(pilot, app)  # the welcome line is in the picture
        screen.prompt.cursor_blink = False
        await pilot.press(*"Make the greeting friendlier", "enter")
        await wait_until(pilot, lambda: runtime.prompts and not screen.turn_active)
        runtime.usage = Usage(18_400, 920, 12_000)  # what the real runtime would report
        runtime.cost_usd, runtime.context_tokens = 0.0312, 61_000
        screen.refresh_status()
        await pilot.press("tab", "enter")  # open the edit's details with its diff
        await wait_until(pilot, lambda: bool(screen.query("ToolCallDetail DiffCode")))

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_main_screen_slash_completion(snap_compare, mewcode_home):
    runtime = FakeRuntime(FIXED_CWD)
    app = make_app(mewcode_home, runtime)

    async def run_before(pilot) -> None:
        screen = await session_started(pilot, app)  # the welcome line is in the picture
        screen.prompt.cursor_blink = False
        await pilot.press("/", "p")
        # Open for "/p", not still showing what "/" alone offered.
        await wait_until(
            pilot,
            lambda: screen.menu.is_open and screen.menu.query_shown.fragment.endswith("p"),
        )

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
