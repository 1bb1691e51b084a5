"""Prompt-injecting commands: /review, /init, and custom commands from Markdown files.

Custom commands are Markdown files in MewCode's and Claude Code's command folders;
the session lists them (``QueryCommands``: name, description, argument hint, body)
and agent_core/command_text.py expands a body with its arguments.
"""

from __future__ import annotations

from agent_core import events as ev
from agent_core.command_text import expand_command
from agent_core.protocol import ops
from mewcode_tui.commands.registry import CommandHost, SlashCommand, ask

MAX_DIFF_CHARS = 60_000

REVIEW_PROMPT = """Review the following uncommitted changes in this repository.
Point out bugs, risky edge cases, missing tests and unclear code, most important first,
citing file and line. Do not change any files.
{focus}
```diff
{diff}
```"""

INIT_PROMPT = """Analyse this codebase and write a MEWCODE.md file at the project root for future
coding sessions. Include: what the project is, how to build, run, lint and test it (exact
commands), the layout of the main folders, and conventions a newcomer must follow. Keep it
short and factual; read the files you need first. If MEWCODE.md exists, improve it."""


async def review(host: CommandHost, args: str) -> None:
    if host.session is None:
        host.say("Still starting: try again in a moment.", "warning")
        return
    # git runs contained, in a stricter copy of the session's sandbox (agent_core.git).
    found = await ask(host.session, ops.QueryDiff(max_chars=MAX_DIFF_CHARS), ev.DiffReport)
    if found.problem:
        host.say(f"Cannot review: {found.problem}.", "warning")
        return
    diff = found.diff
    if not diff.strip():
        host.say("Nothing to review: no uncommitted changes.", "info")
        return
    if found.cut:
        diff += "\n… (diff cut here; read the files for the rest)"
    focus = f"Focus on: {args}\n" if args else ""
    await host.send_prompt(REVIEW_PROMPT.format(diff=diff, focus=focus), shown="/review " + args)


async def init(host: CommandHost, args: str) -> None:
    extra = f"\nAlso: {args}" if args else ""
    await host.send_prompt(INIT_PROMPT + extra, shown="/init " + args)


def custom_command(command: ev.CommandInfo) -> SlashCommand:
    """A prompt command from one command file, as the session listed it."""

    async def run(host: CommandHost, args: str) -> None:
        prompt, notices = expand_command(command.body, args)
        for notice in notices:
            host.say(f"/{command.name}: {notice}", "warning")
        await host.send_prompt(prompt, shown=f"/{command.name} {args}".rstrip())

    hint = command.argument_hint or "[ARGS]"
    return SlashCommand(command.name, "prompt", command.description, run, hint)


COMMANDS = [
    SlashCommand(
        "review", "prompt", "Ask for a review of the uncommitted git diff", review, "[FOCUS]"
    ),
    SlashCommand("init", "prompt", "Have the model write MEWCODE.md for this project", init),
]
