"""Slash commands typed in the prompt."""

from __future__ import annotations

import subprocess

import pytest

from mewcode_tui.transcript import NoticeEntry, UserEntry
from tests.tui.conftest import wait_until
from tests.tui.fakes import FakeRuntime


def notices(screen) -> list[str]:
    return [e.text for e in screen.transcript.entries if isinstance(e, NoticeEntry)]


async def run(pilot, screen, text: str) -> None:
    """Type a command line and press Enter (typing key by key is test_main_input's part)."""
    before = screen.transcript.last
    screen.prompt.insert(text)  # Pilot spends ~60 ms a key press; these lines are long
    await pilot.pause()
    screen.menu.hide()
    await pilot.press("enter")
    await wait_until(pilot, lambda: screen.transcript.last is not before)
    await pilot.pause()


async def start(pilot, app):
    screen = app.main_screen
    await wait_until(pilot, lambda: screen.session_ready)
    return screen


async def test_help_lists_commands_and_unknown_gives_a_notice(make_app, project):
    app = make_app(FakeRuntime(project))
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await start(pilot, app)
        await run(pilot, screen, "/help")
        assert "/permissions" in notices(screen)[-1] and "/review" in notices(screen)[-1]
        await run(pilot, screen, "/frobnicate")
        assert notices(screen)[-1].startswith("Unknown command /frobnicate")
        assert screen.starter.runtime.prompts == []


async def test_permissions_lists_sources_and_removes_a_rule(make_app, project):
    runtime = FakeRuntime(project)
    app = make_app(runtime)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await start(pilot, app)
        await run(pilot, screen, "/permissions")
        listing = notices(screen)[-1]
        assert "1. allow Bash(git:*)  — /home/u/.mewcode/settings.yaml" in listing
        assert "2. allow Edit  — session" in listing
        await run(pilot, screen, "/permissions remove 2")
        assert "Removed allow rule Edit (session)" in notices(screen)[-1]
        assert [r.rule for r in runtime.rules()] == ["Bash(git:*)"]
        await run(pilot, screen, "/permissions remove 9")
        assert notices(screen)[-1] == "No rule 9: there are 1."


async def test_mode_cost_status_and_clear(make_app, project):
    runtime = FakeRuntime(project)
    app = make_app(runtime)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await start(pilot, app)
        await run(pilot, screen, "/mode acceptedits")
        assert runtime.mode == "acceptEdits" and screen.status.mode == "acceptEdits"
        await run(pilot, screen, "/cost")
        assert notices(screen)[-1].startswith("Cost this session: $0.0000")
        await run(pilot, screen, "/status")
        assert "Session fake-session" in notices(screen)[-1]
        await run(pilot, screen, "/clear")
        assert runtime.new_sessions == 1
        assert [type(e) for e in screen.transcript.entries] == [NoticeEntry]


async def test_custom_markdown_command_injects_its_prompt(make_app, project):
    folder = project / ".mewcode" / "commands"
    folder.mkdir(parents=True)
    (folder / "explain.md").write_text(
        "---\ndescription: Explain a file\n---\nExplain $ARGUMENTS in simple words.\n"
    )
    runtime = FakeRuntime(project)
    app = make_app(runtime)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await start(pilot, app)
        await pilot.press(*"/expl")
        await wait_until(pilot, lambda: screen.menu.is_open)
        assert screen.menu.candidates[0].detail == "Explain a file"
        await pilot.press("tab", *"a.py", "enter")
        await wait_until(pilot, lambda: runtime.prompts and not screen.turn_active)
        assert runtime.prompts == ["Explain a.py in simple words.\n"]
        users = [e.text for e in screen.transcript.entries if isinstance(e, UserEntry)]
        assert users == ["/explain a.py"]


@pytest.mark.slow
async def test_review_sends_the_git_diff(make_app, project):
    git = ["git", "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], cwd=project, check=True)
    (project / "a.py").write_text("x = 1\n")
    subprocess.run([*git, "add", "."], cwd=project, check=True)
    subprocess.run([*git, "commit", "-qm", "init"], cwd=project, check=True)
    (project / "a.py").write_text("x = 2\n")
    runtime = FakeRuntime(project)
    app = make_app(runtime)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await start(pilot, app)
        await run(pilot, screen, "/review")
        await wait_until(pilot, lambda: runtime.prompts and not screen.turn_active)
        assert "-x = 1\n+x = 2" in runtime.prompts[0]
        assert runtime.prompts[0].startswith("Review the following uncommitted changes")


@pytest.mark.slow
async def test_review_without_a_sandbox_says_in_one_line_that_git_cannot_run(
    make_app, project, monkeypatch
):
    monkeypatch.setenv("MEWCODE_SANDBOX", "none")
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    runtime = FakeRuntime(project)
    app = make_app(runtime)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await start(pilot, app)
        await run(pilot, screen, "/review")
        await wait_until(pilot, lambda: "Cannot review" in notices(screen)[-1])
        assert notices(screen)[-1] == (
            "Cannot review: git cannot run contained here: no OS sandbox on this machine"
            " (see `mewcode sandbox check`)."
        )
        assert runtime.prompts == []


async def test_theme_switch_is_saved(make_app, project, paths):
    app = make_app(FakeRuntime(project))
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await start(pilot, app)
        await run(pilot, screen, "/theme mewcode-light")
        assert app.theme == "mewcode-light"
        assert "theme: mewcode-light" in paths.user_settings.read_text()


async def test_model_shows_and_switches_with_a_clear_error(make_app, project):
    runtime = FakeRuntime(project)
    app = make_app(runtime)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await start(pilot, app)
        await run(pilot, screen, "/model")
        assert notices(screen)[-1].startswith("Model fake-model (fake)")
        await run(pilot, screen, "/model openai:gpt-test")
        assert notices(screen)[-1].startswith("Cannot switch model: no API key configured")
        await run(pilot, screen, "/model demo:demo")
        await wait_until(pilot, lambda: runtime.provider.name == "demo")
        assert screen.status.model == "demo"
