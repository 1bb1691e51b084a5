"""Layer 1: big tool results go to disk; the decision never changes."""

from __future__ import annotations

import msgspec

from agent_core.context.spill import PREVIEW_CHARS, SpillLedger
from agent_core.llm.base import ChatRequest
from agent_core.messages import Message, TextBlock, ToolResultBlock, ToolUseBlock, user_text


def test_small_result_is_kept_inline(tmp_path):
    ledger = SpillLedger(tmp_path, limit=100)
    assert ledger.apply("t1", "short") == "short"
    assert not (tmp_path / "tool-results").exists()


def test_big_result_is_saved_and_replaced_by_head_and_pointer(tmp_path):
    ledger = SpillLedger(tmp_path, limit=1000)
    content = "".join(f"line {i}\n" for i in range(2000))
    text = ledger.apply("toolu_01", content)
    saved = tmp_path / "tool-results" / "toolu_01.txt"
    assert saved.read_text() == content
    size = len(content.encode())
    assert text.endswith(f"full output saved to {saved} ({size} bytes); read it with Read")
    assert text.startswith("line 0\nline 1\n")
    assert len(text) < PREVIEW_CHARS + 200


def test_decisions_are_final_even_if_the_limit_changes(tmp_path):
    ledger = SpillLedger(tmp_path, limit=1000)
    big, small = "b" * 5000, "s" * 500
    first_big, first_small = ledger.apply("big", big), ledger.apply("small", small)
    ledger.close()

    # Resumed later with a different limit: old calls keep their old decisions.
    resumed = SpillLedger(tmp_path, limit=100)
    assert resumed.apply("small", small) == first_small == small
    resumed_big = SpillLedger(tmp_path, limit=10_000_000)
    assert resumed_big.apply("big", big) == first_big != big
    # New calls follow the new limit.
    assert resumed.apply("new", small) != small


def test_unsafe_call_ids_make_safe_distinct_file_names(tmp_path):
    ledger = SpillLedger(tmp_path, limit=10)
    a = ledger.apply("../../etc/passwd", "x" * 100)
    b = ledger.apply("..-..-etc-passwd", "y" * 100)
    files = sorted(p.name for p in (tmp_path / "tool-results").iterdir())
    assert len(files) == 2
    assert all("/" not in f for f in files)
    assert a != b


def test_list_content_keeps_images_and_spills_text(tmp_path):
    from agent_core.messages import ImageBlock

    ledger = SpillLedger(tmp_path, limit=100)
    block = ToolResultBlock("t9", [TextBlock("z" * 500), ImageBlock("image/png", "AAAA")])
    out = ledger.apply_block(block)
    assert isinstance(out.content, list)
    assert "full output saved to" in out.content[0].text
    assert out.content[1] == ImageBlock("image/png", "AAAA")


def test_request_prefix_is_byte_identical_across_rounds(tmp_path):
    """The provider's prompt cache hits only if earlier bytes never change."""
    ledger = SpillLedger(tmp_path, limit=2_000)
    raw_history: list[Message] = [user_text("start")]
    previous: tuple[int, bytes] | None = None
    for round_no in range(8):
        call_id = f"call{round_no}"
        raw_history.append(
            Message(role="assistant", content=[ToolUseBlock(call_id, "Bash", {"n": round_no})])
        )
        size = 5_000 if round_no % 2 else 300  # every other result is big
        raw_history.append(
            Message(role="user", content=[ToolResultBlock(call_id, f"{round_no}" * size)])
        )
        if round_no == 4:
            ledger.close()
            ledger = SpillLedger(tmp_path, limit=10)  # resumed, and the limit changed
        # The ledger is re-applied to the whole raw history every round.
        sent = [ledger.apply_message(m) for m in raw_history]
        if previous is not None:
            count, earlier = previous
            assert msgspec.json.encode(ChatRequest(messages=sent[:count])) == earlier
        previous = (len(sent), msgspec.json.encode(ChatRequest(messages=sent)))
    spilled = sorted(p.name for p in (tmp_path / "tool-results").iterdir())
    # 0 and 2 were kept under the first limit and stay kept under the lower one.
    assert spilled == [f"call{i}.txt" for i in (1, 3, 4, 5, 6, 7)]
