"""Where no OS sandbox is available, the status bar and /status say so, and bypass is refused."""

from __future__ import annotations

from agent_core.sandbox.status import SandboxStatus
from tests.tui.conftest import confirm_bypass, wait_until
from tests.tui.fakes import FakeRuntime
from tests.tui.test_main_commands import notices, run, start


async def test_without_a_sandbox_the_status_bar_status_and_mode_say_so(make_app, project):
    runtime = FakeRuntime(project)
    runtime.sandbox = SandboxStatus("none", False, [], ["bubblewrap: not installed"])
    app = make_app(runtime)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start(pilot, app)
        await wait_until(pilot, lambda: screen.status.unsandboxed)
        assert "no sandbox" in str(screen.status.render())
        await run(pilot, screen, "/status")
        assert "Sandbox: none" in notices(screen)[-1]
        screen.run_command_text("/mode bypassPermissions")
        await confirm_bypass(pilot, app)
        await wait_until(pilot, lambda: "needs an OS sandbox" in notices(screen)[-1])
        assert runtime.mode == "default" and screen.status.mode == "default"


async def test_with_a_sandbox_bypass_is_allowed_and_nothing_warns(make_app, project):
    runtime = FakeRuntime(project)
    app = make_app(runtime)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start(pilot, app)
        assert "no sandbox" not in str(screen.status.render())
        await run(pilot, screen, "/status")
        assert "Sandbox bubblewrap" in notices(screen)[-1]
        screen.run_command_text("/mode bypassPermissions")
        await confirm_bypass(pilot, app)
        await wait_until(pilot, lambda: runtime.mode == "bypassPermissions")
