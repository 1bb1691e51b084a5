"""The ReAct loop's own logic with an in-memory provider (docs/architecture.md#the-agent-loop)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from agent_core import events as ev
from agent_core.agent.conversation import Conversation
from agent_core.agent.execution_env import ExecutionEnv
from agent_core.agent.executor import ToolExecutor
from agent_core.agent.loop import AgentLoop, LoopLimits
from agent_core.agent.tool_catalog import ToolCatalog
from agent_core.errors import ProviderError
from agent_core.llm.base import ChatRequest
from agent_core.messages import Message, ToolResultBlock
from agent_core.tools.base import ToolContext
from agent_core.tools.registry import ToolRegistry
from tests.helpers.scripted import EchoTool, ScriptedProvider, Step, TableGate, TouchTool


def assert_valid_history(history: list[Message]) -> None:
    """Every tool_use answered by the next message; roles alternate; ends with assistant."""
    assert history[-1].role == "assistant"
    for a, b in zip(history, history[1:], strict=False):
        assert a.role != b.role, "roles must alternate"
    for i, msg in enumerate(history):
        uses = {u.id for u in msg.tool_uses()}
        if uses:
            nxt = history[i + 1]
            results = {b.tool_use_id for b in nxt.content if isinstance(b, ToolResultBlock)}
            assert uses == results


class ModeHolder:
    """The session's mode as the executor sees it; records every switch."""

    def __init__(self, mode: str) -> None:
        self.mode = mode
        self.switches: list[str] = []

    def set_mode(self, mode: str) -> None:
        self.switches.append(mode)
        self.mode = mode


class Contexts:
    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp

    def for_call(self, call_id: str) -> ToolContext:
        return ToolContext(cwd=self.tmp, session_dir=self.tmp, call_id=call_id)


class Requests:
    """Every round's request: the whole conversation and the tools the mode offers."""

    def __init__(self, harness: Harness) -> None:
        self.harness = harness

    async def next_request(self) -> ChatRequest:
        h = self.harness
        tools = h.catalog.specs(h.session.mode)
        return ChatRequest(messages=list(h.conversation.messages), tools=tools)

    async def too_long(self, *, compact: bool) -> bool:
        return False  # nothing to summarise with: the refusal stands


class Harness:
    def __init__(
        self,
        steps: list[Step],
        *,
        gate: TableGate | None = None,
        can_ask: bool = True,
        max_iterations: int = 25,
        answer: str | None = None,
        tmp: Path = Path("/tmp"),
        mode: str = "default",
    ) -> None:
        self.provider = ScriptedProvider(steps)
        self.conversation = Conversation()
        self.events: list[ev.Event] = []
        self.answer = answer
        self.catalog = ToolCatalog(ToolRegistry([EchoTool(), TouchTool()]))
        self.session = ModeHolder(mode)
        self.executor = ToolExecutor(
            ExecutionEnv(
                catalog=self.catalog,
                gate=gate or TableGate(),
                emit=self.emit,
                contexts=Contexts(tmp),
                session=self.session,
                can_ask=can_ask,
            )
        )
        self.loop = AgentLoop(
            provider=self.provider,
            conversation=self.conversation,
            executor=self.executor,
            requests=Requests(self),
            emit=self.emit,
            limits=LoopLimits(max_iterations=max_iterations),
        )

    async def emit(self, event: ev.Event) -> None:
        self.events.append(event)
        if isinstance(event, ev.ApprovalRequested) and self.answer:
            reply: ev.ApprovalReply | ev.PlanAnswer
            if event.kind == "plan":
                reply = ev.PlanAnswer(self.answer, "use another name")  # type: ignore[arg-type]
            else:
                reply = ev.ApprovalReply(self.answer, "use another name")  # type: ignore[arg-type]
            assert self.executor.env.approvals.answer(event.approval_id, reply)

    def of(self, kind: type) -> list:
        return [e for e in self.events if isinstance(e, kind)]


async def test_plain_answer_ends_the_turn() -> None:
    h = Harness([Step(text="hello there")])
    done = await h.loop.run("t1", "hi")
    assert done.stop_reason == "end_turn"
    assert done.final_text.strip() == "hello there"
    assert "".join(e.text for e in h.of(ev.MessageDelta)).strip() == "hello there"
    assert isinstance(h.events[0], ev.TurnStarted) and isinstance(h.events[-1], ev.TurnCompleted)
    assert_valid_history(h.conversation.messages)


async def test_parallel_calls_results_appended_in_request_order() -> None:
    calls = [("a", "Echo", {"text": "slow", "delay": 0.05}), ("b", "Echo", {"text": "fast"})]
    h = Harness([Step(calls=calls), Step(text="done")])
    done = await h.loop.run("t1", "go")
    assert done.stop_reason == "end_turn" and done.iterations == 2
    results = h.conversation.messages[2].content
    assert [r.tool_use_id for r in results] == ["a", "b"]
    assert results[0].content == "echo: slow"
    # The fast one finished first, but the model sees request order.
    finished = [e.call_id for e in h.of(ev.ToolResult)]
    assert finished == ["b", "a"]


