"""The fake LLM server itself: scripting, recording, faults and the standalone command."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.fakellm import EXHAUSTED, FakeLLMServer, last_tool_result_text, last_user_text
from tests.fakellm.collect import collect, provider_for, text_of

ROOT = Path(__file__).resolve().parents[2]


def post(url: str, body: dict) -> tuple[int, bytes]:
    request = urllib.request.Request(url, json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})  # fmt: skip
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


def test_exhausted_script_answers_500_with_a_clear_message(fake_llm) -> None:
    status, body = post(f"{fake_llm.url}/v1/messages", {"model": "m", "messages": []})
    assert status == 500
    assert json.loads(body)["error"]["message"] == EXHAUSTED


def test_non_streaming_requests_get_plain_json_in_each_format(fake_llm) -> None:
    fake_llm.script(
        [{"text": "hello", "tool_calls": [{"id": "t1", "name": "Ls", "input": {}}]}] * 2
    )
    _, body = post(f"{fake_llm.url}/v1/messages", {"model": "m", "messages": []})
    message = json.loads(body)
    assert message["content"][0] == {"type": "text", "text": "hello"}
    assert message["stop_reason"] == "tool_use"
    _, body = post(f"{fake_llm.openai_base_url}/chat/completions", {"model": "m", "messages": []})
    choice = json.loads(body)["choices"][0]
    assert choice["message"]["content"] == "hello" and choice["finish_reason"] == "tool_calls"


def test_stream_wire_formats_match_the_real_apis(fake_llm) -> None:
    fake_llm.script(
        [{"text": "hi", "tool_calls": [{"id": "t1", "name": "Ls", "input": {"a": 1}}]}] * 2
    )
    _, raw = post(f"{fake_llm.url}/v1/messages", {"model": "m", "stream": True, "messages": []})
    names = [line[7:] for line in raw.decode().splitlines() if line.startswith("event: ")]
    assert names[:2] == ["message_start", "ping"] and names[-2:] == [
        "message_delta",
        "message_stop",
    ]
    assert '"partial_json": ""' in raw.decode()  # tool_use opens with an empty fragment
    _, raw = post(f"{fake_llm.openai_base_url}/chat/completions",
                  {"model": "m", "stream": True, "stream_options": {"include_usage": True}})  # fmt: skip
    lines = [line[6:] for line in raw.decode().splitlines() if line.startswith("data: ")]
    assert lines[-1] == "[DONE]"
    assert json.loads(lines[-2])["choices"] == [] and "usage" in json.loads(lines[-2])
    first_call = json.loads(lines[2])["choices"][0]["delta"]["tool_calls"][0]
    assert first_call["id"] == "t1" and first_call["function"]["name"] == "Ls"


async def test_callable_step_answers_from_the_request(fake_llm) -> None:
    fake_llm.script([
        {"tool_calls": [{"id": "toolu_1", "name": "Read", "input": {"path": "a"}}]},
        lambda body: {"text": f"the file says {last_tool_result_text(body)}"},
    ])  # fmt: skip
    from agent_core.llm.base import ChatRequest
    from agent_core.messages import Message, ToolResultBlock, ToolUseBlock, user_text

    provider = provider_for("anthropic", fake_llm)
    await collect(provider)
    history = [
        user_text("read a"),
        Message("assistant", [ToolUseBlock("toolu_1", "Read", {"path": "a"})]),
        Message("user", [ToolResultBlock("toolu_1", "42")]),
    ]
    events, _ = await collect(provider, ChatRequest(messages=history))
    assert text_of(events) == "the file says 42"


async def test_responder_serves_every_request_after_the_script(fake_llm) -> None:
    fake_llm.responder = lambda body: {"text": f"echo {last_user_text(body)}"}
    from agent_core.llm.base import ChatRequest
    from agent_core.messages import user_text

    for word in ("one", "two"):
        events, _ = await collect(provider_for("openai", fake_llm),
                                  ChatRequest(messages=[user_text(word)]))  # fmt: skip
        assert text_of(events) == f"echo {word}"


async def test_requests_are_recorded_with_headers_and_body(fake_llm) -> None:
    fake_llm.script([{"text": "ok"}])
    await collect(provider_for("openai", fake_llm))
    (recorded,) = fake_llm.requests
    assert recorded.wire == "openai" and recorded.path == "/v1/chat/completions"
    assert recorded.headers["authorization"] == "Bearer test-key"
    assert recorded.body["messages"] == [{"role": "user", "content": "hi"}]


def test_typos_in_a_script_fail_loudly() -> None:
    with pytest.raises(ValueError, match="unknown step keys"):
        FakeLLMServer([{"txt": "oops"}])
    with pytest.raises(ValueError, match="unknown tool call keys"):
        FakeLLMServer([{"tool_calls": [{"name": "Read", "args": {}}]}])


def test_loop_mode_repeats_the_script(fake_llm) -> None:
    fake_llm.script([{"text": "a"}, {"text": "b"}], loop=True)
    texts = []
    for _ in range(3):
        _, body = post(f"{fake_llm.url}/v1/messages", {"model": "m", "messages": []})
        texts.append(json.loads(body)["content"][0]["text"])
    assert texts == ["a", "b", "a"]


def test_env_points_a_subprocess_at_the_server(fake_llm) -> None:
    assert fake_llm.env("anthropic") == {
        "ANTHROPIC_API_KEY": "test-key",
        "ANTHROPIC_BASE_URL": fake_llm.url,
        "MEWCODE_PROVIDER": "anthropic",
    }
    assert fake_llm.env("openai")["OPENAI_BASE_URL"].endswith("/v1")


def test_standalone_command_serves_a_script_file(tmp_path: Path) -> None:
    script = tmp_path / "steps.json"
    script.write_text(json.dumps([{"text": "from a file"}]))
    proc = subprocess.Popen([sys.executable, "-m", "tests.fakellm", "--script", str(script)],
                            cwd=ROOT, stdout=subprocess.PIPE, text=True)  # fmt: skip
    try:
        url = proc.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:")
        _, body = post(f"{url}/v1/messages", {"model": "m", "messages": []})
        assert json.loads(body)["content"][0]["text"] == "from a file"
    finally:
        proc.terminate()
        proc.wait(timeout=5)


@pytest.mark.parametrize("wire", ["anthropic", "openai"])
async def test_a_warmed_provider_builds_its_client_once_and_streams_with_it(fake_llm, wire) -> None:
    from agent_core.llm.base import Warmable

    provider = provider_for(wire, fake_llm)
    assert isinstance(provider, Warmable)
    assert fake_llm.requests == []  # warming sends nothing
    await provider.warm()
    client = provider._client
    assert client is not None
    await provider.warm()
    assert provider._client is client
    fake_llm.script([{"text": "ready"}])
    events, err = await collect(provider)
    assert err is None and text_of(events) == "ready"
    assert provider._client is client
    await provider.aclose()
