"""A request the API refuses as too long: compacted and sent once more, through the real
SDK against the fake server (docs/manual.md#sessions-and-context)."""

from __future__ import annotations

import json

from agent_core import events as ev
from agent_core.agent.loop import STILL_TOO_LONG
from agent_core.session.repair import history_problems
from tests.integration.test_runtime_context import SUMMARY, is_summary_request, open_runtime, run

TOO_LONG = {"status": 400, "message": "prompt is too long: 210000 tokens > 200000 maximum"}


def refusing(times: int):
    """Answers turns at once until the fourth prompt, which is refused ``times`` times."""
    refused = 0

    def responder(body: dict) -> dict:
        nonlocal refused
        if is_summary_request(body):
            return {"text": SUMMARY}
        if "the fourth question" in json.dumps(body["messages"]) and refused < times:
            refused += 1
            return TOO_LONG
        return {"text": "answered"}

    return responder


async def fourth_turn(fake_llm, project, paths, refusals: int):
    """Three turns answered, then the fourth, refused ``refusals`` times; the runtime closed."""
    fake_llm.responder = refusing(refusals)
    runtime = await open_runtime(fake_llm, project, paths)
    try:
        # The first prompt is long: its summary is smaller than it.
        for prompt in ("the first question " + "background " * 400, "the second", "the third"):
            done, _ = await run(runtime, prompt)
            assert done.stop_reason == "end_turn"
        done, seen = await run(runtime, "the fourth question")
    finally:
        await runtime.close()
    return runtime, done, seen


async def test_a_prompt_too_long_is_compacted_and_sent_once_more(fake_llm, project, paths):
    runtime, done, seen = await fourth_turn(fake_llm, project, paths, refusals=1)

    assert done.stop_reason == "end_turn" and done.final_text.strip() == "answered"
    assert not [e for e in seen if isinstance(e, ev.Error)]
    assert len([e for e in seen if isinstance(e, ev.Compaction)]) == 1
    kinds = ["summary" if is_summary_request(r.body) else "turn" for r in fake_llm.requests[3:]]
    assert kinds == ["turn", "summary", "turn"]  # refused, summarised, sent once more
    retried = json.dumps(fake_llm.requests[-1].body["messages"][0])
    assert "Summary of the earlier conversation" in retried
    assert history_problems(runtime.history) == []
    assert runtime.context_tokens < runtime.context_window


async def test_a_second_refusal_ends_the_turn_saying_what_to_do(fake_llm, project, paths):
    runtime, done, seen = await fourth_turn(fake_llm, project, paths, refusals=2)

    assert done.stop_reason == "error" and done.error == STILL_TOO_LONG
    assert [e.message for e in seen if isinstance(e, ev.Error)] == [STILL_TOO_LONG]
    assert "/clear" in STILL_TOO_LONG and "/compact" in STILL_TOO_LONG
    kinds = ["summary" if is_summary_request(r.body) else "turn" for r in fake_llm.requests[3:]]
    assert kinds == ["turn", "summary", "turn"]  # once more, not again and again
    assert history_problems(runtime.history) == []
    # The context figure says the window is full, as the API did (not 1 %).
    assert runtime.context_tokens >= runtime.context_window


async def test_with_nothing_to_summarise_the_refusal_says_to_compact_or_clear(
    fake_llm, project, paths
):
    fake_llm.script([TOO_LONG])
    runtime = await open_runtime(fake_llm, project, paths)
    try:
        done, _ = await run(runtime, "a first prompt")
    finally:
        await runtime.close()
    assert done.stop_reason == "error"
    assert done.error is not None and "/compact" in done.error and "/clear" in done.error
    assert len(fake_llm.requests) == 1
    assert runtime.context_tokens >= runtime.context_window
