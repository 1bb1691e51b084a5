"""Prompt-injecting commands: /review, /init, and custom commands from Markdown files.

A custom command is ``.mewcode/commands/NAME.md`` (project) or
``MEWCODE_HOME/commands/NAME.md`` (user); its body is the prompt, with
``$ARGUMENTS`` replaced by what follows the command. Optional YAML front
matter may give a ``description``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

from mewcode_tui.commands.registry import CommandHost, SlashCommand

if TYPE_CHECKING:
    from agent_core.sandbox.policy import SandboxPolicy

MAX_DIFF_CHARS = 60_000
_NAME = re.compile(r"^[a-z0-9][a-z0-9_.-]*$")

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


DIFF_ARGS = (
    "diff",
    "HEAD",
    "--no-color",
    "--no-ext-diff",
    "--no-textconv",
    "--ignore-submodules=all",
)


async def git_diff(cwd: Path, policy: SandboxPolicy) -> tuple[str | None, str]:
    """(diff, problem): the working tree's changes against HEAD, or why there are none.

    git runs contained, with every config-driven program off (agent_core.git).
    """
    from agent_core.git import GitNotContained, GitUnavailable, hidden_pathspecs, run_git

    specs = hidden_pathspecs(policy, cwd)
    try:
        result = await run_git([*DIFF_ARGS, "--", *specs] if specs else DIFF_ARGS, cwd, policy)
    except GitNotContained as exc:
        return None, f"git cannot run contained here: {exc}"
    except GitUnavailable as exc:
        return None, str(exc)
    if not result.ok:
        return None, result.problem()
    return result.text(), ""


async def review(host: CommandHost, args: str) -> None:
    runtime = host.runtime
    if runtime is None:
        host.say("Still starting: try again in a moment.", "warning")
        return
    diff, problem = await git_diff(host.paths.project, runtime.sandbox_policy)
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


def split_front_matter(text: str) -> tuple[dict, str]:
    """YAML front matter (if any) and the body of a Markdown command file."""
    if text.startswith("---\n"):
        end = text.find("\n---", 4)
        if end > 0:
            try:
                meta = yaml.safe_load(text[4:end]) or {}
            except yaml.YAMLError:
                meta = {}
            body = text[end + 4 :].lstrip("\n")
            return (meta if isinstance(meta, dict) else {}), body
    return {}, text


def expand_arguments(template: str, args: str) -> str:
    """Substitute ``$ARGUMENTS``; append the arguments when the template has no slot."""
    if "$ARGUMENTS" in template:
        return template.replace("$ARGUMENTS", args)
    return f"{template.rstrip()}\n\n{args}" if args else template


def custom_command(path: Path) -> SlashCommand | None:
    """A prompt command from one Markdown file; None when unreadable or badly named."""
    name = path.stem.lower()
    if not _NAME.match(name):
        return None
    try:
        meta, body = split_front_matter(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return None
    first_line = next((ln.strip("# ").strip() for ln in body.splitlines() if ln.strip()), "")
    description = str(meta.get("description") or first_line or "Custom command")[:80]

    async def run(host: CommandHost, args: str) -> None:
        await host.send_prompt(expand_arguments(body, args), shown=f"/{name} {args}".rstrip())

    return SlashCommand(name, "prompt", description, run, "[ARGS]")


def load_custom_commands(folders: list[Path]) -> list[SlashCommand]:
    """Commands from ``*.md`` in each folder; later folders win on name clashes."""
    found: dict[str, SlashCommand] = {}
    for folder in folders:
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.md")):
            command = custom_command(path)
            if command is not None:
                found[command.name] = command
    return list(found.values())


COMMANDS = [
    SlashCommand(
        "review", "prompt", "Ask for a review of the uncommitted git diff", review, "[FOCUS]"
    ),
    SlashCommand("init", "prompt", "Have the model write MEWCODE.md for this project", init),
]
