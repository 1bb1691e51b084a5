"""/skills, and one slash command per installed skill (docs/configuration.md#skills)."""

from __future__ import annotations

from pathlib import Path

from agent_core import events as ev
from agent_core.protocol import ops
from mewcode_tui.commands.registry import CommandHost, SlashCommand, ask
from mewcode_tui.widgets.status_bar import short_path

DESCRIPTION_SHOWN = 100  # characters of a description in the /skills list


def skill_prompt(name: str, args: str) -> str:
    """What `/name args` sends: use the skill (the Skill tool loads it), on ``args`` if given."""
    ask = f'Use the {name} skill: load it with the Skill tool (name "{name}") and follow it.'
    return f"{ask}\n\n{args}" if args else ask


def skill_command(skill: ev.SkillInfo) -> SlashCommand:
    """`/name [args]` for one skill."""
    name = skill.name

    async def run(host: CommandHost, args: str) -> None:
        await host.send_prompt(skill_prompt(name, args), shown=f"/{name} {args}".rstrip())

    description = skill.description
    if len(description) > 80:
        description = description[:79] + "…"
    return SlashCommand(name, "skill", description, run, "[ARGS]")


def skill_commands(listing: ev.SkillList) -> list[SlashCommand]:
    """One command per installed skill, by name."""
    return [skill_command(s) for s in listing.skills]


def skills_text(found: ev.SkillList) -> str:
    """Each skill with its layer, description and file; where a new one goes."""
    if not found.skills:
        lines = ["No skills installed."]
    else:
        lines = [
            f"Skills ({len(found.skills)}): the model loads one when it fits; /NAME asks for it."
        ]
        for skill in found.skills:
            description = skill.description
            if len(description) > DESCRIPTION_SHOWN:
                description = description[: DESCRIPTION_SHOWN - 1] + "…"
            lines.append(f"  /{skill.name}  [{skill.layer}]  {description}")
            lines.append(f"      {short_path(Path(skill.path))}")
    folders = ", ".join(short_path(Path(p)) for p in found.folders)
    lines.append(
        f"Add a skill: a folder with a SKILL.md in {folders} (see docs/configuration.md#skills)."
    )
    return "\n".join(lines)


async def list_skills(host: CommandHost, args: str) -> None:
    if host.session is None:
        host.say("Still starting: the skills are read once the session is open.", "warning")
        return
    found = await ask(host.session, ops.QuerySkills(), ev.SkillList)
    host.status.skills = len(found.skills)
    host.say(skills_text(found))
    for warning in found.problems:
        host.say(warning, "warning")


COMMANDS = [
    SlashCommand(
        "skills", "local", "List installed skills and skills skipped as malformed", list_skills
    ),
]
