"""/skills, and one slash command per installed skill (docs/configuration.md#skills)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mewcode_tui.commands.registry import CommandHost, SlashCommand
from mewcode_tui.widgets.status_bar import short_path

if TYPE_CHECKING:
    from agent_core.config.paths import MewcodePaths
    from agent_core.skills.loader import Skill, SkillSet

DESCRIPTION_SHOWN = 100  # characters of a description in the /skills list


def installed_skills(paths: MewcodePaths) -> SkillSet:
    """The skills in force for this project, read from disk now, with the skipped ones' lines."""
    from agent_core.skills.loader import SkillLibrary

    return SkillLibrary.for_session(paths).load()


def skill_prompt(name: str, args: str) -> str:
    """What `/name args` sends: use the skill (the Skill tool loads it), on ``args`` if given."""
    ask = f'Use the {name} skill: load it with the Skill tool (name "{name}") and follow it.'
    return f"{ask}\n\n{args}" if args else ask


def skill_command(skill: Skill) -> SlashCommand:
    """`/name [args]` for one skill."""
    name = skill.name

    async def run(host: CommandHost, args: str) -> None:
        await host.send_prompt(skill_prompt(name, args), shown=f"/{name} {args}".rstrip())

    description = skill.description
    if len(description) > 80:
        description = description[:79] + "…"
    return SlashCommand(name, "skill", description, run, "[ARGS]")


def skill_commands(paths: MewcodePaths) -> list[SlashCommand]:
    """One command per installed skill, by name."""
    return [skill_command(s) for s in installed_skills(paths).skills.values()]


def list_skills(host: CommandHost, args: str) -> None:
    found = installed_skills(host.paths)
    host.status.skills = len(found.skills)
    if not found.skills:
        lines = ["No skills installed."]
    else:
        lines = [
            f"Skills ({len(found.skills)}): the model loads one when it fits; /NAME asks for it."
        ]
        for skill in found.skills.values():
            description = skill.description
            if len(description) > DESCRIPTION_SHOWN:
                description = description[: DESCRIPTION_SHOWN - 1] + "…"
            lines.append(f"  /{skill.name}  [{skill.layer}]  {description}")
            lines.append(f"      {short_path(skill.path)}")
    folders = ", ".join(
        short_path(p)
        for p in (host.paths.home / "skills", host.paths.project / ".mewcode" / "skills")
    )
    lines.append(
        f"Add a skill: a folder with a SKILL.md in {folders} (see docs/configuration.md#skills)."
    )
    host.say("\n".join(lines))
    for warning in found.warnings:
        host.say(warning, "warning")


COMMANDS = [
    SlashCommand(
        "skills", "local", "List installed skills and skills skipped as malformed", list_skills
    ),
]
