"""API faults through both real SDKs: retries, human messages, dropped streams."""

from __future__ import annotations

import socket

import pytest

from agent_core.llm.base import RetryNotice, Stop, TextDelta
from tests.fakellm.collect import collect, of_type, provider_for, text_of

WIRES = ["anthropic", "openai"]
KEY_ENV = {"anthropic": "ANTHROPIC_API_KEY", "openai": "OPENAI_API_KEY"}


@pytest.mark.parametrize("wire", WIRES)
async def test_rate_limit_is_retried_with_a_notice_then_succeeds(fake_llm, wire) -> None:
    fake_llm.script([{"status": 429, "retry_after": 0}, {"text": "made it"}])
    events, err = await collect(provider_for(wire, fake_llm))
    assert err is None
    assert isinstance(events[0], RetryNotice)
    assert events[0].message.startswith("rate limited, retrying")
    assert text_of(events) == "made it" and events[-1] == Stop("end_turn")
    assert len(fake_llm.requests) == 2


@pytest.mark.parametrize("wire", WIRES)
async def test_retry_after_header_sets_the_delay(fake_llm, wire) -> None:
    fake_llm.script([{"status": 429, "retry_after": 0.2}, {"text": "ok"}])
    events, _ = await collect(provider_for(wire, fake_llm))
    assert events[0] == RetryNotice("rate limited, retrying in 0.2 s", 0.2)


@pytest.mark.parametrize("wire", WIRES)
async def test_overloaded_529_is_retried(fake_llm, wire) -> None:
    fake_llm.script([{"status": 529}, {"status": 529}, {"text": "ok"}])
    events, err = await collect(provider_for(wire, fake_llm))
    assert err is None
    notices = of_type(events, RetryNotice)
    assert len(notices) == 2 and all("the API is overloaded" in n.message for n in notices)


@pytest.mark.parametrize("wire", WIRES)
async def test_auth_failure_names_the_env_var_and_is_not_retried(fake_llm, wire) -> None:
    fake_llm.script([{"status": 401}, {"text": "never"}])
    events, err = await collect(provider_for(wire, fake_llm))
    assert err is not None and err.kind == "auth" and not err.retryable
    assert str(err) == f"authentication failed: check {KEY_ENV[wire]}"
    assert events == [] and len(fake_llm.requests) == 1


@pytest.mark.parametrize("wire", WIRES)
async def test_server_error_after_retries_exhausted(fake_llm, wire) -> None:
    fake_llm.script([{"status": 500}] * 3)
    events, err = await collect(provider_for(wire, fake_llm, retries=2))
    assert err is not None and err.kind == "server" and err.status == 500
    assert str(err) == "the API had a server error (500)"
    assert len(of_type(events, RetryNotice)) == 2 and len(fake_llm.requests) == 3


@pytest.mark.parametrize("wire", WIRES)
async def test_stream_cut_mid_answer_is_retried_as_a_restart(fake_llm, wire) -> None:
    fake_llm.script([{"text": "partial answer that never ends", "chunk_size": 5,
                      "cut_after_chunks": 2}, {"text": "the whole answer"}])  # fmt: skip
    events, err = await collect(provider_for(wire, fake_llm))
    assert err is None and len(fake_llm.requests) == 2
    (notice,) = of_type(events, RetryNotice)
    assert notice.restart and notice.message.startswith("the connection dropped mid-answer")
    restart = events.index(notice)
    assert text_of(events[:restart]) == "partial an"  # void: the answer comes again whole
    assert text_of(events[restart:]) == "the whole answer" and events[-1] == Stop("end_turn")


@pytest.mark.parametrize("wire", WIRES)
async def test_a_stream_that_keeps_dropping_fails_after_the_retries(fake_llm, wire) -> None:
    cut = {"text": "partial answer", "chunk_size": 5, "cut_after_chunks": 1}
    fake_llm.script([cut, cut, cut])
    events, err = await collect(provider_for(wire, fake_llm, retries=2))
    assert err is not None and err.kind == "stream_dropped"
    assert str(err) == "the connection dropped mid-answer"
    assert len(of_type(events, RetryNotice)) == 2 and len(fake_llm.requests) == 3


