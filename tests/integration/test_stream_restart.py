"""A stream dropped mid-answer is sent again, and only the whole answer is kept
(docs/manual.md#retries), through the real SDKs against the fake server."""

from __future__ import annotations

import pytest

from agent_core import events as ev
from agent_core.agent.runtime import Runtime, RuntimeOptions
from agent_core.config.settings import load_settings
from agent_core.session.store import SessionStore
from tests.fakellm.collect import provider_for
from tests.integration.test_runtime_context import run


@pytest.mark.parametrize("wire", ["anthropic", "openai"])
async def test_a_dropped_answer_is_retried_and_only_the_whole_one_is_kept(
    fake_llm, project, paths, wire
) -> None:
    fake_llm.script(
        [
            {"text": "the first half of an answer", "chunk_size": 4, "cut_after_chunks": 3},
            {"text": "the whole answer, at last"},
        ]
    )
    runtime = await Runtime.open(
        RuntimeOptions(
            cwd=project,
            paths=paths,
            settings=load_settings(paths),
            provider=provider_for(wire, fake_llm),
        )
    )
    try:
        done, seen = await run(runtime, "answer me")
    finally:
        await runtime.close()

    assert done.stop_reason == "end_turn" and done.final_text == "the whole answer, at last"
    (restart,) = [e for e in seen if isinstance(e, ev.AnswerRestarted)]
    assert restart.message.startswith("the connection dropped mid-answer, retrying")
    at = seen.index(restart)

    def streamed(events: list[ev.Event]) -> str:
        return "".join(e.text for e in events if isinstance(e, ev.MessageDelta))

    assert streamed(seen[:at]) == "the first ha"  # three chunks, then the cut
    assert streamed(seen[at:]) == "the whole answer, at last"
    assert seen[at + 1] == ev.Status(phase="thinking")  # waiting again, until text comes
    assert not [e for e in seen if isinstance(e, ev.Error)]
    # Neither the history nor the session file ever held the broken half.
    texts = [m.text() for m in runtime.history]
    assert texts == ["answer me", "the whole answer, at last"]
    _, loaded = SessionStore.open(paths, runtime.session_id)
    assert [m.text() for m in loaded.messages] == texts
