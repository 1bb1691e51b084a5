"""Test helpers: build providers against the fake server and collect their stream events."""

from __future__ import annotations

from typing import Any

from agent_core.errors import ProviderError
from agent_core.llm.base import ChatRequest, StreamEvent, TextDelta
from agent_core.messages import user_text
from tests.fakellm.server import FakeLLMServer


def provider_for(wire: str, server: FakeLLMServer, **kwargs: Any):
    """An Anthropic or OpenAI provider pointed at ``server`` with near-zero backoff."""
    kwargs.setdefault("backoff_base", 0.001)
    if wire == "anthropic":
        from agent_core.llm.anthropic_provider import AnthropicProvider

        return AnthropicProvider("claude-haiku-4-5", api_key="test-key",
                                 base_url=server.anthropic_base_url, **kwargs)  # fmt: skip
    from agent_core.llm.openai_provider import OpenAIProvider

    return OpenAIProvider("gpt-4.1", api_key="test-key", base_url=server.openai_base_url, **kwargs)


async def collect(
    provider, request: ChatRequest | None = None
) -> tuple[list[StreamEvent], ProviderError | None]:
    """Every event the provider yields, and the ProviderError that ended it, if any."""
    request = request or ChatRequest(messages=[user_text("hi")])
    events: list[StreamEvent] = []
    try:
        async for event in provider.stream(request):
            events.append(event)
    except ProviderError as err:
        return events, err
    return events, None


def text_of(events: list[StreamEvent]) -> str:
    return "".join(e.text for e in events if isinstance(e, TextDelta))


def of_type(events: list[StreamEvent], kind: type) -> list:
    return [e for e in events if isinstance(e, kind)]
