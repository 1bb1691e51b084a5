"""/add-dir: one more folder the session may read and edit, as ``--add-dir`` gives
(docs/manual.md#the-full-screen-ui)."""

from __future__ import annotations

from agent_core import events as ev
from agent_core.errors import MewCodeError
from agent_core.protocol import ops
from agent_core.terminal_text import visible_text
from mewcode_tui.commands.registry import CommandHost, SlashCommand, ask

USAGE = "PATH"


async def add_dir(host: CommandHost, args: str) -> None:
    if host.session is None:
        host.say("Still starting: try again in a moment.", "warning")
        return
    path = args.strip()
    if not path:
        host.say(f"Usage: /add-dir {USAGE}", "warning")
        return
    try:
        added = await ask(host.session, ops.AddDirectory(path=path), ev.DirectoryAdded)
    except MewCodeError as exc:
        host.say(f"Cannot add the folder: {visible_text(str(exc))}.", "warning")
        return
    folder = visible_text(added.path)
    if added.new:
        host.say(f"Added {folder}: files there may be read and edited as the project's are.")
    else:
        host.say(f"{folder} is already part of this session's folders.")


COMMANDS = [
    SlashCommand("add-dir", "ui", "Add a working folder for this session", add_dir, USAGE),
]
