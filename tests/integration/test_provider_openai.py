"""OpenAIProvider through the real ``openai`` SDK against the fake server."""

from __future__ import annotations

import json

from agent_core.llm.base import (
    ChatRequest,
    Stop,
    SystemBlock,
    TextDelta,
    ThinkingComplete,
    ThinkingDelta,
    ToolCallComplete,
    ToolSpec,
    UsageReport,
)
from agent_core.messages import (
    ImageBlock,
    Message,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
    user_text,
)
from agent_core.usage import Usage
from tests.fakellm.collect import collect, of_type, provider_for, text_of

READ = ToolSpec(
    "Read", "Read a file", {"type": "object", "properties": {"path": {"type": "string"}}}
)


async def test_text_streams_in_pieces_and_ends_with_usage_then_stop(fake_llm) -> None:
    fake_llm.script([{"text": "Hello there, world!", "chunk_size": 4}])
    events, err = await collect(provider_for("openai", fake_llm))
    assert err is None
    assert len(of_type(events, TextDelta)) == 5 and text_of(events) == "Hello there, world!"
    assert isinstance(events[-2], UsageReport) and events[-1] == Stop("end_turn")
    body = fake_llm.requests[0].body
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}
    assert body["max_tokens"] == 8192


async def test_tool_arguments_in_many_fragments_are_assembled_by_index(fake_llm) -> None:
    args = {"path": "src/app.py", "limit": 200, "nested": {"a": [1, 2, 3]}}
    fake_llm.script([{"tool_calls": [{"id": "call_1", "name": "Read", "input": args}],
                      "chunk_size": 2}])  # fmt: skip
    events, err = await collect(provider_for("openai", fake_llm))
    assert err is None
    assert of_type(events, ToolCallComplete) == [ToolCallComplete("call_1", "Read", args)]
    assert events[-1] == Stop("tool_use")


async def test_two_parallel_tool_calls_keep_order_and_ids(fake_llm) -> None:
    fake_llm.script([{"tool_calls": [
        {"id": "call_a", "name": "Read", "input": {"path": "a.py"}},
        {"id": "call_b", "name": "Grep", "input": {"pattern": "x"}},
    ]}])  # fmt: skip
    events, _ = await collect(provider_for("openai", fake_llm))
    assert [(c.id, c.name, c.input) for c in of_type(events, ToolCallComplete)] == [
        ("call_a", "Read", {"path": "a.py"}),
        ("call_b", "Grep", {"pattern": "x"}),
    ]


async def test_reasoning_content_becomes_thinking(fake_llm) -> None:
    fake_llm.script([{"thinking": "Let me consider.", "text": "Answer.", "chunk_size": 5}])
    events, _ = await collect(provider_for("openai", fake_llm))
    assert "".join(e.text for e in of_type(events, ThinkingDelta)) == "Let me consider."
    (done,) = of_type(events, ThinkingComplete)
    assert done.thinking == "Let me consider."
    assert events.index(done) < events.index(of_type(events, TextDelta)[0])


async def test_usage_splits_cached_tokens_out_of_prompt_tokens(fake_llm) -> None:
    fake_llm.script([{"text": "ok", "usage": {"input_tokens": 300, "output_tokens": 12,
                                              "cache_read": 1700}}])  # fmt: skip
    events, _ = await collect(provider_for("openai", fake_llm))
    assert of_type(events, UsageReport) == [UsageReport(Usage(300, 12, 1700, 0))]


async def test_system_and_tools_in_chat_format(fake_llm) -> None:
    fake_llm.script([{"text": "ok"}])
    request = ChatRequest(
        messages=[user_text("hi")],
        system=[SystemBlock("You are MewCode.", cache=True), SystemBlock("cwd: /p")],
        tools=[READ],
    )
    await collect(provider_for("openai", fake_llm), request)
    body = fake_llm.requests[0].body
    assert body["messages"][0] == {"role": "system", "content": "You are MewCode.\n\ncwd: /p"}
    assert body["messages"][1] == {"role": "user", "content": "hi"}
    assert body["tools"] == [{"type": "function", "function": {
        "name": "Read", "description": "Read a file", "parameters": READ.input_schema}}]  # fmt: skip


async def test_invalid_tool_json_gives_input_error(fake_llm) -> None:
    fake_llm.script([{"tool_calls": [{"id": "call_x", "name": "Bash",
                                      "raw_arguments": "{'command': 'ls'}"}]}])  # fmt: skip
    events, err = await collect(provider_for("openai", fake_llm))
    assert err is None
    (call,) = of_type(events, ToolCallComplete)
    assert call.input == {} and call.input_error and "invalid JSON" in call.input_error


async def test_history_round_trip_in_openai_format(fake_llm) -> None:
    fake_llm.script([{"text": "done"}])
    history = [
        user_text("look at a.py and the screenshot"),
        Message("assistant", [
            ThinkingBlock("private reasoning"),
            TextBlock("Reading."),
            ToolUseBlock("call_1", "Read", {"path": "a.py"}),
            ToolUseBlock("call_2", "Screenshot", {}),
        ]),
        Message("user", [
            ToolResultBlock("call_1", "print('hi')"),
            ToolResultBlock("call_2", [TextBlock("captured"), ImageBlock("image/png", "AAAA")]),
            TextBlock("also, be brief"),
        ]),
    ]  # fmt: skip
    await collect(provider_for("openai", fake_llm), ChatRequest(messages=history))
    sent = fake_llm.requests[0].body["messages"]
    assert sent[1] == {
        "role": "assistant",
        "content": "Reading.",
        "tool_calls": [
            {"id": "call_1", "type": "function",
             "function": {"name": "Read", "arguments": json.dumps({"path": "a.py"})}},
            {"id": "call_2", "type": "function",
             "function": {"name": "Screenshot", "arguments": "{}"}},
        ],
    }  # fmt: skip
    assert sent[2] == {"role": "tool", "tool_call_id": "call_1", "content": "print('hi')"}
    assert sent[3]["role"] == "tool" and sent[3]["tool_call_id"] == "call_2"
    assert sent[3]["content"].startswith("captured")
    # Tool messages carry text only: the image follows in a user message, with the user's text.
    assert sent[4]["role"] == "user"
    parts = sent[4]["content"]
    assert {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}} in parts
    assert parts[-1] == {"type": "text", "text": "also, be brief"}
    assert len(sent) == 5


async def test_reasoning_models_get_max_completion_tokens(fake_llm) -> None:
    from agent_core.llm.openai_provider import OpenAIProvider

    fake_llm.script([{"text": "ok"}])
    provider = OpenAIProvider("o4-mini", api_key="k", base_url=fake_llm.openai_base_url)
    request = ChatRequest(messages=[user_text("hi")], max_tokens=500, thinking_budget=20000)
    await collect(provider, request)
    body = fake_llm.requests[0].body
    assert body["max_completion_tokens"] == 500 and "max_tokens" not in body
    assert body["reasoning_effort"] == "high"
