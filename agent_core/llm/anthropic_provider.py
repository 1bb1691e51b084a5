"""The Anthropic provider: Messages API streaming through the official ``anthropic`` SDK."""

from __future__ import annotations

from typing import Any

from agent_core.llm.anthropic_format import build_params
from agent_core.llm.base import (
    ChatRequest,
    Stop,
    StreamEvent,
    TextDelta,
    ThinkingComplete,
    ThinkingDelta,
    ToolCallComplete,
    UsageReport,
)
from agent_core.llm.sdk_provider import SDKProvider
from agent_core.llm.tool_input import parse_tool_input
from agent_core.usage import Usage

DEFAULT_BASE_URL = "https://api.anthropic.com"
STOP_REASONS = {"end_turn", "tool_use", "max_tokens", "stop_sequence", "refusal"}


class AnthropicProvider(SDKProvider):
    """Streams Claude answers; the SDK is imported on first use, off the event loop."""

    name = "anthropic"

    default_base_url = DEFAULT_BASE_URL

    def __init__(
        self, model: str, *, api_key_env: str = "ANTHROPIC_API_KEY", **options: Any
    ) -> None:
        super().__init__(model, api_key_env=api_key_env, **options)

    def _build_params(self, request: ChatRequest) -> dict[str, Any]:
        return build_params(self.model, request)

    def _make_client(self) -> None:
        import anthropic

        self._sdk = anthropic
        self._client = anthropic.AsyncAnthropic(
            api_key=self._api_key, base_url=self._base_url, max_retries=0
        )

    async def _open(self, params: dict[str, Any]) -> Any:
        return await self._client.messages.create(**params, stream=True)

    def _assembler(self) -> AnthropicStreamAssembler:
        return AnthropicStreamAssembler()


class _Block:
    __slots__ = ("kind", "parts", "signature", "id", "name", "data", "start_input")

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.parts: list[str] = []
        self.signature = ""
        self.id = ""
        self.name = ""
        self.data = ""
        self.start_input: dict[str, Any] = {}


class AnthropicStreamAssembler:
    """Turns raw Messages stream events into provider-neutral stream events."""

    def __init__(self) -> None:
        self.blocks: dict[int, _Block] = {}
        self.usage = Usage()
        self.stop_reason: str | None = None
        self.finished = False

    @property
    def complete(self) -> bool:
        return self.finished

    def finish(self) -> list[StreamEvent]:
        return []  # every event went out as it arrived

    def feed(self, event: Any) -> list[StreamEvent]:
        kind = event.type
        if kind == "content_block_delta":
            return self._delta(event.index, event.delta)
        if kind == "content_block_start":
            self._start(event.index, event.content_block)
        elif kind == "content_block_stop":
            return self._stop(event.index)
        elif kind == "message_start":
            self._usage(event.message.usage)
        elif kind == "message_delta":
            self.stop_reason = event.delta.stop_reason or self.stop_reason
            self._usage(event.usage)
        elif kind == "message_stop":
            self.finished = True
            return [UsageReport(self.usage), Stop(self._stop_reason())]
        return []

    def _start(self, index: int, block: Any) -> None:
        slot = _Block(block.type)
        if block.type == "tool_use":
            slot.id, slot.name = block.id, block.name
            slot.start_input = block.input if isinstance(block.input, dict) else {}
        elif block.type == "redacted_thinking":
            slot.data = block.data
        elif block.type == "thinking":
            slot.parts.append(block.thinking or "")
            slot.signature = block.signature or ""
        self.blocks[index] = slot

    def _delta(self, index: int, delta: Any) -> list[StreamEvent]:
        kind = delta.type
        if kind == "text_delta":
            return [TextDelta(delta.text)] if delta.text else []
        slot = self.blocks.get(index)
        if slot is None:
            return []
        if kind == "input_json_delta":
            slot.parts.append(delta.partial_json)
        elif kind == "thinking_delta":
            slot.parts.append(delta.thinking)
            return [ThinkingDelta(delta.thinking)] if delta.thinking else []
        elif kind == "signature_delta":
            slot.signature += delta.signature
        return []

    def _stop(self, index: int) -> list[StreamEvent]:
        slot = self.blocks.pop(index, None)
        if slot is None:
            return []
        if slot.kind == "thinking":
            return [ThinkingComplete("".join(slot.parts), slot.signature)]
        if slot.kind == "redacted_thinking":
            return [ThinkingComplete("", redacted_data=slot.data)]
        if slot.kind == "tool_use":
            raw = "".join(slot.parts)
            if not raw.strip() and slot.start_input:
                return [ToolCallComplete(slot.id, slot.name, slot.start_input)]
            value, error = parse_tool_input(raw)
            return [ToolCallComplete(slot.id, slot.name, value, error)]
        return []

    def _usage(self, usage: Any) -> None:
        if usage is None:
            return
        u = self.usage
        # Figures are cumulative; message_delta may repeat or omit the input side.
        self.usage = Usage(
            input_tokens=_pick(usage, "input_tokens", u.input_tokens),
            output_tokens=_pick(usage, "output_tokens", u.output_tokens),
            cache_read_tokens=_pick(usage, "cache_read_input_tokens", u.cache_read_tokens),
            cache_write_tokens=_pick(usage, "cache_creation_input_tokens", u.cache_write_tokens),
        )

    def _stop_reason(self) -> Any:
        reason = self.stop_reason
        if reason in STOP_REASONS:
            return reason
        if reason == "model_context_window_exceeded":
            return "max_tokens"
        return "other"


def _pick(usage: Any, field: str, current: int) -> int:
    value = getattr(usage, field, None)
    return current if value is None else int(value)
