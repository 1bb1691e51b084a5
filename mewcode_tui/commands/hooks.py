"""/hooks: the hooks in force, by event, and the project's that wait for trust (docs/configuration.md#hooks)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from mewcode_tui.commands.registry import CommandHost, SlashCommand

if TYPE_CHECKING:
    from agent_core.hooks.config import HookCommand


def hook_lines(hooks: list[HookCommand], project: Path) -> list[str]:
    """Two lines a hook, grouped by event in the order events happen."""
    from agent_core.hooks.config import HOOK_EVENTS, shown_path

    lines: list[str] = []
    for event in HOOK_EVENTS:
        for hook in (h for h in hooks if h.event == event):
            matcher = hook.matcher or "*"
            lines.append(f"  {event}  [{matcher}]  `{hook.command}`  timeout {hook.timeout_s:g} s")
            lines.append(f"      {shown_path(Path(hook.source), project)}")
    return lines


def list_hooks(host: CommandHost, args: str) -> None:
    from agent_core.hooks.config import load_hooks

    found = load_hooks(
        host.paths,
        trusted=host.settings.project_trusted,
        approved=host.settings.trusted_programs,
    )
    project = host.paths.project
    if found.active:
        lines = [f"Hooks ({len(found.active)}): event  [matcher]  command  timeout, then the file"]
        lines += hook_lines(found.active, project)
    else:
        lines = ["No hooks configured."]
    if found.waiting_for_trust:
        lines.append(
            f"Waiting until you trust this project ({len(found.waiting_for_trust)}), not run:"
        )
        lines += hook_lines(found.waiting_for_trust, project)
    lines.append(
        "Configure hooks under hooks: in settings.yaml or .claude/settings.json (see docs/configuration.md#hooks)."
    )
    host.say("\n".join(lines))
    for problem in found.problems:
        host.say(problem, "warning")


COMMANDS = [
    SlashCommand(
        "hooks", "local", "List the hooks in force and the files they come from", list_hooks
    ),
]
