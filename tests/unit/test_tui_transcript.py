"""Pure transcript logic: previews, answer segments, rebuilding from history."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from agent_core.messages import Message, TextBlock, ToolResultBlock, ToolUseBlock
from agent_core.protocol.history import report_of
from mewcode_tui.transcript import (
    AssistantEntry,
    ToolCallRecord,
    ToolRoundEntry,
    Transcript,
    UserEntry,
    bounded_preview,
    human_size,
    segment_cut,
    split_segments,
    transcript_from_history,
)


def test_huge_output_keeps_a_bounded_preview_and_its_size():
    record = ToolCallRecord("c1", "Bash", "ls", {})
    record.set_output("x" * 10_000_000)
    assert len(record.output) == 4_000
    assert record.output_size == 10_000_000 and record.output_truncated
    assert human_size(record.output_size) == "10.0 MB"
    assert bounded_preview("a\n" * 100, lines=3) == "a\na\na"


def test_calls_group_by_round_until_the_model_message_ends():
    transcript = Transcript()
    _, new1 = transcript.add_call(ToolCallRecord("a", "Read", "", {}))
    _, new2 = transcript.add_call(ToolCallRecord("b", "Grep", "", {}))
    transcript.end_round()
    _, new3 = transcript.add_call(ToolCallRecord("c", "Edit", "", {}))
    assert (new1, new2, new3) == (True, False, True)
    rounds = [e for e in transcript.entries if isinstance(e, ToolRoundEntry)]
    assert [[c.call_id for c in r.calls] for r in rounds] == [["a", "b"], ["c"]]
    # Each call's round is known by id (how the chat log finds a call's line).
    assert {call_id: rounds.index(r) for call_id, r in transcript.rounds.items()} == {
        "a": 0,
        "b": 0,
        "c": 1,
    }
    transcript.clear()
    assert not transcript.rounds and not transcript.calls


def test_segment_cut_waits_for_the_limit_and_a_blank_line_outside_fences():
    assert segment_cut("short", "text\n\nmore", limit=100) is None
    text = "x" * 95
    assert segment_cut(text, "abc\n\nnext", limit=100) == 5
    fenced = "```python\n" + "y" * 95
    assert segment_cut(fenced, "\n\nstill code\n```\n\nafter", limit=100) == len(
        "\n\nstill code\n```\n\n"
    )
    # Never before an indented line: it would become a code block on its own.
    assert segment_cut(text, "a\n\n    indented\n\nok", limit=100) == len("a\n\n    indented\n\n")


BLOCKS = st.sampled_from(
    ["para one.", "- item\n- item", "```\ncode\n\nmore code\n```", "    indented", "## Head"]
)


@given(st.lists(BLOCKS, min_size=1, max_size=60), st.integers(min_value=20, max_value=200))
def test_segments_rejoin_to_the_text_and_never_split_a_fence(blocks, limit):
    text = "\n\n".join(blocks) + "\n"
    pieces = split_segments("", text, limit)
    assert "".join(pieces) == text
    for piece in pieces[:-1]:
        assert piece.endswith("\n\n")
        assert piece.count("```") % 2 == 0
        assert len(piece) >= limit - 2 or piece is pieces[0]


def test_history_rebuilds_entries_and_call_results():
    history = [
        Message("user", [TextBlock("hi")]),
        Message(
            "assistant", [TextBlock("looking"), ToolUseBlock("c1", "Read", {"file_path": "a.py"})]
        ),
        Message("user", [ToolResultBlock("c1", "x = 1", is_error=False)]),
        Message("assistant", [TextBlock("done")]),
    ]
    transcript = transcript_from_history(report_of(history))
    kinds = [type(e) for e in transcript.entries]
    assert kinds == [UserEntry, AssistantEntry, ToolRoundEntry, AssistantEntry]
    call = transcript.calls["c1"]
    assert (call.summary, call.status, call.output) == ("a.py", "ok", "x = 1")


def test_a_compacted_history_shows_a_marker_not_the_summary_text() -> None:
    from agent_core.context.compaction import build_compacted_history
    from agent_core.messages import Message, TextBlock, user_text
    from mewcode_tui.transcript import NoticeEntry, UserEntry, transcript_from_history

    history = build_compacted_history(
        "## 1. Primary request and intent\n- x",
        "restore block",
        [user_text("next question"), Message(role="assistant", content=[TextBlock("answer")])],
    )
    entries = transcript_from_history(report_of(history)).entries
    assert isinstance(entries[0], NoticeEntry) and "summarised" in entries[0].text
    assert [e.text for e in entries if isinstance(e, UserEntry)] == ["next question"]
    assert "Primary request" not in repr(entries)


def test_a_long_saved_answer_comes_back_in_segments_not_one_huge_entry():
    from bench.bench_tui import markdown_answer
    from mewcode_tui.transcript import SEGMENT_CHARS

    text = markdown_answer(50_000)
    history = [
        Message("user", [TextBlock("explain")]),
        Message("assistant", [TextBlock(text)]),
    ]
    entries = transcript_from_history(report_of(history)).entries
    answers = [e for e in entries if isinstance(e, AssistantEntry)]
    assert len(answers) > 20
    assert "".join(e.text for e in answers) == text
    assert all(e.done for e in answers)
    assert [e.continued for e in answers] == [False] + [True] * (len(answers) - 1)
    # Each one is a bounded amount of Markdown to render.
    assert max(len(e.text) for e in answers) < 3 * SEGMENT_CHARS
