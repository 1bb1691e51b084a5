"""Claude Code's command folders in the UI: completion, /help and the prompt sent."""

from __future__ import annotations

import os
from pathlib import Path

from mewcode_tui.transcript import NoticeEntry, UserEntry
from tests.tui.conftest import wait_until
from tests.tui.fakes import FakeRuntime


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


async def test_claude_commands_complete_and_send_their_expanded_prompt(make_app, project):
    home = Path(os.environ["HOME"])
    write(
        project / ".claude/commands/frontend/component.md",
        "---\ndescription: Make a component\nargument-hint: [name] [folder]\n---\n"
        "Create the $1 component in $2.\n",
    )
    write(home / ".claude/commands/greet.md", "Say hello to $ARGUMENTS.")
    runtime = FakeRuntime(project)
    app = make_app(runtime)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = app.main_screen
        await wait_until(pilot, lambda: screen.session_ready)
        await pilot.press(*"/frontend:comp")
        await wait_until(pilot, lambda: screen.menu.is_open)
        assert screen.menu.candidates[0].detail == "Make a component"
        await pilot.press("tab", *"Button src/ui", "enter")
        await wait_until(pilot, lambda: runtime.prompts and not screen.turn_active)
        assert runtime.prompts == ["Create the Button component in src/ui.\n"]
        users = [e.text for e in screen.transcript.entries if isinstance(e, UserEntry)]
        assert users == ["/frontend:component Button src/ui"]
        screen.prompt.insert("/greet Ada")
        await pilot.pause()
        screen.menu.hide()
        await pilot.press("enter")
        await wait_until(pilot, lambda: len(runtime.prompts) == 2 and not screen.turn_active)
        assert runtime.prompts[1] == "Say hello to Ada."
        screen.prompt.insert("/help")
        await pilot.pause()
        screen.menu.hide()
        await pilot.press("enter")
        notices = lambda: [e.text for e in screen.transcript.entries if isinstance(e, NoticeEntry)]  # noqa: E731
        await wait_until(pilot, lambda: "/frontend:component" in notices()[-1])
        assert "/greet" in notices()[-1]
