"""ExitPlanMode: the model presents its plan and asks to leave plan mode."""

from __future__ import annotations

from typing import Annotated, ClassVar

import msgspec

from agent_core.tools.base import PermissionKind, PlanMode, ToolContext, ToolOutput


class ExitPlanModeParams(msgspec.Struct, forbid_unknown_fields=True):
    plan: Annotated[
        str,
        msgspec.Meta(
            min_length=1,
            description="The plan to show the user for approval, in concise Markdown",
        ),
    ]


class ExitPlanModeTool:
    """Ends plan mode once the user approves the plan.

    The approval happens before run is called: the agent loop shows the plan to
    the user (an approval request) and, on approval, switches the permission
    mode; a rejection becomes the tool result instead. So run only confirms.
    """

    name: ClassVar[str] = "ExitPlanMode"
    description: ClassVar[str] = (
        "Use this tool when you are in plan mode and have finished planning an implementation"
        " that needs code changes: it shows your plan to the user and asks them to approve it."
        " If they approve, plan mode ends and you can start making the changes; if not, keep"
        " planning using their feedback.\n\n"
        "- Give the plan as concise Markdown: the files to change and what changes, in order,"
        " and how you will verify the result.\n"
        "- Only use it for tasks that require writing code. For research or questions about"
        " the code, just answer; do not call this tool.\n"
        "- Resolve open questions (read the code, or ask the user) before presenting the plan."
    )
    params: ClassVar[type[msgspec.Struct]] = ExitPlanModeParams
    read_only: ClassVar[bool] = True
    permission_kind: ClassVar[PermissionKind] = "other"
    rule_field: ClassVar[str | None] = None
    plan_mode: ClassVar[PlanMode] = "only"

    def summary(self, args: ExitPlanModeParams) -> str:
        first = next(
            (line.strip("# ").strip() for line in args.plan.splitlines() if line.strip()), ""
        )
        return first if len(first) <= 80 else first[:79] + "…"

    async def run(self, args: ExitPlanModeParams, ctx: ToolContext) -> ToolOutput:
        return ToolOutput("plan approved; proceeding")
