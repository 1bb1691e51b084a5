"""The OpenAI provider: Chat Completions streaming through the official ``openai`` SDK.

Works with any OpenAI-compatible server (vLLM, Ollama, llama.cpp, DeepSeek,
OpenRouter...) through the base URL.
"""

from __future__ import annotations

from typing import Any

from agent_core.errors import ProviderError
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
from agent_core.llm.openai_format import build_params
from agent_core.llm.sdk_provider import SDKProvider
from agent_core.llm.tool_input import parse_tool_input
from agent_core.usage import Usage

DEFAULT_BASE_URL = "https://api.openai.com/v1"
FINISH_REASONS = {
    "stop": "end_turn",
    "tool_calls": "tool_use",
    "function_call": "tool_use",
    "length": "max_tokens",
    "content_filter": "refusal",
}


class OpenAIProvider(SDKProvider):
    """Streams chat completions; the SDK is imported on first use, off the event loop."""

    name = "openai"

    default_base_url = DEFAULT_BASE_URL

    def __init__(self, model: str, *, api_key_env: str = "OPENAI_API_KEY", **options: Any) -> None:
        super().__init__(model, api_key_env=api_key_env, **options)

    def _build_params(self, request: ChatRequest) -> dict[str, Any]:
        return build_params(self.model, request)

    def _make_client(self) -> None:
        import openai

        self._sdk = openai
        try:
            self._client = openai.AsyncOpenAI(
                api_key=self._api_key, base_url=self._base_url, max_retries=0
            )
        except openai.OpenAIError as exc:  # no key anywhere
            raise ProviderError(
                "not_configured", f"no API key configured: set {self._key_env}"
            ) from exc

    async def _open(self, params: dict[str, Any]) -> Any:
        return await self._client.chat.completions.create(**params)

    def _assembler(self) -> OpenAIStreamAssembler:
        return OpenAIStreamAssembler()


class _Call:
    __slots__ = ("id", "name", "parts")

    def __init__(self) -> None:
        self.id = ""
        self.name = ""
        self.parts: list[str] = []


class OpenAIStreamAssembler:
    """Turns chat completion chunks into provider-neutral stream events."""

    def __init__(self) -> None:
        self.thinking: list[str] = []
        self.thinking_open = False
        self.calls: dict[int, _Call] = {}
        self.finish_reason: str | None = None
        self.usage: Usage | None = None

    @property
    def complete(self) -> bool:
        # A cut after finish_reason loses only the usage chunk: the answer is whole.
        return self.finish_reason is not None

    def feed(self, chunk: Any) -> list[StreamEvent]:
        if chunk.usage is not None:
            self.usage = usage_from(chunk.usage)
        out: list[StreamEvent] = []
        for choice in chunk.choices:
            if choice.index != 0:
                continue
            delta = choice.delta
            reasoning = getattr(delta, "reasoning_content", None) or getattr(
                delta, "reasoning", None
            )
            if isinstance(reasoning, str) and reasoning:
                self.thinking.append(reasoning)
                self.thinking_open = True
                out.append(ThinkingDelta(reasoning))
            if delta.content:
                out.extend(self._close_thinking())
                out.append(TextDelta(delta.content))
            if delta.tool_calls:
                out.extend(self._close_thinking())
                for fragment in delta.tool_calls:
                    self._add_fragment(fragment)
            if choice.finish_reason:
                self.finish_reason = choice.finish_reason
        return out

    def _add_fragment(self, fragment: Any) -> None:
        call = self.calls.setdefault(fragment.index or 0, _Call())
        if fragment.id:
            call.id = fragment.id
        function = fragment.function
        if function is not None:
            if function.name and not call.name:
                call.name = function.name
            if function.arguments:
                call.parts.append(function.arguments)

    def _close_thinking(self) -> list[StreamEvent]:
        if not self.thinking_open:
            return []
        self.thinking_open = False
        text = "".join(self.thinking)
        self.thinking.clear()
        return [ThinkingComplete(text)]

    def finish(self) -> list[StreamEvent]:
        """Events once the stream is complete: thinking, tool calls, usage, stop."""
        out = self._close_thinking()
        for index in sorted(self.calls):
            call = self.calls[index]
            value, error = parse_tool_input("".join(call.parts))
            out.append(ToolCallComplete(call.id or f"call_{index}", call.name, value, error))
        if self.usage is not None:
            out.append(UsageReport(self.usage))
        reason = FINISH_REASONS.get(self.finish_reason or "", "other")
        if self.calls and reason == "end_turn":
            reason = "tool_use"  # some compatible servers say "stop" after tool calls
        out.append(Stop(reason))  # type: ignore[arg-type]
        return out


def usage_from(usage: Any) -> Usage:
    """OpenAI counts cached tokens inside prompt_tokens; split them out."""
    prompt = usage.prompt_tokens or 0
    details = getattr(usage, "prompt_tokens_details", None)
    cached = (getattr(details, "cached_tokens", None) or 0) if details else 0
    written = (getattr(details, "cache_write_tokens", None) or 0) if details else 0
    if not cached:
        cached = getattr(usage, "prompt_cache_hit_tokens", None) or 0  # DeepSeek
    return Usage(
        input_tokens=max(0, prompt - cached - written),
        output_tokens=usage.completion_tokens or 0,
        cache_read_tokens=cached,
        cache_write_tokens=written,
    )
