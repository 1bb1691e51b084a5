"""/permissions: list every rule with its source; remove session and saved rules."""

from __future__ import annotations

from agent_core import events as ev
from agent_core.errors import MewCodeError
from agent_core.protocol import ops
from mewcode_tui.commands.registry import CommandHost, SlashCommand, ask

USAGE = "[remove N]"


def rules_listing(rules: list[ev.RuleEntry]) -> str:
    """Numbered rules with their kind and the file (or 'session') they came from."""
    if not rules:
        return (
            "No permission rules. Approve a call with 'always', or add one to a settings file"
            " (.mewcode/settings.yaml, .claude/settings.json...)."
        )
    lines = ["Permission rules (remove one with /permissions remove N):"]
    for number, entry in enumerate(rules, start=1):
        lines.append(f"  {number:>2}. {entry.kind:<5} {entry.rule}  — {entry.source}")
    return "\n".join(lines)


async def permissions(host: CommandHost, args: str) -> None:
    if host.session is None:
        host.say("Still starting: no rules loaded yet.", "warning")
        return
    rules = (await ask(host.session, ops.ListRules(), ev.RuleList)).rules
    words = args.split()
    if not words:
        host.say(rules_listing(rules))
        return
    if words[0] != "remove" or len(words) != 2 or not words[1].isdigit():
        host.say(f"Usage: /permissions {USAGE}", "warning")
        return
    number = int(words[1])
    if not 1 <= number <= len(rules):
        host.say(f"No rule {number}: there are {len(rules)}.", "warning")
        return
    entry = rules[number - 1]
    try:
        done = await ask(host.session, ops.RemoveRule(rule=entry), ev.RuleRemoved)
    except MewCodeError as exc:
        reason = str(exc)
        host.say(reason[:1].upper() + reason[1:] + ".", "warning")
        return
    if done.removed:
        host.say(f"Removed {entry.kind} rule {entry.rule} ({entry.source}).")
    else:
        host.say(f"Rule {entry.rule} was not found in {entry.source}.", "warning")


COMMANDS = [
    SlashCommand("permissions", "ui", "List or remove permission rules", permissions, USAGE),
]
