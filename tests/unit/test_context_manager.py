"""ContextManager: when it summarises, what the new history holds, how it fails."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from agent_core.config.settings import Limits
from agent_core.context import SUMMARY_HEADINGS, CompactionError, ContextManager
from agent_core.context.compaction import RESTORE_SENTENCE, is_summary
from agent_core.context.tokens import estimate_message_tokens
from agent_core.errors import ProviderError
from agent_core.llm.base import ChatRequest, Stop, TextDelta, UsageReport
from agent_core.messages import Message, TextBlock, ToolResultBlock, ToolUseBlock, user_text
from agent_core.session.repair import history_problems
from agent_core.usage import Usage

NINE_SECTIONS = "\n".join(f"## {h}\nabout {h.lower()}" for h in SUMMARY_HEADINGS)


class ScriptedProvider:
    """Answers summary requests from a script: text, or an exception to raise."""

    name = "scripted"
    model = "scripted-1"

    def __init__(self, *answers: str | Exception, too_long_over: int | None = None) -> None:
        self.answers = list(answers)
        self.too_long_over = too_long_over  # turns in the transcript that no longer fit
        self.requests: list[ChatRequest] = []

    def turns_in(self, request: ChatRequest) -> int:
        return len(re.findall(r"^USER: q\d+", request.messages[0].text(), re.M))

    async def stream(self, request: ChatRequest) -> AsyncIterator:
        self.requests.append(request)
        if self.too_long_over is not None and self.turns_in(request) > self.too_long_over:
            raise ProviderError("context_too_long", "context too long")
        answer = self.answers.pop(0) if self.answers else NINE_SECTIONS
        if isinstance(answer, Exception):
            raise answer
        for i in range(0, len(answer), 50):
            yield TextDelta(answer[i : i + 50])
        yield UsageReport(Usage(input_tokens=100, output_tokens=50))
        yield Stop("end_turn")


def conversation(turns: int, size: int = 400) -> list[Message]:
    out: list[Message] = []
    for i in range(turns):
        out += [
            user_text(f"q{i} " + "x" * size),
            Message(role="assistant", content=[ToolUseBlock(f"c{i}", "Read", {"path": "a.py"})]),
            Message(role="user", content=[ToolResultBlock(f"c{i}", "r" * size)]),
            Message(role="assistant", content=[TextBlock(f"a{i} " + "y" * size)]),
        ]
    return out


def manager(tmp_path: Path, *, window: int = 40_000, **kw) -> ContextManager:
    # budget = min(0.8 * 32 000, 40 000 - 8 000 - 13 000) = 19 000 tokens
    return ContextManager(Limits(), window, 8_000, tmp_path / "session", **kw)


async def test_under_budget_nothing_happens(tmp_path):
    mgr = manager(tmp_path)
    provider = ScriptedProvider()
    assert await mgr.before_round(conversation(5), provider=provider, tool_names=["Read"]) is None
    assert provider.requests == []
    assert 0 < mgr.context_tokens < mgr.budget


async def test_over_budget_summarises_into_nine_sections_with_restore_block(tmp_path, project):
    source = project / "a.py"
    source.write_text("old contents\n")
    history = conversation(60)  # ~ 25 000 tokens
    mgr = manager(tmp_path)
    source.write_text("def current():\n    return 42\n")  # changed since it was read
    provider = ScriptedProvider()

    outcome = await mgr.before_round(
        history, provider=provider, tool_names=["Read", "Edit", "Bash"], recent_files=[source]
    )

    assert outcome is not None and outcome.compacted and outcome.warning is None
    new = outcome.new_history
    assert history_problems(new) == []
    head = new[0].text()
    assert is_summary(new[0])
    for heading in SUMMARY_HEADINGS:
        assert heading in head
    assert "def current():\n    return 42" in head and "old contents" not in head
    assert "Tools available now: Read, Edit, Bash." in head
    assert RESTORE_SENTENCE in head
    assert new[-4:] == history[-4:]  # the latest turn verbatim
    assert outcome.tokens_after < mgr.budget < outcome.tokens_before
    # The summary request carried the older messages and the nine headings.
    sent = provider.requests[0].messages[0].text()
    assert "USER: q0 " in sent and all(h in sent for h in SUMMARY_HEADINGS)
    assert provider.requests[0].tools == []


async def test_message_cap_forces_a_summary_even_when_tokens_are_low(tmp_path):
    mgr = ContextManager(Limits(history_cap_messages=20), 200_000, 8_000, tmp_path)
    outcome = await mgr.before_round(
        conversation(6, size=10), provider=ScriptedProvider(), tool_names=[]
    )
    assert outcome is not None and outcome.compacted
    assert len(outcome.new_history) < 20


async def test_provider_usage_drives_the_trigger(tmp_path):
    mgr = manager(tmp_path)
    history = conversation(3)  # small by estimate, but bigger than a summary
    provider = ScriptedProvider()
    assert await mgr.before_round(history, provider=provider, tool_names=[]) is None
    # The provider says the request was nearly the whole budget (big system prompt, tools).
    mgr.note_usage(Usage(input_tokens=100, cache_read_tokens=mgr.budget - 50, output_tokens=20))
    history.append(user_text("q9 " + "z" * 800))  # +~200 tokens since that request
    assert estimate_message_tokens(history) < mgr.budget  # only the provider's count is over
    outcome = await mgr.before_round(history, provider=provider, tool_names=[])
    assert outcome is not None and outcome.compacted


async def test_breaker_turns_auto_off_after_three_failures_but_manual_still_works(tmp_path):
    mgr = manager(tmp_path)
    history = conversation(60)
    failing = ScriptedProvider(*[ProviderError("server", "server error (500)")] * 3)
    warnings = []
    for _ in range(3):
        outcome = await mgr.before_round(history, provider=failing, tool_names=[])
        assert outcome is not None and not outcome.compacted
        assert outcome.new_history is history
        warnings.append(outcome.warning)
    assert "server error (500)" in warnings[0]
    assert "off for this session" in warnings[2] and "/compact" in warnings[2]
    assert not mgr.auto_enabled
    assert await mgr.before_round(history, provider=failing, tool_names=[]) is None
    assert len(failing.requests) == 3

    outcome = await mgr.compact(history, provider=ScriptedProvider(), tool_names=[])
    assert outcome.compacted and history_problems(outcome.new_history) == []


async def test_a_success_resets_the_failure_count(tmp_path):
    mgr = manager(tmp_path)
    history = conversation(60)
    err = ProviderError("overloaded", "overloaded")
    provider = ScriptedProvider(err, err, NINE_SECTIONS, err, err)
    for _ in range(5):
        await mgr.before_round(history, provider=provider, tool_names=[])
    assert mgr.auto_enabled and mgr.failures == 2


async def test_too_long_summary_request_drops_oldest_groups_1_1_1_then_20_percent(tmp_path):
    mgr = manager(tmp_path)
    history = conversation(36, size=2_000)
    provider = ScriptedProvider(too_long_over=15)
    outcome = await mgr.compact(history, provider=provider, tool_names=[])
    assert outcome.compacted
    counts = [provider.turns_in(r) for r in provider.requests]
    total = counts[0]
    step = -(-total // 5)  # 20 % of the groups, rounded up
    expected = [total, total - 1, total - 2, total - 3]
    while expected[-1] > 15:
        expected.append(expected[-1] - step)
    assert counts == expected
    assert len(counts) >= 6  # the 20 % steps were exercised
    assert "left out of the summary" in outcome.warning
    assert "oldest user turn(s) were left out" in provider.requests[-1].messages[0].text()


async def test_too_long_until_nothing_is_left_is_a_failure(tmp_path):
    mgr = manager(tmp_path)
    outcome = await mgr.before_round(
        conversation(60), provider=ScriptedProvider(too_long_over=-1), tool_names=[]
    )
    assert not outcome.compacted
    assert "too long to summarise" in outcome.warning


async def test_pre_compact_hook_adds_to_the_instructions(tmp_path):
    seen = []

    async def pre_compact(trigger, instructions):
        seen.append((trigger, instructions))
        return "keep the list of failing tests"

    mgr = manager(tmp_path, pre_compact=pre_compact)
    provider = ScriptedProvider()
    await mgr.compact(
        conversation(10), provider=provider, tool_names=[], instructions="focus on the parser"
    )
    assert seen == [("manual", "focus on the parser")]
    sent = provider.requests[0].messages[0].text()
    assert "focus on the parser" in sent and "keep the list of failing tests" in sent


async def test_manual_compact_of_a_short_conversation_says_why_not(tmp_path):
    mgr = manager(tmp_path)
    with pytest.raises(CompactionError, match="nothing to compact yet"):
        await mgr.compact(conversation(1), provider=ScriptedProvider(), tool_names=[])


async def test_manual_compact_failure_is_one_clear_error(tmp_path):
    mgr = manager(tmp_path)
    provider = ScriptedProvider(
        ProviderError("auth", "authentication failed: check ANTHROPIC_API_KEY")
    )
    with pytest.raises(CompactionError, match="authentication failed"):
        await mgr.compact(conversation(10), provider=provider, tool_names=[])
    assert mgr.auto_enabled and mgr.failures == 0


async def test_breakdown_by_category(tmp_path):
    mgr = manager(tmp_path)
    history = conversation(2, size=400)
    parts = mgr.breakdown(history, system_text="s" * 4000, tools_json="t" * 800)
    assert parts["system_prompt"] == 1000
    assert parts["tool_definitions"] == 200
    assert parts["tool_results"] == 2 * 100
    assert parts["summary"] == 0
    assert parts["total"] == sum(
        parts[k]
        for k in ("system_prompt", "tool_definitions", "summary", "messages", "tool_results")
    )
    assert parts["free"] == 40_000 - parts["total"]
    compacted = await mgr.compact(conversation(10), provider=ScriptedProvider(), tool_names=[])
    assert mgr.breakdown(compacted.new_history, "", "")["summary"] > 0
