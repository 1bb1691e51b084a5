"""Compaction end to end: spill + summary + session file, then a resume that sees the same."""

from __future__ import annotations

from collections.abc import AsyncIterator

from agent_core.config.settings import Limits
from agent_core.context import SUMMARY_HEADINGS, ContextManager
from agent_core.context.compaction import is_summary
from agent_core.llm.base import ChatRequest, Stop, TextDelta
from agent_core.messages import Message, TextBlock, ToolResultBlock, ToolUseBlock, user_text
from agent_core.session import SessionStore, load_session
from agent_core.session.repair import history_problems

SUMMARY = "\n".join(f"{h}\n- notes" for h in SUMMARY_HEADINGS)


class SummaryProvider:
    """Answers every request with a nine-section summary."""

    name = "scripted"
    model = "scripted-1"

    def __init__(self) -> None:
        self.requests: list[ChatRequest] = []

    async def stream(self, request: ChatRequest) -> AsyncIterator:
        self.requests.append(request)
        yield TextDelta(SUMMARY)
        yield Stop("end_turn")


async def test_a_long_session_compacts_persists_and_resumes_identically(paths, project):
    (project / "main.py").write_text("print('hello')\n")
    limits = Limits(spill_bytes=4_000)
    store = SessionStore.create(paths, model="m", provider="scripted", env={})
    mgr = ContextManager(limits, context_window=40_000, max_output=8_000, session_dir=store.dir)
    provider = SummaryProvider()
    history: list[Message] = []
    compactions = 0

    def append(msg: Message) -> None:
        history.append(msg)
        store.append_message(msg)

    for turn in range(40):
        outcome = await mgr.before_round(
            history, provider=provider, tool_names=["Read"], recent_files=[project / "main.py"]
        )
        if outcome is not None and outcome.compacted:
            history[:] = outcome.new_history
            store.append_compaction(history, outcome.tokens_before, outcome.tokens_after)
            compactions += 1
        append(user_text(f"turn {turn}: " + "please " * 300))
        call_id = f"toolu_{turn:03d}"
        append(Message(role="assistant", content=[ToolUseBlock(call_id, "Read", {"path": "x"})]))
        output = f"output {turn}\n" + "data " * (2_000 if turn % 3 == 0 else 300)
        result = ToolResultBlock(call_id, mgr.ledger.apply(call_id, output))
        append(Message(role="user", content=[result]))
        append(Message(role="assistant", content=[TextBlock(f"done {turn} " + "ok " * 300)]))
    store.close()
    mgr.close()

    assert compactions >= 2
    assert history_problems(history) == []
    assert is_summary(history[0]) and all(h in history[0].text() for h in SUMMARY_HEADINGS)
    assert "print('hello')" in history[0].text()

    loaded = load_session(store.path)
    assert loaded.warnings == []
    assert loaded.messages == history  # exactly what the model saw

    # Big results were spilled to the session folder, and a resumed manager keeps the decisions.
    spilled = sorted(p.name for p in (store.dir / "tool-results").iterdir())
    assert "toolu_039.txt" in spilled and "toolu_038.txt" not in spilled
    resumed = ContextManager(Limits(spill_bytes=10), 40_000, 8_000, store.dir)
    last_output = "output 38\n" + "data " * 300
    assert resumed.ledger.apply("toolu_038", last_output) == last_output
