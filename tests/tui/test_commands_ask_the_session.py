"""Slash commands act on the session's own parts, through its ops: never on stores of
their own, and before the session opens they say they must wait."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from agent_core.config.paths import MewcodePaths
from agent_core.memory.long_term import LongTermMemory
from mewcode_tui.app import MewCodeApp
from tests.tui.conftest import session_started, wait_until
from tests.tui.fakes import FakeRuntime
from tests.tui.test_main_commands import notices, run


async def test_memory_add_and_delete_reach_the_sessions_own_memory(
    make_app, project, paths, tmp_path
) -> None:
    runtime = FakeRuntime(project)
    elsewhere = MewcodePaths(home=tmp_path / "session-home", project=project)
    elsewhere.home.mkdir()
    runtime.memory = LongTermMemory(elsewhere)  # not where a store of the UI's own would look
    runtime.memory.remember("the model stored this with the Remember tool")
    app = make_app(runtime)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await session_started(pilot, app)
        await run(pilot, screen, "/memory")
        assert "#1 [project] the model stored this with the Remember tool" in notices(screen)[-1]
        await run(pilot, screen, "/memory add The API runs on port 8080.")
        assert notices(screen)[-1] == "Remembered #2 (project)."
        assert [f.content for f in runtime.memory.listing()] == [
            "The API runs on port 8080.",
            "the model stored this with the Remember tool",
        ]
        await run(pilot, screen, "/memory delete 1")
        assert notices(screen)[-1] == "Deleted #1."
        assert [f.id for f in runtime.memory.listing()] == [2]
    assert not (paths.home / "memory.db").exists()


async def test_commands_typed_while_the_session_opens_say_it_is_starting(options, project) -> None:
    release = asyncio.Event()
    runtime = FakeRuntime(project)

    async def slow_open(options, provider) -> FakeRuntime:
        await release.wait()
        return runtime

    app = MewCodeApp(
        options,
        provider=SimpleNamespace(name="fake", model="fake-model"),
        opener=slow_open,
        clock=lambda: 1000.0,
    )
    async with app.run_test(size=(100, 40)) as pilot:
        screen = app.main_screen
        await wait_until(pilot, lambda: screen.is_mounted)
        for command in ("/memory", "/hooks", "/skills", "/context", "/permissions", "/status"):
            await run(pilot, screen, command)
            assert notices(screen)[-1].startswith("Still starting"), command
        release.set()
        await session_started(pilot, app)
        await run(pilot, screen, "/hooks")
        assert notices(screen)[-1].startswith("No hooks configured.")


class UnsummarisedRuntime(FakeRuntime):
    """A compaction that leaves the history as it was, and says why."""

    async def compact(self, instructions: str = ""):
        from agent_core.context.manager import CompactionOutcome

        return CompactionOutcome(
            list(self.history), 5, 5, compacted=False, warning="the summary came back empty"
        )


async def test_a_compaction_that_did_not_happen_says_why_and_no_figures(make_app, project):
    app = make_app(UnsummarisedRuntime(project))
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await session_started(pilot, app)
        await run(pilot, screen, "/compact")
        await wait_until(pilot, lambda: "the summary came back empty" in notices(screen))
        await wait_until(pilot, lambda: not screen.turn_active)
        assert not any(n.startswith("Compacted:") for n in notices(screen))
