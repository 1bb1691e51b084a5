"""Prompt-injecting commands: /review, /init, and custom commands from Markdown files.

Custom commands are Markdown files in MewCode's and Claude Code's command folders;
agent_core.custom_commands reads and expands them (``mewcode -p`` uses it too).
"""

from __future__ import annotations

from pathlib import Path

from agent_core.command_text import expand_command
from agent_core.custom_commands import CommandFile, load_command_files
from mewcode_tui.commands.registry import CommandHost, SlashCommand

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
    runtime = host.runtime
    if runtime is None:
        host.say("Still starting: try again in a moment.", "warning")
        return
    from agent_core.git.working_diff import working_tree_diff

    diff, problem = await working_tree_diff(host.paths.project, runtime.sandbox_policy)
    if diff is None:
        host.say(f"Cannot review: {problem}.", "warning")
        return
    if not diff.strip():
        host.say("Nothing to review: no uncommitted changes.", "info")
        return
    if len(diff) > MAX_DIFF_CHARS:
        diff = diff[:MAX_DIFF_CHARS] + "\n… (diff cut here; read the files for the rest)"
    focus = f"Focus on: {args}\n" if args else ""
    await host.send_prompt(REVIEW_PROMPT.format(diff=diff, focus=focus), shown="/review " + args)


async def init(host: CommandHost, args: str) -> None:
    extra = f"\nAlso: {args}" if args else ""
    await host.send_prompt(INIT_PROMPT + extra, shown="/init " + args)


def custom_command(file: CommandFile) -> SlashCommand:
    """A prompt command from one command file (agent_core.custom_commands)."""

    async def run(host: CommandHost, args: str) -> None:
        prompt, notices = expand_command(file.body, args)
        for notice in notices:
            host.say(f"/{file.name}: {notice}", "warning")
        await host.send_prompt(prompt, shown=f"/{file.name} {args}".rstrip())

    hint = file.argument_hint or "[ARGS]"
    return SlashCommand(file.name, "prompt", file.description, run, hint)


def load_custom_commands(folders: list[Path]) -> tuple[list[SlashCommand], list[str]]:
    """The commands in ``folders`` (later folders win a name), and notices about them."""
    found = load_command_files(folders)
    return [custom_command(f) for f in found.commands.values()], found.notices


COMMANDS = [
    SlashCommand(
        "review", "prompt", "Ask for a review of the uncommitted git diff", review, "[FOCUS]"
    ),
    SlashCommand("init", "prompt", "Have the model write MEWCODE.md for this project", init),
]
