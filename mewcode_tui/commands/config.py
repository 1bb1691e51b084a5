"""/config: the settings in force with the file each value came from; /config edit opens
the user's settings file in $EDITOR (docs/configuration.md)."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

from agent_core import events as ev
from agent_core.errors import MewCodeError
from agent_core.protocol import ops
from agent_core.terminal_text import visible_text
from mewcode_tui.commands.registry import CommandHost, SlashCommand, ask
from mewcode_tui.widgets.status_bar import short_path

if TYPE_CHECKING:
    from textual.app import App

USAGE = "[edit]"
FALLBACK_EDITORS = ("nano", "vi")


def shown(text: str, project: str = "") -> str:
    """A file path shown short (./... in the project, ~/...), any other source as it is."""
    if not text.startswith("/"):
        return visible_text(text)
    path = Path(text)
    if project and path.is_relative_to(project):
        return visible_text(f"./{path.relative_to(project)}")
    return visible_text(short_path(path))


def config_text(report: ev.SettingsReport, project: str = "") -> str:
    """The values grouped by their source, then the files in merge order."""
    lines = ["Settings in force (key = value — source):"]
    if not report.values:
        lines.append("  all at their defaults")
    width = max((len(v.key) for v in report.values), default=0)
    for value in report.values:
        lines.append(
            f"  {value.key:<{width}} = {visible_text(value.value)}  — {shown(value.source, project)}"
        )
    lines.append("Files, later ones win:")
    for number, file in enumerate(report.files, start=1):
        state = file.applies if file.exists else "absent"
        lines.append(f"  {number}. {shown(file.path, project)} ({state})")
    lines.append(f"Edit yours with /config edit ({shown(report.user_file)}).")
    return "\n".join(lines)


def changed_lines(before: ev.SettingsReport, after: ev.SettingsReport) -> list[str]:
    """What an edit changed, one line a key: added, removed or from one value to another."""

    def values(report: ev.SettingsReport) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        for v in report.values:
            found.setdefault(v.key, []).append(v.value)
        return found

    old, new = values(before), values(after)
    lines = []
    for key in sorted(old.keys() | new.keys()):
        was, now = old.get(key, []), new.get(key, [])
        if was == now:
            continue
        if not was:
            lines.append(f"  + {key} = {_joined(now)}")
        elif not now:
            lines.append(f"  - {key} (was {_joined(was)})")
        else:
            lines.append(f"  ~ {key}: {_joined(was)} → {_joined(now)}")
    return lines


def _joined(values: list[str]) -> str:
    return visible_text(", ".join(values))


def editor_command(env: dict[str, str] | os._Environ[str]) -> list[str] | None:
    """$VISUAL or $EDITOR split as a shell would, else nano or vi where found; None if none."""
    for name in ("VISUAL", "EDITOR"):
        value = env.get(name, "").strip()
        if value:
            return shlex.split(value)
    for program in FALLBACK_EDITORS:
        if shutil.which(program):
            return [program]
    return None


def run_editor(app: App[object], command: list[str], path: str) -> str | None:
    """Run the editor on ``path`` with the app suspended (as Ctrl+Z does); None when it
    ran, else why not."""
    from textual.app import SuspendNotSupported

    try:
        with app.suspend():
            done = subprocess.run([*command, path], check=False)
    except SuspendNotSupported:
        return "this terminal cannot hand itself to an editor"
    except OSError as exc:
        return f"{command[0]}: {exc.strerror}"
    if done.returncode != 0:
        return f"{command[0]} exited with status {done.returncode}"
    return None


async def config(host: CommandHost, args: str) -> None:
    if host.session is None:
        host.say("Still starting: the settings are known once the session is open.", "warning")
        return
    words = args.split()
    if words not in ([], ["edit"]):
        host.say(f"Usage: /config {USAGE}", "warning")
        return
    report = await ask(host.session, ops.QueryConfig(), ev.SettingsReport)
    if not words:
        host.say(config_text(report, host.session.snapshot().cwd))
        for problem in report.problems:
            host.say(problem, "warning")
        return
    await edit(host, report)


async def edit(host: CommandHost, before: ev.SettingsReport) -> None:
    """Open the user's file, then say what the edit changed (applied at the next start)."""
    session = host.session
    assert session is not None
    command = editor_command(os.environ)
    if command is None:
        host.say(f"No editor: set $EDITOR, or edit {shown(before.user_file)} yourself.", "warning")
        return
    os.makedirs(os.path.dirname(before.user_file), exist_ok=True)
    problem = run_editor(host.app, command, before.user_file)
    if problem is not None:
        host.say(f"Cannot edit {shown(before.user_file)}: {problem}.", "warning")
        return
    try:
        after = await ask(session, ops.QueryConfig(reread=True), ev.SettingsReport)
    except MewCodeError as exc:
        host.say(f"The settings do not load now: {exc}", "error")
        return
    lines = changed_lines(before, after)
    if not lines:
        host.say(f"No change to the settings ({shown(before.user_file)}).")
        return
    host.say(
        "Changed in the files:\n"
        + "\n".join(lines)
        + "\nSettings are read when MewCode starts: restart it to apply them."
    )
    for problem in after.problems:
        if problem not in before.problems:
            host.say(problem, "warning")


COMMANDS = [
    SlashCommand(
        "config", "ui", "The settings in force and their files; edit yours", config, USAGE
    ),
]
