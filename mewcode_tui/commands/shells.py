"""/bashes: the session's background shells, their output as it comes; stop one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from agent_core import events as ev
from agent_core.protocol import ops
from mewcode_tui.commands.registry import CommandHost, SlashCommand, ask

if TYPE_CHECKING:
    from mewcode_tui.session_client import SessionClient


class SessionShells:
    """The view's source: the two shell ops of the session."""

    def __init__(self, session: SessionClient) -> None:
        self.session = session

    async def shells(self) -> ev.ShellList:
        return await ask(self.session, ops.QueryShells(), ev.ShellList)

    async def stop(self, shell_id: str) -> ev.ShellList:
        return await ask(self.session, ops.StopShell(shell_id=shell_id), ev.ShellList)


async def bashes(host: CommandHost, args: str) -> None:
    if host.session is None:
        host.say("Still starting: no background shells yet.", "warning")
        return
    if args:
        host.say("Usage: /bashes (the list stops a shell: k)", "warning")
        return
    source = SessionShells(host.session)
    listing = await source.shells()
    if not listing.shells:
        host.say(
            "No background shells. The model starts one with Bash and run_in_background; "
            "it runs until it ends, you stop it here, or the session ends."
        )
        return
    from mewcode_tui.screens.shells import ShellsScreen

    host.app.push_screen(ShellsScreen(source, listing))


COMMANDS = [
    SlashCommand("bashes", "ui", "Watch the background shells' output; stop one", bashes),
]
