"""Layer-2 planning: budget, where to cut, retry schedule, the new history."""

from __future__ import annotations

import pytest

from agent_core.config.settings import Limits
from agent_core.context.compaction import (
    ACK_TEXT,
    RESTORE_SENTENCE,
    SUMMARY_HEADINGS,
    FileSnapshot,
    build_compacted_history,
    compaction_budget,
    compaction_reason,
    groups_to_drop,
    is_summary,
    plan_split,
    restore_block,
    summary_request_text,
    turn_groups,
)
from agent_core.context.tokens import estimate_message_tokens
from agent_core.messages import Message, TextBlock, ToolResultBlock, ToolUseBlock, user_text
from agent_core.session.repair import history_problems


def ask(text: str = "q", size: int = 0) -> Message:
    return user_text(text + "x" * size)


def reply(text: str = "a", size: int = 0) -> Message:
    return Message(role="assistant", content=[TextBlock(text + "x" * size)])


def call(cid: str) -> Message:
    return Message(role="assistant", content=[ToolUseBlock(cid, "Read", {"path": cid})])


def result(cid: str, size: int = 0) -> Message:
    return Message(role="user", content=[ToolResultBlock(cid, "r" * size)])


@pytest.mark.parametrize(
    ("window", "max_output", "expected"),
    [
        (200_000, 8_192, int(0.8 * (200_000 - 8_192))),  # ratio is smaller
        (40_000, 8_000, 40_000 - 8_000 - 13_000),  # margin is smaller
        (10_000, 8_000, 1),  # never zero or negative
    ],
)
def test_budget_is_the_smaller_of_ratio_and_margin(window, max_output, expected):
    assert compaction_budget(Limits(), window, max_output) == expected


def test_reason_is_tokens_over_budget_or_message_cap():
    limits = Limits(history_cap_messages=100)
    assert compaction_reason(1001, 10, 1000, limits) == "tokens"
    assert compaction_reason(1000, 10, 1000, limits) is None
    assert compaction_reason(10, 101, 1000, limits) == "cap"


def _turns(n: int, size: int = 400) -> list[Message]:
    """n simple question/answer turns, each message ~size/4 tokens."""
    out: list[Message] = []
    for i in range(n):
        out += [ask(f"q{i}", size), reply(f"a{i}", size)]
    return out


def test_keeps_what_fits_55_percent_and_cuts_before_a_user_turn():
    history = _turns(20)  # 40 messages of ~105 tokens each
    plan = plan_split(history, budget=2_000)
    assert plan is not None
    assert plan.recent[0].role == "user" and plan.recent[0].text().startswith("q")
    assert estimate_message_tokens(plan.recent) <= 0.55 * 2_000
    # One more turn would not have fitted.
    one_more = history[plan.cut - 2 :]
    assert estimate_message_tokens(one_more) > 0.55 * 2_000
    assert plan.older + plan.recent == history


def test_keeps_at_least_six_messages_even_over_the_target():
    history = _turns(10, size=4000)  # every message ~1000 tokens
    plan = plan_split(history, budget=1_000)
    assert len(plan.recent) == 6
    assert plan.recent[0].text().startswith("q7")


def test_never_separates_tool_calls_from_their_results():
    history = [ask("start")]
    for i in range(12):
        history += [call(f"c{i}"), result(f"c{i}", 400)]
    history += [reply("done"), ask("next"), call("z"), result("z"), reply("ok")]
    for budget in (200, 500, 1_000, 2_000, 5_000):
        plan = plan_split(history, budget)
        assert plan is not None
        assert not any(isinstance(b, ToolResultBlock) for b in plan.recent[0].content)
        rebuilt = build_compacted_history("S", "R", plan.recent)
        assert history_problems(rebuilt) == []


def test_one_long_agentic_turn_is_cut_before_an_assistant_message():
    history = [ask("do everything")]
    for i in range(30):
        history += [call(f"c{i}"), result(f"c{i}", 2_000)]
    plan = plan_split(history, budget=4_000)
    assert plan.recent[0].role == "assistant"
    assert len(plan.recent) >= 6
    rebuilt = build_compacted_history("S", "R", plan.recent)
    assert [m.role for m in rebuilt[:2]] == ["user", "assistant"]
    assert history_problems(rebuilt) == []


def test_nothing_to_do_for_short_history_or_only_a_previous_summary():
    assert plan_split(_turns(3), budget=10) is None  # 6 messages: all kept
    compacted = build_compacted_history("old summary", "R", _turns(3))
    assert is_summary(compacted[0])
    assert plan_split(compacted, budget=10) is None


def test_turn_groups_start_at_each_user_turn():
    history = [ask("a"), call("1"), result("1"), reply(), ask("b"), reply(), ask("c")]
    assert [len(g) for g in turn_groups(history)] == [4, 2, 1]


def test_drop_schedule_is_one_one_one_then_twenty_percent():
    assert [groups_to_drop(n, 30) for n in range(1, 7)] == [1, 1, 1, 6, 6, 6]
    assert groups_to_drop(4, 3) == 1


def test_summary_request_names_the_nine_sections_and_extra_instructions():
    text = summary_request_text("USER: hi", "focus on the parser", dropped_groups=2)
    for heading in SUMMARY_HEADINGS:
        assert heading in text
    assert "focus on the parser" in text
    assert "2 oldest user turn(s) were left out" in text


def test_restore_block_lists_files_tools_and_the_warning():
    block = restore_block([FileSnapshot("/p/a.py", "print(1)", truncated=True)], ["Read", "Edit"])
    assert '<file path="/p/a.py" (cut)>\nprint(1)\n</file>' in block
    assert "Tools available now: Read, Edit." in block
    assert block.endswith(RESTORE_SENTENCE)


def test_compacted_history_adds_an_ack_only_when_the_kept_part_starts_with_user():
    from_user = build_compacted_history("S", "R", [ask(), reply()])
    assert [m.role for m in from_user] == ["user", "assistant", "user", "assistant"]
    assert from_user[1].text() == ACK_TEXT
    from_assistant = build_compacted_history("S", "R", [call("x"), result("x"), reply()])
    assert [m.role for m in from_assistant] == ["user", "assistant", "user", "assistant"]
    assert from_assistant[1].tool_uses()


def test_max_keep_bounds_the_kept_part_for_cap_forced_compaction():
    history = _turns(30, size=4)  # tiny messages: everything would fit the token target
    plan = plan_split(history, budget=100_000, max_keep=10)
    assert len(plan.recent) == 10
    assert plan_split(history, budget=100_000, max_keep=2).recent.__len__() == 6  # min_keep wins
