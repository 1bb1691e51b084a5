"""/hooks: the hooks in force, by event, and the project's that wait for trust (docs/configuration.md#hooks)."""

from __future__ import annotations

from agent_core import events as ev
from agent_core.protocol import ops
from mewcode_tui.commands.registry import CommandHost, SlashCommand, ask


def hook_lines(hooks: list[ev.HookInfo]) -> list[str]:
    """Two lines a hook; the session lists them in the order their events happen."""
    lines: list[str] = []
    for hook in hooks:
        matcher = hook.matcher or "*"
        lines.append(f"  {hook.event}  [{matcher}]  `{hook.command}`  timeout {hook.timeout_s:g} s")
        lines.append(f"      {hook.source}")
    return lines


async def list_hooks(host: CommandHost, args: str) -> None:
    if host.session is None:
        host.say("Still starting: the hooks are known once the session is open.", "warning")
        return
    found = await ask(host.session, ops.QueryHooks(), ev.HookList)
    if found.active:
        lines = [f"Hooks ({len(found.active)}): event  [matcher]  command  timeout, then the file"]
        lines += hook_lines(found.active)
    else:
        lines = ["No hooks configured."]
    if found.waiting_for_trust:
        lines.append(
            f"Waiting until you trust this project ({len(found.waiting_for_trust)}), not run:"
        )
        lines += hook_lines(found.waiting_for_trust)
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