@pytest.mark.parametrize("wire", WIRES)
async def test_stream_ending_cleanly_without_final_events_is_dropped(fake_llm, wire) -> None:
    fake_llm.script([{"text": "abcdefghij", "chunk_size": 5, "cut_after_chunks": 1,
                      "cut_clean": True}])  # fmt: skip
    events, err = await collect(provider_for(wire, fake_llm, retries=0))
    assert text_of(events) == "abcde"
    assert err is not None and err.kind == "stream_dropped"


@pytest.mark.parametrize("wire", WIRES)
async def test_cut_before_any_content_is_retried(fake_llm, wire) -> None:
    fake_llm.script([{"text": "lost", "cut_after_chunks": 0}, {"text": "second try"}])
    events, err = await collect(provider_for(wire, fake_llm))
    assert err is None and text_of(events) == "second try"
    assert len(of_type(events, RetryNotice)) == 1


@pytest.mark.parametrize("wire", WIRES)
async def test_in_stream_overloaded_error_is_retried(fake_llm, wire) -> None:
    fake_llm.script([{"stream_error": "overloaded_error"}, {"text": "ok"}])
    events, err = await collect(provider_for(wire, fake_llm))
    assert err is None and text_of(events) == "ok"
    assert of_type(events, RetryNotice)


@pytest.mark.parametrize("wire", WIRES)
async def test_prompt_too_long_is_context_too_long(fake_llm, wire) -> None:
    fake_llm.script(
        [{"status": 400, "message": "prompt is too long: 210000 tokens > 200000 maximum"}]
    )
    events, err = await collect(provider_for(wire, fake_llm))
    assert err is not None and err.kind == "context_too_long"
    assert str(err).startswith("the prompt is too long") and "/compact" in str(err)
    assert not err.retryable and events == []


@pytest.mark.parametrize("wire", WIRES)
async def test_other_bad_request_shows_the_api_reason_on_one_line(fake_llm, wire) -> None:
    fake_llm.script([{"status": 400, "message": "tools.0.name:\n  bad name (key test-key)"}])
    _, err = await collect(provider_for(wire, fake_llm))
    assert err is not None and err.kind == "bad_request"
    assert "\n" not in str(err) and "bad name" in str(err)
    assert "test-key" not in str(err)  # the API key never reaches a message


@pytest.mark.parametrize("wire", WIRES)
async def test_connection_refused_names_the_base_url(wire) -> None:
    with socket.socket() as probe:  # a port nobody listens on once it is closed
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    provider = provider_for(wire, _Addr(port), retries=1)
    events, err = await collect(provider)
    assert err is not None and err.kind == "connection"
    assert str(err).startswith(f"cannot reach http://127.0.0.1:{port}")
    assert len(of_type(events, RetryNotice)) == 1


class _Addr:
    """Just the base URLs of a server that is not there."""

    def __init__(self, port: int) -> None:
        self.anthropic_base_url = f"http://127.0.0.1:{port}"
        self.openai_base_url = f"http://127.0.0.1:{port}/v1"


@pytest.mark.parametrize("wire", WIRES)
async def test_consumer_stopping_early_does_not_break_the_next_request(fake_llm, wire) -> None:
    fake_llm.script([{"text": "x" * 400, "chunk_size": 1}, {"text": "next"}])
    provider = provider_for(wire, fake_llm)
    from agent_core.llm.base import ChatRequest
    from agent_core.messages import user_text

    stream = provider.stream(ChatRequest(messages=[user_text("hi")]))
    async for event in stream:
        if isinstance(event, TextDelta):
            break
    await stream.aclose()
    events, err = await collect(provider)
    assert err is None and text_of(events) == "next"
