"""Remember: keep a fact the user asked to keep in long-term memory (docs/configuration.md#long-term-memory)."""

from __future__ import annotations

import asyncio
from typing import Annotated, ClassVar, Literal

import msgspec

from agent_core.tools.base import PermissionKind, PlanMode, ToolContext, ToolError, ToolOutput


class RememberParams(msgspec.Struct, forbid_unknown_fields=True):
    fact: Annotated[
        str,
        msgspec.Meta(
            min_length=1,
            max_length=1_000,
            description="The fact as one self-contained sentence, in the user's words",
        ),
    ]
    scope: Annotated[
        Literal["project", "global"],
        msgspec.Meta(description="project (default): this project only; global: every project"),
    ] = "project"
    ttl: Annotated[
        str | None,
        msgspec.Meta(
            description="Forget it after this long: a number and s, m, h, d or w (12h, 7d);"
            " omit to keep it until deleted"
        ),
    ] = None


class RememberTool:
    """Store a fact in long-term memory, recalled in later sessions when relevant."""

    name: ClassVar[str] = "Remember"
    description: ClassVar[str] = (
        "Stores a fact in long-term memory so later sessions can recall it when relevant.\n\n"
        "Use it ONLY when the user explicitly asks you to remember, keep or note something for"
        " later ('remember that...', 'keep in mind for next time...'). Never use it on your own"
        " initiative: not for summaries of the conversation, your conclusions, or things you"
        " think might be useful.\n\n"
        "- fact: one self-contained sentence in the user's words ('The staging DB is on port"
        " 5433'), understandable without this conversation.\n"
        "- scope: project (default) for facts about this project; global only when the user"
        " says it applies everywhere (a personal preference).\n"
        "- ttl: only when the user says how long it holds (e.g. 7d, 12h).\n"
        "The user is shown the fact and confirms before it is stored."
    )
    params: ClassVar[type[msgspec.Struct]] = RememberParams
    read_only: ClassVar[bool] = False
    permission_kind: ClassVar[PermissionKind] = "other"
    rule_field: ClassVar[str | None] = None
    plan_mode: ClassVar[PlanMode] = "hidden"

    def summary(self, args: RememberParams) -> str:
        where = "global" if args.scope == "global" else "project"
        ttl = f", for {args.ttl}" if args.ttl else ""
        return f"{args.fact} ({where}{ttl})"

    async def run(self, args: RememberParams, ctx: ToolContext) -> ToolOutput:
        from agent_core.memory.recall import parse_ttl
        from agent_core.memory.store import MemoryUnavailable

        memory = ctx.state.memory
        if memory is None:
            raise ToolError("long-term memory is not available in this session")
        try:
            ttl = parse_ttl(args.ttl) if args.ttl else None
            added = await asyncio.to_thread(memory.remember, args.fact, args.scope, ttl_seconds=ttl)
        except (ValueError, MemoryUnavailable) as exc:
            raise ToolError(str(exc)) from None
        where = "every project" if args.scope == "global" else "this project"
        # Nothing secret is kept on disk: say so, or the user counts on it later.
        kept_out = " A secret in it was stored as [REDACTED]." if added.redacted else ""
        if not added.new:
            return ToolOutput(
                f"Already remembered (memory #{added.id}, {where}); nothing changed.{kept_out}"
            )
        until = f", forgotten after {args.ttl}" if args.ttl else ""
        return ToolOutput(f"Remembered as memory #{added.id} for {where}{until}.{kept_out}")
