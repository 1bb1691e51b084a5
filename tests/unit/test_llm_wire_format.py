"""Pure request mapping and error classification, without a server."""

from __future__ import annotations

import pytest

from agent_core.llm.anthropic_format import build_params as anthropic_params
from agent_core.llm.anthropic_format import uses_adaptive_thinking
from agent_core.llm.base import ChatRequest
from agent_core.llm.openai_format import wire_messages
from agent_core.llm.provider_errors import public_url, retry_after_seconds, status_error
from agent_core.llm.tool_input import parse_tool_input
from agent_core.messages import ImageBlock, Message, TextBlock, user_text


@pytest.mark.parametrize(
    ("model", "adaptive"),
    [
        ("claude-sonnet-4-5", False),
        ("claude-sonnet-4-20250514", False),
        ("claude-opus-4-5-20251101", False),
        ("claude-haiku-4-5", False),
        ("claude-opus-4-6", True),
        ("claude-sonnet-4-6", True),
        ("claude-sonnet-5", True),
        ("claude-opus-5-5", True),
        ("glm-4.6", False),
    ],
)
def test_thinking_style_by_model(model: str, adaptive: bool) -> None:
    assert uses_adaptive_thinking(model) is adaptive
    params = anthropic_params(model, ChatRequest(messages=[user_text("q")], thinking_budget=4000))
    assert params["thinking"]["type"] == ("adaptive" if adaptive else "enabled")


def test_anthropic_empty_message_still_has_content() -> None:
    params = anthropic_params(
        "claude-haiku-4-5", ChatRequest(messages=[Message("assistant", [TextBlock("")])])
    )
    assert params["messages"][0]["content"] == [{"type": "text", "text": "(no content)"}]


def test_openai_user_content_is_a_string_unless_it_has_images() -> None:
    plain = wire_messages(ChatRequest(messages=[Message("user", [TextBlock("a"), TextBlock("b")])]))
    assert plain == [{"role": "user", "content": "a\n\nb"}]
    with_image = wire_messages(
        ChatRequest(
            messages=[Message("user", [TextBlock("see"), ImageBlock("image/jpeg", "Zm9v")])]
        )
    )
    assert with_image[0]["content"] == [
        {"type": "text", "text": "see"},
        {"type": "image_url", "image_url": {"url": "data:image/jpeg;base64,Zm9v"}},
    ]


@pytest.mark.parametrize(
    ("status", "message", "kind", "retryable"),
    [
        (401, "invalid x-api-key", "auth", False),
        (403, "forbidden", "auth", False),
        (429, "slow down", "rate_limit", True),
        (529, "Overloaded", "overloaded", True),
        (503, "unavailable", "server", True),
        (400, "prompt is too long: 210000 tokens > 200000 maximum", "context_too_long", False),
        (400, "This model's maximum context length is 128000 tokens", "context_too_long", False),
        (400, "messages.1: tool_use ids must be unique", "bad_request", False),
        (404, "model: claude-nope", "bad_request", False),
    ],
)
def test_status_classification(status: int, message: str, kind: str, retryable: bool) -> None:
    err = status_error(status, message, key_env="ANTHROPIC_API_KEY")
    assert (err.kind, err.retryable, err.status) == (kind, retryable, status)


def test_in_stream_error_type_classifies_without_a_status() -> None:
    assert status_error(200, "Overloaded", "overloaded_error", key_env="K").kind == "overloaded"


def test_retry_after_forms() -> None:
    assert retry_after_seconds({"retry-after": "3"}) == 3.0
    assert retry_after_seconds({"retry-after-ms": "1500"}) == 1.5
    assert retry_after_seconds({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}) == 0.0
    assert retry_after_seconds({"retry-after": "soon"}) is None
    assert retry_after_seconds({}) is None


def test_public_url_hides_credentials() -> None:
    assert (
        public_url("https://user:secret@proxy.example.com:8443/v1/")
        == "https://proxy.example.com:8443/v1"
    )


@pytest.mark.parametrize(
    ("raw", "value", "has_error"),
    [
        ("", {}, False),
        ("  ", {}, False),
        ('{"a": 1}', {"a": 1}, False),
        ("[1]", {}, True),
        ('{"a":', {}, True),
    ],
)
def test_parse_tool_input(raw: str, value: dict, has_error: bool) -> None:
    parsed, error = parse_tool_input(raw)
    assert parsed == value and (error is not None) is has_error
