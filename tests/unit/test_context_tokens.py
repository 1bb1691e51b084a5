"""Token estimates: chars/4, CJK one per character, images a fixed amount."""

from __future__ import annotations

from agent_core.context.tokens import (
    IMAGE_TOKENS,
    MESSAGE_OVERHEAD,
    estimate_message_tokens,
    estimate_tokens,
)
from agent_core.messages import ImageBlock, Message, TextBlock, ToolResultBlock, ToolUseBlock


def test_ascii_is_a_quarter_of_the_characters_rounded_up():
    assert estimate_tokens("") == 0
    assert estimate_tokens("abcd") == 1
    assert estimate_tokens("abcde") == 2
    assert estimate_tokens("x" * 4000) == 1000


def test_cjk_counts_one_token_per_character():
    assert estimate_tokens("你好世界") == 4
    assert estimate_tokens("こんにちは") == 5
    assert estimate_tokens("한국어") == 3
    assert estimate_tokens("修复 bug") == 2 + 1  # two CJK + " bug" (4 chars)


def test_messages_sum_blocks_plus_framing():
    msgs = [
        Message(role="user", content=[TextBlock("x" * 40), ImageBlock("image/png", "AAAA")]),
        Message(role="assistant", content=[ToolUseBlock("t1", "Read", {"path": "a"})]),
        Message(role="user", content=[ToolResultBlock("t1", "y" * 400)]),
    ]
    expected = (
        10
        + IMAGE_TOKENS
        + estimate_tokens("Read")
        + estimate_tokens('{"path":"a"}')
        + 100
        + 3 * MESSAGE_OVERHEAD
    )
    assert estimate_message_tokens(msgs) == expected
