"""/skills lists skills and warnings; each skill is a command that asks the model to use it."""

from __future__ import annotations

from pathlib import Path

from mewcode_tui.commands.skills import skill_prompt
from tests.tui.conftest import session_started, wait_until
from tests.tui.fakes import FakeRuntime
from tests.tui.test_main_commands import notices, run
from tests.tui.test_main_tools import screen_lines

SKILL = "---\nname: {name}\ndescription: {description}\n---\nDo it well.\n"


def add_skill(root: Path, name: str, description: str) -> Path:
    path = root / name / "SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_text(SKILL.format(name=name, description=description))
    return path


async def test_skills_lists_each_layer_and_the_malformed_one(make_app, project, paths) -> None:
    mine = add_skill(paths.home / "skills", "tidy-imports", "Sort and prune imports.")
    theirs = add_skill(project / ".claude" / "skills", "deploy", "Deploy the site.")
    broken = add_skill(project / ".agents" / "skills", "Broken", "x")
    app = make_app(FakeRuntime(project))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await session_started(pilot, app)
        assert screen.status.skills == 3  # commit-message, deploy, tidy-imports
        assert "skills 3" in "\n".join(screen_lines(app))
        await run(pilot, screen, "/skills")
        listing = next(n for n in notices(screen) if n.startswith("Skills (3)"))
        lines = listing.splitlines()
        assert "/deploy  [project]  Deploy the site." in lines[3] and str(theirs) in lines[4]
        assert "/tidy-imports  [user]  Sort and prune imports." in listing
        assert str(mine) in listing and "/commit-message  [built-in]" in listing
        warning = next(n for n in notices(screen) if n.startswith("skill skipped"))
        assert str(broken) in warning and "lowercase" in warning


async def test_a_skill_command_sends_a_prompt_to_use_it(make_app, project, paths) -> None:
    add_skill(paths.home / "skills", "tidy-imports", "Sort and prune imports.")
    runtime = FakeRuntime(project)
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await session_started(pilot, app)
        await pilot.press(*"/tid")
        await wait_until(pilot, lambda: "tidy-imports" in "\n".join(screen_lines(app)))
        await pilot.press(*"y-imports in src/app.py")
        screen.menu.hide()
        await pilot.press("enter")
        await wait_until(pilot, lambda: bool(runtime.prompts) and not screen.turn_active)
        assert runtime.prompts == [skill_prompt("tidy-imports", "in src/app.py")]
        assert 'Skill tool (name "tidy-imports")' in runtime.prompts[0]
        assert runtime.prompts[0].endswith("\n\nin src/app.py")
