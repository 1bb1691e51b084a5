"""AnthropicProvider through the real ``anthropic`` SDK against the fake server."""

from __future__ import annotations

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
GREP = ToolSpec("Grep", "Search", {"type": "object", "properties": {"pattern": {"type": "string"}}})


async def test_text_streams_in_pieces_and_ends_with_usage_then_stop(fake_llm) -> None:
    fake_llm.script([{"text": "Hello there, world!", "chunk_size": 4}])
    events, err = await collect(provider_for("anthropic", fake_llm))
    assert err is None
    deltas = of_type(events, TextDelta)
    assert len(deltas) == 5 and text_of(events) == "Hello there, world!"
    assert isinstance(events[-2], UsageReport) and events[-1] == Stop("end_turn")
    assert fake_llm.requests[0].body["stream"] is True
    assert fake_llm.requests[0].body["model"] == "claude-haiku-4-5"


async def test_tool_arguments_in_many_fragments_are_assembled(fake_llm) -> None:
    args = {"path": "src/app.py", "limit": 200, "nested": {"a": [1, 2, 3]}}
    fake_llm.script([{"tool_calls": [{"id": "toolu_1", "name": "Read", "input": args}],
                      "chunk_size": 2}])  # fmt: skip
    events, err = await collect(provider_for("anthropic", fake_llm))
    assert err is None
    assert of_type(events, ToolCallComplete) == [ToolCallComplete("toolu_1", "Read", args)]
    assert events[-1] == Stop("tool_use")


async def test_two_parallel_tool_calls_keep_order_and_ids(fake_llm) -> None:
    fake_llm.script([{
        "text": "Looking.",
        "tool_calls": [
            {"id": "toolu_a", "name": "Read", "input": {"path": "a.py"}},
            {"id": "toolu_b", "name": "Grep", "input": {"pattern": "def main"}},
        ],
    }])  # fmt: skip
    events, _ = await collect(provider_for("anthropic", fake_llm))
    calls = of_type(events, ToolCallComplete)
    assert [(c.id, c.name, c.input) for c in calls] == [
        ("toolu_a", "Read", {"path": "a.py"}),
        ("toolu_b", "Grep", {"pattern": "def main"}),
    ]
    # Text comes before the calls, as the model wrote it.
    assert events.index(calls[0]) > max(events.index(d) for d in of_type(events, TextDelta))


async def test_thinking_streams_and_completes_with_its_signature(fake_llm) -> None:
    fake_llm.script([{"thinking": "The user wants a greeting.", "signature": "EqQBCkYIBRgCKkD",
                      "text": "Hi!"}])  # fmt: skip
    events, _ = await collect(provider_for("anthropic", fake_llm))
    assert "".join(e.text for e in of_type(events, ThinkingDelta)) == "The user wants a greeting."
    assert of_type(events, ThinkingComplete) == [
        ThinkingComplete("The user wants a greeting.", "EqQBCkYIBRgCKkD")
    ]
    first_text = events.index(of_type(events, TextDelta)[0])
    assert events.index(of_type(events, ThinkingComplete)[0]) < first_text


async def test_redacted_thinking_is_kept_as_opaque_data(fake_llm) -> None:
    fake_llm.script([{"redacted_thinking": "ENCRYPTED==", "text": "ok"}])
    events, _ = await collect(provider_for("anthropic", fake_llm))
    assert of_type(events, ThinkingComplete) == [ThinkingComplete("", redacted_data="ENCRYPTED==")]


async def test_usage_reports_cache_read_and_write(fake_llm) -> None:
    usage = {"input_tokens": 120, "output_tokens": 33, "cache_read": 4000, "cache_write": 250}
    fake_llm.script([{"text": "ok", "usage": usage}])
    events, _ = await collect(provider_for("anthropic", fake_llm))
    assert of_type(events, UsageReport) == [UsageReport(Usage(120, 33, 4000, 250))]


