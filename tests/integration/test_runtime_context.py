"""Context management through the whole runtime against the fake server (docs/manual.md#sessions-and-context, issue 5)."""

from __future__ import annotations

import asyncio
import json

from agent_core import events as ev
from agent_core.agent.runtime import Runtime, RuntimeOptions
from agent_core.channel import RendezvousChannel
from agent_core.config.settings import load_settings
from agent_core.context import SUMMARY_HEADINGS
from agent_core.llm.anthropic_provider import AnthropicProvider
from agent_core.session.repair import history_problems

SUMMARY = "\n".join(f"## {h}\n- noted" for h in SUMMARY_HEADINGS)
BIG = {"input_tokens": 200_000, "output_tokens": 10}


def is_summary_request(body: dict) -> bool:
    return "summaries of coding sessions" in json.dumps(body.get("system", ""))


def tool_results_in(body: dict) -> int:
    return json.dumps(body["messages"]).count('"tool_result"')


async def run(runtime: Runtime, prompt: str) -> tuple[ev.TurnCompleted, list[ev.Event]]:
    channel: RendezvousChannel = RendezvousChannel()
    seen: list[ev.Event] = []

    async def consume() -> None:
        async for event in channel:
            seen.append(event)
            if isinstance(event, ev.TurnCompleted):
                return

    consumer = asyncio.create_task(consume())
    done = await runtime.run_turn(prompt, channel, can_ask=False)
    await consumer
    return done, seen


async def open_runtime(fake_llm, project, paths) -> Runtime:
    (project / "notes.txt").write_text("remember the blue door\n")
    provider = AnthropicProvider(
        "claude-test", api_key="test-key", base_url=fake_llm.anthropic_base_url, retries=0
    )
    return await Runtime.open(
        RuntimeOptions(cwd=project, paths=paths, settings=load_settings(paths), provider=provider)
    )


async def test_a_growing_session_is_compacted_and_the_next_request_carries_the_summary(
    fake_llm, project, paths
) -> None:
    def responder(body: dict) -> dict:
        if is_summary_request(body):
            return {"text": SUMMARY}
        n = tool_results_in(body)
        if n < 4:
            usage = BIG if n == 3 else {"input_tokens": 500, "output_tokens": 10}
            return {
                "tool_calls": [{"name": "Read", "input": {"file_path": "notes.txt"}}],
                "usage": usage,
            }
        return {"text": "finished"}

    fake_llm.responder = responder
    runtime = await open_runtime(fake_llm, project, paths)
    # The prompt is long enough for its summary to be smaller than it.
    done, seen = await run(runtime, "read the notes a few times " + "background " * 400)
    await runtime.close()

    assert done.stop_reason == "end_turn" and done.final_text == "finished"
    compactions = [e for e in seen if isinstance(e, ev.Compaction) and e.layer == "summary"]
    assert len(compactions) == 1
    summary_index = next(i for i, r in enumerate(fake_llm.requests) if is_summary_request(r.body))
    after = fake_llm.requests[summary_index + 1].body
    first = json.dumps(after["messages"][0])
    assert all(h in first for h in SUMMARY_HEADINGS)
    assert "notes.txt" in first and "read the files" in first.lower()
    assert history_problems(runtime.history) == []
    # tool_use / tool_result pairs were never split in what the model saw next.
    for i, msg in enumerate(after["messages"]):
        uses = [
            b["id"] for b in msg["content"] if isinstance(b, dict) and b.get("type") == "tool_use"
        ]
        if uses:
            results = [
                b["tool_use_id"]
                for b in after["messages"][i + 1]["content"]
                if b.get("type") == "tool_result"
            ]
            assert results == uses
    # The session file reloads to exactly the compacted history.
    from agent_core.session.store import SessionStore

    _, loaded = SessionStore.open(paths, runtime.session_id)
    assert loaded.messages == runtime.history


async def test_three_failed_summaries_trip_the_breaker_and_the_user_is_told(
    fake_llm, project, paths
) -> None:
    def responder(body: dict) -> dict:
        if is_summary_request(body):
            return {"status": 400, "message": "summary refused"}
        if tool_results_in(body) < 8:
            return {
                "tool_calls": [{"name": "Read", "input": {"file_path": "notes.txt"}}],
                "usage": BIG,
            }
        return {"text": "done anyway"}

    fake_llm.responder = responder
    runtime = await open_runtime(fake_llm, project, paths)
    done, seen = await run(runtime, "keep reading")
    await runtime.close()

    assert done.stop_reason == "end_turn"
    summary_requests = [r for r in fake_llm.requests if is_summary_request(r.body)]
    assert len(summary_requests) == 3  # no more attempts once the breaker tripped
    notices = [e.message for e in seen if isinstance(e, ev.Notice)]
    assert any("now off" in n and "/compact" in n for n in notices)
    assert not runtime.context.auto_enabled
