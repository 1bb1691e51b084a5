"""The session host over a Runtime with a scripted provider: ops in, one ordered stream out."""

from __future__ import annotations

import asyncio
import typing

import msgspec
import pytest

from agent_core import events as ev
from agent_core.agent.runtime import Runtime, RuntimeOptions
from agent_core.config.settings import load_settings
from agent_core.messages import ImageBlock
from agent_core.protocol import ops
from agent_core.protocol.host import SessionHost
from tests.helpers.scripted import ScriptedProvider, Step
from tests.helpers.session_driver import SessionDriver, answers

TOUCH = Step(calls=[("c1", "Bash", {"command": "touch made.txt"})])


async def open_host(paths, project, steps: list[Step], mode: str = "default") -> SessionHost:
    runtime = await Runtime.open(
        RuntimeOptions(
            cwd=project,
            paths=paths,
            settings=load_settings(paths),
            provider=ScriptedProvider(steps),
            mode=mode,
        )
    )
    host = SessionHost(runtime)
    host.start()
    return host


def minimal(cls: type) -> ops.Op:
    info = msgspec.inspect.type_info(cls)
    assert isinstance(info, msgspec.inspect.StructType)
    values = {
        "approval_id": "nope",
        "session_id": "nope",
        "name": "nope",
        "model": "m",
        "fact_id": 404,
        "rule": ev.RuleEntry("Bash(nope)", "allow", "session"),
        "command": "",  # a ! command that would ask would wait for an answer
    }
    fields = {f.name: values.get(f.name, "x") for f in info.fields if f.required}
    if cls is ops.SetMode:
        fields["mode"] = "acceptEdits"
    return cls(**fields)


@pytest.mark.slow
async def test_every_op_is_answered_once_and_none_is_unknown(paths, project) -> None:
    host = await open_host(paths, project, [Step(text="hello")])
    driver = SessionDriver(host)
    try:
        ids = []
        for cls in typing.get_args(ops.AnyOp):
            op_id = await host.submit(minimal(cls))
            ids.append(op_id)
            await driver.answer(op_id)  # one at a time: a turn must end before the next op
        got = driver.events()
        for op_id in ids:
            answered = [e for e in got if answers(e, op_id)]
            assert len(answered) == 1, (op_id, answered)
            assert not (
                isinstance(answered[0], ev.OpRefused) and "unknown op" in answered[0].reason
            )
        assert len(set(ids)) == len(ids) and all(ids)
    finally:
        await driver.stop()
    seqs = [s.seq for s in driver.seen]
    assert seqs == list(range(1, len(seqs) + 1))


async def test_the_stream_opens_with_the_session(paths, project) -> None:
    host = await open_host(paths, project, [])
    driver = SessionDriver(host)
    opened = await driver.until(lambda e: isinstance(e, ev.SessionOpened))
    assert opened == ev.SessionOpened(session_id=host.session_id, how="new")
    await driver.stop()


@pytest.mark.slow
async def test_a_second_turn_while_one_runs_is_refused(paths, project) -> None:
    host = await open_host(paths, project, [TOUCH, Step(text="done")])
    driver = SessionDriver(host)
    try:
        first = await host.submit(ops.UserTurn(text="touch it"))
        asked = await driver.until(lambda e: isinstance(e, ev.ApprovalRequested))
        second = await host.submit(ops.UserTurn(text="and another"))
        refused = await driver.answer(second)
        assert isinstance(refused, ev.OpRefused) and refused.op == "user_turn"
        assert "a turn is running" in refused.reason
        assert host.snapshot().running
        assert isinstance(asked, ev.ApprovalRequested)
        reply = await host.submit(
            ops.ApprovalReply(approval_id=asked.approval_id, decision="allow_once")
        )
        assert isinstance(await driver.answer(reply), ev.OpDone)
        done = await driver.answer(first)
        assert isinstance(done, ev.TurnCompleted) and done.stop_reason == "end_turn"
        assert (project / "made.txt").exists()
    finally:
        await driver.stop()


@pytest.mark.slow
async def test_a_plan_is_answered_with_a_plan_reply_and_the_mode_change_is_told_once(
    paths, project
) -> None:
    plan = Step(calls=[("p1", "ExitPlanMode", {"plan": "1. edit"})])
    host = await open_host(paths, project, [plan, Step(text="ok")], mode="plan")
    driver = SessionDriver(host)
    try:
        turn = await host.submit(ops.UserTurn(text="plan it"))
        asked = await driver.until(lambda e: isinstance(e, ev.ApprovalRequested))
        assert isinstance(asked, ev.ApprovalRequested) and asked.kind == "plan"
        wrong = await host.submit(
            ops.ApprovalReply(approval_id=asked.approval_id, decision="allow_session")
        )
        refused = await driver.answer(wrong)
        assert isinstance(refused, ev.OpRefused) and "plan_reply" in refused.reason
        await host.submit(ops.PlanReply(approval_id=asked.approval_id, choice="accept_edits"))
        await driver.answer(turn)
        changes = [e for e in driver.events() if isinstance(e, ev.ModeChanged)]
        assert changes == [ev.ModeChanged(mode="acceptEdits")]
        assert host.snapshot().mode == "acceptEdits"
    finally:
        await driver.stop()


