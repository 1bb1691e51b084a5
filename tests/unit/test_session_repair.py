"""repair_history: any damaged history comes back valid for the API."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from agent_core.messages import Message, TextBlock, ToolResultBlock, ToolUseBlock, user_text
from agent_core.session.repair import (
    ENDED_NOTE,
    MISSING_START,
    NOT_RUN,
    history_problems,
    repair_history,
)


def call(*ids: str) -> Message:
    return Message(role="assistant", content=[ToolUseBlock(i, "Read", {"path": i}) for i in ids])


def answer(text: str) -> Message:
    return Message(role="assistant", content=[TextBlock(text)])


def results(*ids: str) -> Message:
    return Message(role="user", content=[ToolResultBlock(i, "ok") for i in ids])


def test_valid_history_is_untouched():
    history = [user_text("q"), call("a", "b"), results("a", "b"), answer("done")]
    fixed, tail, notes = repair_history(history)
    assert fixed == history and tail == [] and notes == []


def test_missing_result_in_middle_is_synthesised_in_call_order():
    history = [user_text("q"), call("a", "b"), results("b"), answer("done")]
    fixed, tail, _ = repair_history(history)
    assert tail == []
    assert [b.tool_use_id for b in fixed[2].content] == ["a", "b"]
    assert fixed[2].content[0] == ToolResultBlock("a", NOT_RUN, is_error=True)


def test_orphan_results_are_dropped_and_empty_message_removed():
    history = [user_text("q"), answer("x"), results("ghost"), answer("y")]
    fixed, _, notes = repair_history(history)
    assert [m.role for m in fixed] == ["user", "assistant"]
    assert fixed[1].content == [TextBlock("x"), TextBlock("y")]
    assert any("answered no call" in n for n in notes)


def test_history_starting_with_assistant_gets_a_placeholder_user_message():
    fixed, _, _ = repair_history([answer("hello"), user_text("hi"), answer("bye")])
    assert fixed[0].text() == MISSING_START
    assert history_problems(fixed) == []


def test_results_are_moved_before_text_in_a_user_message():
    mixed = Message(role="user", content=[TextBlock("note"), ToolResultBlock("a", "ok")])
    fixed, _, _ = repair_history([user_text("q"), call("a"), mixed, answer("done")])
    assert isinstance(fixed[2].content[0], ToolResultBlock)


def test_dangling_calls_at_the_end_become_the_tail():
    fixed, tail, _ = repair_history([user_text("q"), call("a")])
    assert tail == [
        Message(role="user", content=[ToolResultBlock("a", NOT_RUN, is_error=True)]),
        answer(ENDED_NOTE),
    ]
    assert fixed[-2:] == tail


def test_empty_history_stays_empty():
    assert repair_history([]) == ([], [], [])


_ids = st.sampled_from(["a", "b", "c", "d"])
_block = st.one_of(
    st.builds(TextBlock, st.sampled_from(["x", "y"])),
    st.builds(ToolUseBlock, _ids, st.just("Read"), st.just({})),
    st.builds(ToolResultBlock, _ids, st.just("ok")),
)
_message = st.builds(
    Message,
    role=st.sampled_from(["user", "assistant"]),
    content=st.lists(_block, max_size=4),
)


@given(st.lists(_message, max_size=12))
def test_any_damaged_history_comes_back_valid_and_ending_with_assistant(messages):
    # Tool uses only appear in assistant messages and results in user messages in real data.
    cleaned = [
        Message(
            role=m.role,
            content=[
                b
                for b in m.content
                if not (isinstance(b, ToolUseBlock) and m.role == "user")
                and not (isinstance(b, ToolResultBlock) and m.role == "assistant")
            ],
        )
        for m in messages
    ]
    # Tool use ids are unique within a real history.
    seen: set[str] = set()
    for m in cleaned:
        for b in list(m.content):
            if isinstance(b, ToolUseBlock):
                if b.id in seen:
                    m.content.remove(b)
                seen.add(b.id)
    fixed, _, _ = repair_history(cleaned)
    assert history_problems(fixed) == []
    assert not fixed or fixed[-1].role == "assistant"