async def test_cache_control_on_stable_system_block_and_last_tool_only(fake_llm) -> None:
    fake_llm.script([{"text": "ok"}])
    request = ChatRequest(
        messages=[user_text("hi")],
        system=[SystemBlock("You are MewCode.", cache=True), SystemBlock("cwd: /tmp/p")],
        tools=[READ, GREP],
    )
    await collect(provider_for("anthropic", fake_llm), request)
    body = fake_llm.requests[0].body
    assert body["system"] == [
        {"type": "text", "text": "You are MewCode.", "cache_control": {"type": "ephemeral"}},
        {"type": "text", "text": "cwd: /tmp/p"},
    ]
    assert "cache_control" not in body["tools"][0]
    assert body["tools"][1]["cache_control"] == {"type": "ephemeral"}
    assert body["tools"][1]["input_schema"] == GREP.input_schema


async def test_thinking_budget_is_sent_and_temperature_dropped(fake_llm) -> None:
    fake_llm.script([{"text": "ok"}])
    request = ChatRequest(messages=[user_text("hi")], thinking_budget=2048, temperature=0.2,
                          max_tokens=1000)  # fmt: skip
    await collect(provider_for("anthropic", fake_llm), request)
    body = fake_llm.requests[0].body
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 2048}
    assert body["max_tokens"] > 2048 and "temperature" not in body


async def test_invalid_tool_json_gives_input_error_not_a_crash(fake_llm) -> None:
    fake_llm.script([{"tool_calls": [{"id": "toolu_x", "name": "Bash",
                                      "raw_arguments": '{"command": "ls'}]}])  # fmt: skip
    events, err = await collect(provider_for("anthropic", fake_llm))
    assert err is None
    (call,) = of_type(events, ToolCallComplete)
    assert call.input == {} and call.name == "Bash"
    assert call.input_error and "invalid JSON" in call.input_error


async def test_empty_tool_arguments_mean_an_empty_input(fake_llm) -> None:
    fake_llm.script([{"tool_calls": [{"id": "toolu_e", "name": "Ls", "raw_arguments": ""}]}])
    events, _ = await collect(provider_for("anthropic", fake_llm))
    assert of_type(events, ToolCallComplete) == [ToolCallComplete("toolu_e", "Ls", {})]


async def test_history_round_trip_in_anthropic_format(fake_llm) -> None:
    fake_llm.script([{"text": "The file has one line."}])
    history = [
        user_text("read a.py"),
        Message("assistant", [
            ThinkingBlock("I should read it.", "sig-9"),
            TextBlock("Reading."),
            ToolUseBlock("toolu_1", "Read", {"path": "a.py"}),
        ]),
        Message("user", [
            ToolResultBlock("toolu_1", "print('hi')"),
            ToolResultBlock("toolu_2", [TextBlock("shot"), ImageBlock("image/png", "iVBORw0KGgo=")],
                            is_error=True),
        ]),
    ]  # fmt: skip
    await collect(provider_for("anthropic", fake_llm), ChatRequest(messages=history))
    sent = fake_llm.requests[0].body["messages"]
    assert sent[1] == {"role": "assistant", "content": [
        {"type": "thinking", "thinking": "I should read it.", "signature": "sig-9"},
        {"type": "text", "text": "Reading."},
        {"type": "tool_use", "id": "toolu_1", "name": "Read", "input": {"path": "a.py"}},
    ]}  # fmt: skip
    assert sent[2]["content"][0] == {"type": "tool_result", "tool_use_id": "toolu_1",
                                     "content": "print('hi')"}  # fmt: skip
    image_result = sent[2]["content"][1]
    assert image_result["is_error"] is True
    assert image_result["content"][1] == {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="},
    }


async def test_unsigned_thinking_from_another_vendor_is_not_sent(fake_llm) -> None:
    fake_llm.script([{"text": "ok"}])
    history = [user_text("q"), Message("assistant", [ThinkingBlock("r"), TextBlock("a")]),
               user_text("again")]  # fmt: skip
    await collect(provider_for("anthropic", fake_llm), ChatRequest(messages=history))
    assert fake_llm.requests[0].body["messages"][1]["content"] == [{"type": "text", "text": "a"}]
