"""Skill: load a skill's instructions by name (docs/configuration.md#skills, progressive disclosure).

The body does not come back as this call's result: it waits in the session's
``SkillBuffer`` and rides with the next tool results (the loop appends it
after them), so the result itself stays one short line.
"""

from __future__ import annotations

from typing import Annotated, ClassVar

import msgspec

from agent_core.skills.buffer import LoadedSkill, bounded_body
from agent_core.tools.base import PermissionKind, PlanMode, ToolContext, ToolError, ToolOutput


class SkillParams(msgspec.Struct, forbid_unknown_fields=True):
    name: Annotated[
        str, msgspec.Meta(min_length=1, description="The skill's name, as the index lists it")
    ]


class SkillTool:
    """Queue a skill's body for the next round."""

    name: ClassVar[str] = "Skill"
    description: ClassVar[str] = (
        "Loads a skill: instructions for a kind of task (writing a commit message, a review"
        " checklist, a project's release steps...). Skills that fit the user's request are"
        " listed in the environment block under <skills>; call this with one of those names"
        " before starting such a task, and follow the instructions, which arrive right after"
        " this tool's result. Files a skill names are in its folder (the result gives the"
        " path); read them with Read. Don't load a skill that is already loaded."
    )
    params: ClassVar[type[msgspec.Struct]] = SkillParams
    read_only: ClassVar[bool] = True
    permission_kind: ClassVar[PermissionKind] = "other"
    rule_field: ClassVar[str | None] = None
    plan_mode: ClassVar[PlanMode] = "offered"

    def summary(self, args: SkillParams) -> str:
        return args.name

    async def run(self, args: SkillParams, ctx: ToolContext) -> ToolOutput:
        library = ctx.state.skill_library
        found = library.load().skills if library is not None else {}
        name = args.name.strip().removeprefix("/")
        skill = found.get(name)
        if skill is None:
            known = ", ".join(found) or "none"
            raise ToolError(f"no skill named {name!r}; installed skills: {known}")
        ctx.state.skill_buffer.add(LoadedSkill(skill.name, skill.folder, bounded_body(skill.body)))
        return ToolOutput(
            f"Skill {skill.name} loaded from {skill.folder}; its instructions follow with the"
            " next tool results. Paths it names are relative to that folder."
        )