async def test_a_server_that_repeats_or_omits_call_ids_gets_one_id_per_call() -> None:
    # As some OpenAI-compatible servers do: every answer's first call is "call_0", or "".
    steps = [
        Step(calls=[("call_0", "Echo", {"text": "one"})]),
        Step(calls=[("call_0", "Echo", {"text": "two"}), ("", "Echo", {"text": "three"})]),
        Step(calls=[("", "Echo", {"text": "four"})]),
        Step(text="done"),
    ]
    h = Harness(steps)
    done = await h.loop.run("t1", "go")
    assert done.stop_reason == "end_turn"
    uses = [u for m in h.conversation.messages for u in m.tool_uses()]
    assert [u.id for u in uses] == ["call_0", "call_0_2", "call", "call_2"]
    assert_valid_history(h.conversation.messages)
    results = {
        b.tool_use_id: b.content
        for m in h.conversation.messages
        for b in m.content
        if isinstance(b, ToolResultBlock)
    }
    assert [results[u.id] for u in uses] == ["echo: one", "echo: two", "echo: three", "echo: four"]
    assert [e.call_id for e in h.of(ev.ToolResult)] == [u.id for u in uses]


async def test_round_cap_stops_with_max_iterations_and_valid_history() -> None:
    steps = [Step(calls=[(f"c{i}", "Echo", {"text": str(i)})]) for i in range(30)]
    h = Harness(steps, max_iterations=25)
    done = await h.loop.run("t1", "loop forever")
    assert done.stop_reason == "max_iterations"
    assert done.iterations == 25
    assert len(h.provider.requests) == 25
    assert_valid_history(h.conversation.messages)


async def test_three_rounds_of_unknown_tools_stop_as_hallucinated() -> None:
    steps = [Step(calls=[(f"x{i}", "Teleport", {})]) for i in range(5)]
    h = Harness(steps)
    done = await h.loop.run("t1", "go")
    assert done.stop_reason == "hallucinated_tools"
    assert done.iterations == 3
    first_result = h.conversation.messages[2].content[0]
    assert (
        first_result.is_error and "Echo" in first_result.content and "Touch" in first_result.content
    )
    assert_valid_history(h.conversation.messages)


async def test_unknown_streak_resets_when_a_real_tool_is_used() -> None:
    steps = [
        Step(calls=[("x1", "Nope", {})]),
        Step(calls=[("x2", "Nope", {})]),
        Step(calls=[("e", "Echo", {"text": "ok"})]),
        Step(calls=[("x3", "Nope", {})]),
        Step(text="fine"),
    ]
    done = await Harness(steps).loop.run("t1", "go")
    assert done.stop_reason == "end_turn"


async def test_invalid_arguments_become_error_results_and_the_loop_goes_on() -> None:
    steps = [
        Step(
            calls=[("a", "Echo", {"txt": 1}), ("b", "Echo", {})], bad_json={"b": "Expecting value"}
        ),
        Step(text="recovered"),
    ]
    h = Harness(steps)
    done = await h.loop.run("t1", "go")
    assert done.stop_reason == "end_turn"
    a, b = h.conversation.messages[2].content
    assert a.is_error and "txt" in a.content
    assert b.is_error and "invalid JSON" in b.content


async def test_denied_call_reason_reaches_the_model_and_loop_continues() -> None:
    steps = [Step(calls=[("t", "Touch", {"text": "f"})]), Step(text="ok, I won't")]
    h = Harness(steps, gate=TableGate({"Touch": "deny"}))
    done = await h.loop.run("t1", "touch f")
    assert done.stop_reason == "end_turn"
    result = h.conversation.messages[2].content[0]
    assert result.is_error and "Permission denied" in result.content
    # The second request carried the denial back to the model.
    assert h.provider.requests[1].messages[-1].content[0].tool_use_id == "t"


async def test_ask_without_a_human_becomes_a_deny_saying_so() -> None:
    steps = [Step(calls=[("t", "Touch", {"text": "f"})]), Step(text="ok")]
    h = Harness(steps, gate=TableGate({"Touch": "ask"}), can_ask=False)
    await h.loop.run("t1", "touch f")
    result = h.conversation.messages[2].content[0]
    assert "approval was not available" in result.content
    assert not h.of(ev.ApprovalRequested)


async def test_user_denial_with_feedback_is_passed_to_the_model() -> None:
    steps = [Step(calls=[("t", "Touch", {"text": "f"})]), Step(text="ok")]
    h = Harness(steps, gate=TableGate({"Touch": "ask"}), answer="deny")
    await h.loop.run("t1", "touch f")
    result = h.conversation.messages[2].content[0]
    assert result.is_error and "use another name" in result.content
    decision = h.of(ev.PermissionDecision)[0]
    assert decision.layer == "user" and decision.decision == "deny"


async def test_allow_for_session_is_remembered_by_the_gate() -> None:
    gate = TableGate({"Touch": "ask"})
    steps = [
        Step(calls=[("t", "Touch", {"text": "f"})]),
        Step(calls=[("u", "Touch", {"text": "g"})]),
        Step(text="ok"),
    ]
    h = Harness(steps, gate=gate, answer="allow_session")
    await h.loop.run("t1", "touch")
    assert len(h.of(ev.ApprovalRequested)) == 1  # second call allowed by the session rule
    assert [r.content for r in h.of(ev.ToolResult)] == ["touched f", "touched g"]


