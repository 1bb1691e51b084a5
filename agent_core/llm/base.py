"""The provider-neutral request, stream events and the three-member Provider."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any, Literal, Protocol, runtime_checkable

import msgspec

from agent_core.messages import Message
from agent_core.usage import Usage


class SystemBlock(msgspec.Struct, frozen=True):
    """One block of the system prompt; ``cache`` marks a stable, cacheable block."""

    text: str
    cache: bool = False


class ToolSpec(msgspec.Struct, frozen=True):
    name: str
    description: str
    input_schema: dict[str, Any]


class ChatRequest(msgspec.Struct):
    messages: list[Message]
    system: list[SystemBlock] = []
    tools: list[ToolSpec] = []
    max_tokens: int = 8192
    temperature: float | None = None
    thinking_budget: int | None = None  # extended thinking tokens, when supported
    options: dict[str, Any] = {}


# --- stream events: the same for every vendor -------------------------------


class TextDelta(msgspec.Struct, frozen=True, tag="text"):
    text: str


class ThinkingDelta(msgspec.Struct, frozen=True, tag="thinking"):
    text: str


class ThinkingComplete(msgspec.Struct, frozen=True, tag="thinking_complete"):
    """A finished thinking block, kept in history with its signature."""

    thinking: str
    signature: str = ""
    redacted_data: str = ""


class ToolCallComplete(msgspec.Struct, frozen=True, tag="tool_call"):
    """A tool call whose argument fragments have all arrived.

    ``input_error`` is set (and ``input`` empty) when the model's JSON was
    invalid; the loop turns that into an error result for the model.
    """

    id: str
    name: str
    input: dict[str, Any]
    input_error: str | None = None


class UsageReport(msgspec.Struct, frozen=True, tag="usage"):
    usage: Usage


class Stop(msgspec.Struct, frozen=True, tag="stop"):
    reason: Literal["end_turn", "tool_use", "max_tokens", "stop_sequence", "refusal", "other"]


class RetryNotice(msgspec.Struct, frozen=True, tag="retry"):
    """A failed attempt will be retried after ``delay_s`` seconds.

    ``restart``: the attempt had streamed part of an answer; what it streamed is void and
    the answer starts again from its beginning.
    """

    message: str  # e.g. "rate limited, retrying in 4 s"
    delay_s: float
    restart: bool = False


StreamEvent = (
    TextDelta
    | ThinkingDelta
    | ThinkingComplete
    | ToolCallComplete
    | UsageReport
    | Stop
    | RetryNotice
)


class Provider(Protocol):
    """A streaming chat backend. Three members, no more."""

    name: str
    model: str

    def stream(self, request: ChatRequest) -> AsyncIterator[StreamEvent]: ...


@runtime_checkable
class Warmable(Protocol):
    """A provider that can get ready (build its HTTP client) before the first request."""

    async def warm(self) -> None: ...