async def test_a_mode_set_by_op_is_told_and_a_refused_mode_is_not(paths, project) -> None:
    host = await open_host(paths, project, [])
    driver = SessionDriver(host)
    try:
        op = await host.submit(ops.SetMode(mode="plan"))
        await driver.answer(op)
        same = await host.submit(ops.SetMode(mode="plan"))
        await driver.answer(same)
        assert [e for e in driver.events() if isinstance(e, ev.ModeChanged)] == [
            ev.ModeChanged(mode="plan")
        ]
        # Told even when the change comes from outside an op (the TUI, until it migrates).
        host.runtime.set_mode("default")
        await driver.until(lambda e: e == ev.ModeChanged(mode="default"))
    finally:
        await driver.stop()


@pytest.mark.slow
async def test_a_consumer_that_stops_reading_does_not_block_close(paths, project) -> None:
    long = Step(text=" ".join(f"w{i}" for i in range(500)))
    host = await open_host(paths, project, [long])
    stream = host.events()
    await host.submit(ops.UserTurn(text="talk"))
    async for item in stream:
        if isinstance(item.event, ev.MessageDelta):
            break  # and never read again
    await asyncio.wait_for(host.close(), 10)
    assert not host.runtime.running


async def test_an_interrupt_with_no_turn_is_refused(paths, project) -> None:
    host = await open_host(paths, project, [])
    driver = SessionDriver(host)
    try:
        op = await host.submit(ops.Interrupt())
        refused = await driver.answer(op)
        assert isinstance(refused, ev.OpRefused) and refused.reason == "no turn is running"
    finally:
        await driver.stop()


PNG_1PX = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC"
)


@pytest.mark.slow
async def test_a_turns_images_reach_the_model_and_a_bad_one_refuses_the_turn(
    paths, project
) -> None:
    host = await open_host(paths, project, [Step(text="a red dot")])
    provider = host.runtime.provider
    assert isinstance(provider, ScriptedProvider)
    driver = SessionDriver(host)
    try:
        bad = ops.UserTurn(text="look", attachments=[ImageBlock("image/tiff", PNG_1PX)])
        refused = await driver.answer(await host.submit(bad))
        assert isinstance(refused, ev.OpRefused) and refused.op == "user_turn"
        assert refused.reason.startswith("attachments[0]: media type 'image/tiff' is not one of")
        assert provider.requests == []
        image = ImageBlock("image/png", PNG_1PX)
        done = await driver.answer(await host.submit(ops.UserTurn(text="", attachments=[image])))
        assert isinstance(done, ev.TurnCompleted) and done.stop_reason == "end_turn"
        # An image alone is the whole message: no empty text block beside it.
        assert provider.requests[0].messages[-1].content == [image]
    finally:
        await driver.stop()


async def answer_approvals(
    host: SessionHost, driver: SessionDriver, replies: list[tuple[str, dict | None]]
) -> list[ev.ApprovalRequested]:
    """Answer the approval questions as they come, one reply each; returns the questions."""
    asked: list[ev.ApprovalRequested] = []

    def new_question(event: ev.Event) -> bool:
        answered = {a.approval_id for a in asked}
        return isinstance(event, ev.ApprovalRequested) and event.approval_id not in answered

    for decision, changed in replies:
        question = await driver.until(new_question, timeout=10)
        assert isinstance(question, ev.ApprovalRequested)
        asked.append(question)
        await host.submit(
            ops.ApprovalReply(
                approval_id=question.approval_id,
                decision=decision,  # type: ignore[arg-type]
                updated_input=changed,
            )
        )
    return asked


