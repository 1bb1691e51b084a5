"""/bashes: the background shells through the session protocol, their output as it comes,
``k`` stops one, Esc closes; with none, a line says how one starts."""

from __future__ import annotations

from mewcode_tui.screens.shells import ShellsScreen
from tests.tui.conftest import session_started, wait_until
from tests.tui.fakes import FakeRuntime
from tests.tui.test_main_commands import notices, run


class WatchedShell:
    """Stands in for a BackgroundShell: what the session's registry hands the ops."""

    def __init__(self, shell_id: str, command: str) -> None:
        self.id, self.command = shell_id, command
        self.output = ""
        self.running, self.killed = True, False

    def status(self) -> str:
        return "killed" if self.killed else "running (3 s)" if self.running else "exited 0"

    def live_output(self) -> tuple[str, int]:
        return self.output, len(self.output)

    async def kill(self) -> None:
        self.running, self.killed = False, True


def with_shell(runtime: FakeRuntime, command: str) -> WatchedShell:
    shell = WatchedShell(f"bash_{len(runtime.shell_registry.shells()) + 1}", command)
    runtime.shell_registry._shells[shell.id] = shell  # type: ignore[assignment]
    return shell


def output_shown(app) -> str:
    return str(app.screen.query_one("#output").render())


async def test_with_no_background_shell_bashes_says_how_one_starts(make_app, project):
    app = make_app(FakeRuntime(project))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await session_started(pilot, app)
        await run(pilot, screen, "/bashes")
        assert notices(screen)[-1].startswith("No background shells.")
        assert not isinstance(app.screen, ShellsScreen)


async def test_bashes_follows_a_shells_output_and_k_stops_it(make_app, project):
    runtime = FakeRuntime(project)
    server = with_shell(runtime, "npm run dev")
    watcher = with_shell(runtime, "pytest --looponfail")
    server.output = "ready on :3000"
    watcher.output = "\n".join(f"test {n} passed" for n in range(1, 4))
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await session_started(pilot, app)
        screen.prompt.insert("/bashes")
        await pilot.pause()
        screen.menu.hide()
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ShellsScreen))
        view = app.screen
        rows = [str(o.prompt) for o in view.query_one("#shells").options]
        assert rows[0].startswith("◐ bash_1  running (3 s)  npm run dev")
        assert rows[1].startswith("◐ bash_2  running (3 s)  pytest --looponfail")
        assert "test 3 passed" in output_shown(app)  # the newest shell is highlighted

        watcher.output += "\ntest 4 failed"  # printed while the view is open
        await wait_until(pilot, lambda: "test 4 failed" in output_shown(app))

        await pilot.press("up")
        assert output_shown(app) == "ready on :3000"
        await pilot.press("k")
        await wait_until(pilot, lambda: server.killed)
        await wait_until(
            pilot,
            lambda: str(view.query_one("#shells").options[0].prompt).startswith("■ bash_1  killed"),
        )
        assert watcher.running

        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)
