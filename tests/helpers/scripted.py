"""In-memory test doubles: a scripted Provider, simple tools and an open gate.

For tests of the loop's own logic; provider wire formats are tested against
the fake HTTP server in tests/fakellm.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar

import msgspec

from agent_core.errors import ProviderError
from agent_core.llm import base as llm
from agent_core.tools.base import ToolContext, ToolOutput
from agent_core.usage import Usage


@dataclass
class Step:
    text: str = ""
    calls: list[tuple[str, str, dict]] = field(default_factory=list)  # (id, name, input)
    bad_json: dict[str, str] = field(default_factory=dict)  # call id -> error
    error: ProviderError | None = None
    hang_after_text: bool = False


class ScriptedProvider:
    name = "scripted"
    model = "scripted-model"

    def __init__(self, steps: list[Step]) -> None:
        self.steps = list(steps)
        self.requests: list[llm.ChatRequest] = []

    async def stream(self, request: llm.ChatRequest) -> AsyncIterator[llm.StreamEvent]:
        self.requests.append(request)
        step = self.steps.pop(0)
        for word in step.text.split(" ") if step.text else []:
            yield llm.TextDelta(word + " ")
        if step.hang_after_text:
            await asyncio.sleep(30)
        if step.error:
            raise step.error
        for call_id, name, args in step.calls:
            yield llm.ToolCallComplete(call_id, name, args, step.bad_json.get(call_id))
        yield llm.UsageReport(Usage(input_tokens=10, output_tokens=5))
        yield llm.Stop("tool_use" if step.calls else "end_turn")


class EchoParams(msgspec.Struct, forbid_unknown_fields=True):
    text: Annotated[str, msgspec.Meta(description="what to echo")]
    delay: float = 0.0


class EchoTool:
    """A read-only tool that echoes, optionally after a delay."""

    name: ClassVar[str] = "Echo"
    description: ClassVar[str] = "Echo text back."
    params: ClassVar[type] = EchoParams
    read_only: ClassVar[bool] = True
    permission_kind: ClassVar[str] = "read"
    rule_field: ClassVar[str | None] = None
    plan_mode: ClassVar[str] = "offered"

    def summary(self, args: EchoParams) -> str:
        return args.text

    async def run(self, args: EchoParams, ctx: ToolContext) -> ToolOutput:
        await asyncio.sleep(args.delay)
        return ToolOutput(content=f"echo: {args.text}")


class TouchTool(EchoTool):
    """A tool with side effects (needs approval under an asking gate)."""

    name: ClassVar[str] = "Touch"
    read_only: ClassVar[bool] = False
    permission_kind: ClassVar[str] = "edit"
    plan_mode: ClassVar[str] = "hidden"

    async def run(self, args: EchoParams, ctx: ToolContext) -> ToolOutput:
        await asyncio.sleep(args.delay)
        return ToolOutput(content=f"touched {args.text}")


@dataclass
class SimpleVerdict:
    decision: str
    layer: str = "mode"
    reason: str = "test"
    rule: str | None = None
    suggested_rules: list[str] = field(default_factory=list)


class TableGate:
    """Decides by tool name: {'Touch': 'ask'}; everything else allowed."""

    def __init__(self, table: dict[str, str] | None = None) -> None:
        self.table = table or {}
        self.session: list[str] = []
        self.always: list[str] = []

    def decide(self, tool: Any, args_raw: dict, mode: str | None = None) -> SimpleVerdict:
        decision = self.table.get(tool.name, "allow")
        if tool.name in self.session:
            decision = "allow"
        return SimpleVerdict(decision, suggested_rules=[tool.name])

    def grant_session(self, rules: list[str]) -> None:
        self.session.extend(rules)

    def grant_always(self, rules: list[str]) -> None:
        self.always.extend(rules)