@pytest.mark.slow
async def test_an_approval_with_an_updated_input_asks_again_then_runs_that_input(
    paths, project
) -> None:
    host = await open_host(paths, project, [TOUCH, Step(text="done")])
    driver = SessionDriver(host)
    try:
        turn = await host.submit(ops.UserTurn(text="touch it"))
        changed = {"command": "touch other.txt"}
        asked = await answer_approvals(
            host, driver, [("allow_session", changed), ("allow_once", None)]
        )
        done = await driver.answer(turn)
        assert isinstance(done, ev.TurnCompleted) and done.stop_reason == "end_turn"
        # The new input asks too: it is a new question, about the new input.
        assert [a.input for a in asked] == [TOUCH.calls[0][2], changed]
        assert (project / "other.txt").exists() and not (project / "made.txt").exists()
        decisions = [e for e in driver.events() if isinstance(e, ev.PermissionDecision)]
        assert [(d.decision, d.input) for d in decisions] == [
            ("allow", None),
            ("allow", changed),
        ]
        notices = [e.message for e in driver.events() if isinstance(e, ev.Notice)]
        assert "Bash: the approval changed its input: touch other.txt" in notices
        # "For this session" was said of the call shown, not of the changed one.
        assert not [r for r in host.runtime.rules() if r.source == "session"]
    finally:
        await driver.stop()


READ_BOTH = Step(
    calls=[
        ("r1", "Read", {"file_path": "notes.txt"}),
        ("r2", "Read", {"file_path": ".mcp.json"}),
    ]
)
EDIT_NOTES = {"file_path": "notes.txt", "old_string": "draft", "new_string": "final"}
EDIT_MCP = {
    "file_path": ".mcp.json",
    "old_string": "{}",
    "new_string": '{"mcpServers": {"x": {"command": "sh", "args": ["-c", "touch pwned"]}}}',
}


@pytest.mark.slow
async def test_an_answer_redirecting_an_edit_to_mcp_json_is_asked_about_that_file(
    paths, project
) -> None:
    (project / "notes.txt").write_text("draft\n")
    (project / ".mcp.json").write_text("{}\n")
    edit = Step(calls=[("e1", "Edit", EDIT_NOTES)])
    host = await open_host(paths, project, [READ_BOTH, edit, Step(text="done")])
    driver = SessionDriver(host)
    try:
        turn = await host.submit(ops.UserTurn(text="finish the notes"))
        asked = await answer_approvals(host, driver, [("allow_once", EDIT_MCP), ("deny", None)])
        done = await driver.answer(turn)
        assert isinstance(done, ev.TurnCompleted) and done.stop_reason == "end_turn"
        assert [a.input["file_path"] for a in asked] == ["notes.txt", ".mcp.json"]
        assert asked[1].call_id == asked[0].call_id == "e1"
        assert "protected path: .mcp.json" in asked[1].reason
        # Denied on the second question: neither file changed.
        assert (project / ".mcp.json").read_text() == "{}\n"
        assert (project / "notes.txt").read_text() == "draft\n"
        result = next(
            e for e in driver.events() if isinstance(e, ev.ToolResult) and e.call_id == "e1"
        )
        assert result.is_error and result.content.startswith("Not run (user): the user denied")
    finally:
        await driver.stop()


@pytest.mark.slow
async def test_a_write_redirected_to_a_git_hook_runs_only_once_that_is_allowed(
    paths, project
) -> None:
    (project / ".git" / "hooks").mkdir(parents=True)
    write = Step(calls=[("w1", "Write", {"file_path": "notes.txt", "content": "hi\n"})])
    hook = {"file_path": ".git/hooks/pre-commit", "content": "#!/bin/sh\ntouch pwned\n"}
    host = await open_host(paths, project, [write, Step(text="done")])
    driver = SessionDriver(host)
    try:
        turn = await host.submit(ops.UserTurn(text="write notes"))
        asked = await answer_approvals(host, driver, [("allow_once", hook), ("allow_once", None)])
        await driver.answer(turn)
        assert [a.input["file_path"] for a in asked] == ["notes.txt", ".git/hooks/pre-commit"]
        assert (project / ".git" / "hooks" / "pre-commit").read_text() == hook["content"]
        assert not (project / "notes.txt").exists()
    finally:
        await driver.stop()


@pytest.mark.slow
async def test_answers_that_keep_changing_the_input_are_denied_after_three_questions(
    paths, project
) -> None:
    host = await open_host(paths, project, [TOUCH, Step(text="done")])
    driver = SessionDriver(host)
    try:
        turn = await host.submit(ops.UserTurn(text="touch it"))
        replies = [("allow_once", {"command": f"touch n{i}.txt"}) for i in range(3)]
        asked = await answer_approvals(host, driver, replies)  # type: ignore[arg-type]
        done = await driver.answer(turn)
        assert isinstance(done, ev.TurnCompleted) and done.stop_reason == "end_turn"
        assert len(asked) == 3
        assert not [p.name for p in project.iterdir() if p.name.endswith(".txt")]
        result = next(e for e in driver.events() if isinstance(e, ev.ToolResult))
        assert result.is_error
        assert "changed the input 3 times" in result.content
        assert "\n" not in result.content
        assert not [e for e in driver.events() if isinstance(e, ev.ApprovalRequested)][3:]
    finally:
        await driver.stop()
