"""The background shell ops through a real host and runtime: a shell the model started is
listed with its output as it comes, stopped by ``stop_shell``, and an unknown id refused."""

from __future__ import annotations

import asyncio

from agent_core import events as ev
from agent_core.protocol import ops
from tests.helpers.scripted import Step
from tests.helpers.session_driver import SessionDriver
from tests.unit.test_session_host import open_host

TICKER = "i=0; while [ $i -lt 600 ]; do i=$((i+1)); echo line $i; sleep 0.05; done"


async def shells_until(driver: SessionDriver, done, timeout: float = 20) -> ev.ShellList:
    """Ask for the list until ``done`` accepts it (the shell prints as it pleases)."""
    async with asyncio.timeout(timeout):
        while True:
            listing = await driver.answer(await driver.session.submit(ops.QueryShells()))
            assert isinstance(listing, ev.ShellList)
            if done(listing):
                return listing
            await asyncio.sleep(0.05)


async def test_a_background_shell_is_listed_as_it_prints_and_stopped(paths, project) -> None:
    steps = [
        Step(calls=[("b1", "Bash", {"command": TICKER, "run_in_background": True})]),
        Step(text="It runs in the background."),
    ]
    driver = SessionDriver(await open_host(paths, project, steps, mode="bypassPermissions"))
    try:
        empty = await driver.answer(await driver.session.submit(ops.QueryShells()))
        assert isinstance(empty, ev.ShellList) and empty.shells == []
        turn = await driver.answer(await driver.session.submit(ops.UserTurn(text="start it")))
        assert isinstance(turn, ev.TurnCompleted) and turn.stop_reason == "end_turn"

        first = await shells_until(driver, lambda got: "line 3" in got.shells[0].output)
        shell = first.shells[0]
        assert (shell.shell_id, shell.command, shell.running) == ("bash_1", TICKER, True)
        assert shell.status.startswith("running")
        later = await shells_until(
            driver, lambda got: got.shells[0].total_chars > shell.total_chars
        )
        assert later.shells[0].output.splitlines()[-1].startswith("line ")

        stopped = await driver.answer(await driver.session.submit(ops.StopShell(shell_id="bash_1")))
        assert isinstance(stopped, ev.ShellList)
        assert (stopped.shells[0].running, stopped.shells[0].status) == (False, "killed")

        unknown = await driver.answer(await driver.session.submit(ops.StopShell(shell_id="bash_9")))
        assert isinstance(unknown, ev.OpRefused) and "bash_9" in unknown.reason
        assert "bash_1" in unknown.reason  # the refusal names the shells there are
    finally:
        await driver.stop()
