"""A whole session driven through ops and events alone, over the real provider and the fake server."""

from __future__ import annotations

import json

from agent_core import events as ev
from agent_core.agent.runtime import Runtime, RuntimeOptions
from agent_core.config.settings import load_settings
from agent_core.llm.anthropic_provider import AnthropicProvider
from agent_core.protocol import ops
from agent_core.protocol.host import SessionHost
from agent_core.session.repair import history_problems
from tests.helpers.session_driver import SessionDriver
from tests.integration.test_runtime_context import SUMMARY, is_summary_request

SCRIPT = [
    {"text": "hello there"},
    {"tool_calls": [{"id": "b1", "name": "Bash", "input": {"command": "touch made.txt"}}]},
    {"text": "made it"},
    {"text": "a long answer " * 40, "chunk_size": 4, "delay_ms": 20},  # interrupted
    {"text": "still here"},
    {"text": "resumed fine"},
]


async def test_a_session_through_ops_and_events(fake_llm, project, paths) -> None:
    answers = iter(SCRIPT)
    fake_llm.responder = lambda body: (
        {"text": SUMMARY} if is_summary_request(body) else next(answers)
    )
    provider = AnthropicProvider(
        "claude-test", api_key="k", base_url=fake_llm.anthropic_base_url, retries=0
    )
    runtime = await Runtime.open(
        RuntimeOptions(cwd=project, paths=paths, settings=load_settings(paths), provider=provider)
    )
    host = SessionHost(runtime)
    host.start()
    d = SessionDriver(host)
    try:
        opened = await d.until(lambda e: isinstance(e, ev.SessionOpened))
        first_session = host.session_id

        # Long enough for the summary /compact makes of it to be smaller.
        t1 = await host.submit(ops.UserTurn(text="hi " + "and some background " * 150))
        done = await d.answer(t1)
        assert isinstance(done, ev.TurnCompleted) and done.final_text.strip() == "hello there"

        mark = len(d.seen)
        t2 = await host.submit(ops.UserTurn(text="make a file"))
        asked = await d.until(
            lambda e: isinstance(e, ev.ApprovalRequested | ev.TurnCompleted), after=mark
        )
        assert isinstance(asked, ev.ApprovalRequested), d.events()[mark:]
        assert isinstance(asked, ev.ApprovalRequested) and asked.tool == "Bash"
        busy = await d.answer(await host.submit(ops.UserTurn(text="too soon")))
        assert isinstance(busy, ev.OpRefused) and "a turn is running" in busy.reason
        await host.submit(ops.ApprovalReply(approval_id=asked.approval_id, decision="allow_once"))
        done = await d.answer(t2)
        assert isinstance(done, ev.TurnCompleted) and done.stop_reason == "end_turn"
        assert (project / "made.txt").exists()

        await d.answer(await host.submit(ops.SetMode(mode="acceptEdits")))
        assert host.snapshot().mode == "acceptEdits"

        mark = len(d.seen)
        t3 = await host.submit(ops.UserTurn(text="talk a lot"))
        await d.until(lambda e: isinstance(e, ev.MessageDelta), after=mark)
        await host.submit(ops.Interrupt())
        done = await d.answer(t3)
        assert isinstance(done, ev.TurnCompleted) and done.stop_reason == "cancelled"
        t4 = await host.submit(ops.UserTurn(text="are you there?"))
        done = await d.answer(t4)
        assert isinstance(done, ev.TurnCompleted) and done.stop_reason == "end_turn"
        assert history_problems(runtime.history) == []  # the interrupted turn left it valid
        live = await d.answer(await host.submit(ops.QueryHistory()))
        assert isinstance(live, ev.HistoryReport)
        assert live.calls["b1"].status == "ok"  # as the live view showed the call
        assert [e.stop_reason for e in live.turn_ends.values()] == ["cancelled"]

        compacted = await d.answer(await host.submit(ops.Compact()))
        assert isinstance(compacted, ev.Compaction) and compacted.layer == "summary"
        assert compacted.summarised_messages > 0

        new = await d.answer(await host.submit(ops.NewSession()))
        assert isinstance(new, ev.SessionOpened) and new.how == "new"
        assert new.session_id != first_session
        back = await d.answer(await host.submit(ops.Resume(session_id=first_session)))
        assert isinstance(back, ev.SessionOpened) and back.how == "resumed"
        assert back.session_id == first_session == host.snapshot().session_id
        shown = await d.answer(await host.submit(ops.QueryHistory()))
        assert isinstance(shown, ev.HistoryReport)
        assert [i.shown_as for i in shown.items[:2]] == ["summary", "summary_ack"]
        assert len(shown.items) == host.snapshot().messages
        # The cancelled turn was kept verbatim: its stop moved with it (after "talk a lot").
        (stop_at,) = shown.turn_ends
        assert shown.turn_ends[stop_at].stop_reason == "cancelled"
        assert shown.items[stop_at - 2].words == ["talk a lot"]
        kept = [i.words for i in shown.items if i.message.role == "user" and i.words]
        assert kept[-1] == ["are you there?"]  # a user's own words, after the summary
        t5 = await host.submit(ops.UserTurn(text="where were we?"))
        done = await d.answer(t5)
        assert isinstance(done, ev.TurnCompleted) and done.final_text.strip() == "resumed fine"
        assert "SUMMARY" in json.dumps(fake_llm.requests[-1].body["messages"]).upper()
    finally:
        await d.stop()

    seqs = [s.seq for s in d.seen]
    assert seqs == sorted(set(seqs)) and seqs[0] == 1  # only grows, never repeats
    kinds = [type(e).__name__ for e in d.events()]
    assert kinds.index("SessionOpened") < kinds.index("TurnStarted")
    assert [e for e in d.events() if isinstance(e, ev.ModeChanged)] == [
        ev.ModeChanged(mode="acceptEdits")
    ]
    assert opened == ev.SessionOpened(session_id=first_session, how="new")