async def test_the_agent_really_waits_for_the_approval() -> None:
    steps = [Step(calls=[("t", "Touch", {"text": "f"})]), Step(text="ok")]
    h = Harness(steps, gate=TableGate({"Touch": "ask"}))
    task = asyncio.create_task(h.loop.run("t1", "touch"))
    for _ in range(50):
        await asyncio.sleep(0.01)
        if h.of(ev.ApprovalRequested):
            break
    await asyncio.sleep(0.05)
    assert not h.of(ev.ToolResult) and not task.done()
    asked = h.of(ev.ApprovalRequested)[0]
    assert h.executor.env.approvals.answer(asked.approval_id, ev.ApprovalReply("allow_once"))
    done = await asyncio.wait_for(task, 2)
    assert done.stop_reason == "end_turn"
    assert h.of(ev.ToolResult)[0].content == "touched f"


async def test_cancel_mid_stream_keeps_partial_text_and_valid_history() -> None:
    h = Harness([Step(text="partial answer", hang_after_text=True)])
    task = asyncio.create_task(h.loop.run("t1", "go"))
    await asyncio.sleep(0.05)
    task.cancel()
    done = await asyncio.wait_for(task, 2)
    assert done.stop_reason == "cancelled"
    assert "partial answer" in h.conversation.messages[1].text()
    assert_valid_history(h.conversation.messages)


async def test_cancel_mid_tool_keeps_finished_results_and_synthesizes_the_rest() -> None:
    calls = [("fast", "Echo", {"text": "quick"}), ("slow", "Echo", {"text": "slow", "delay": 10})]
    h = Harness([Step(calls=calls)])
    task = asyncio.create_task(h.loop.run("t1", "go"))
    for _ in range(100):
        await asyncio.sleep(0.01)
        if h.of(ev.ToolResult):
            break
    task.cancel()
    done = await asyncio.wait_for(task, 2)
    assert done.stop_reason == "cancelled"
    results = {b.tool_use_id: b for b in h.conversation.messages[2].content}
    assert results["fast"].content == "echo: quick"
    # The slow call had started: it was interrupted, not "not run".
    assert results["slow"].is_error
    assert results["slow"].content.startswith("Interrupted by the user after ")
    assert_valid_history(h.conversation.messages)


async def test_provider_error_ends_turn_with_error_event_and_valid_history() -> None:
    err = ProviderError("stream_dropped", "the connection dropped mid-answer", retryable=True)
    h = Harness([Step(text="half", error=err)])
    done = await h.loop.run("t1", "go")
    assert done.stop_reason == "error"
    assert h.of(ev.Error)[0].message == "the connection dropped mid-answer"
    assert_valid_history(h.conversation.messages)


@pytest.mark.parametrize("answer, mode", [("default", "default"), ("accept_edits", "acceptEdits")])
async def test_exit_plan_mode_approval_switches_mode(answer: str, mode: str) -> None:
    from agent_core.tools.base import ToolOutput

    class ExitPlan(EchoTool):
        name = "ExitPlanMode"
        plan_mode = "only"

        async def run(self, args, ctx):
            return ToolOutput(content="plan approved")

    steps = [Step(calls=[("p", "ExitPlanMode", {"text": "1. do it"})]), Step(text="ok")]
    h = Harness(steps, answer=answer, mode="plan")
    h.catalog.registry.register(ExitPlan())
    await h.loop.run("t1", "plan")
    assert h.session.switches == [mode]
    assert h.of(ev.ModeChanged)[0].mode == mode


async def test_a_real_tool_the_mode_does_not_offer_is_refused_but_not_counted_as_hallucinated() -> (
    None
):
    steps = [Step(calls=[(f"t{i}", "Touch", {"text": "x"})]) for i in range(4)] + [Step(text="ok")]
    h = Harness(steps, mode="plan")  # Touch has effects: plan mode does not offer it
    done = await h.loop.run("t1", "go")
    assert done.stop_reason == "end_turn"
    result = h.conversation.messages[2].content[0]
    assert result.is_error and "not available in the current permission mode" in result.content


async def test_an_unexpected_failure_still_completes_the_turn_with_a_valid_history() -> None:
    from agent_core.errors import MewCodeError

    h = Harness([Step(text="first"), Step(text="second")])
    calls = {"n": 0}

    class FlakySink:
        def append_message(self, message) -> None:
            calls["n"] += 1
            if calls["n"] == 2:  # the assistant message cannot be written (disk full)
                raise MewCodeError("session file: no space left on device")

        def append_compaction(self, history, tokens_before, tokens_after) -> None:
            raise AssertionError("no compaction in this test")

    h.conversation._sink = FlakySink()
    done = await h.loop.run("t1", "go")
    assert done.stop_reason == "error" and "no space left" in done.error
    assert isinstance(h.events[-1], ev.TurnCompleted)
    assert h.of(ev.Error)[0].message == "session file: no space left on device"
