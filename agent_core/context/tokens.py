"""Token estimates for when the provider has not told us (docs/manual.md#sessions-and-context).

Characters / 4, except CJK (and other wide scripts), which count one token
per character. Images count a fixed amount.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import msgspec

from agent_core.messages import (
    ImageBlock,
    Message,
    RedactedThinkingBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)

IMAGE_TOKENS = 1_600
# Role markers and block framing the API adds around each message.
MESSAGE_OVERHEAD = 4
_CJK = re.compile(
    r"[\u1100-\u11ff\u2e80-\u2fdf\u3000-\u30ff\u3100-\u31ff\u3200-\u9fff"
    r"\ua960-\ua97f\uac00-\ud7ff\uf900-\ufaff\uff00-\uffef\U00020000-\U0003ffff]"
)
_json = msgspec.json.Encoder()


def estimate_tokens(text: str) -> int:
    """Estimated tokens of a text: ceil(other chars / 4) + one per CJK char."""
    if not text:
        return 0
    if text.isascii():
        return (len(text) + 3) // 4
    wide = len(_CJK.findall(text))
    return wide + (len(text) - wide + 3) // 4


def estimate_block_tokens(block: object) -> int:
    """Estimated tokens of one content block."""
    if isinstance(block, TextBlock):
        return estimate_tokens(block.text)
    if isinstance(block, ThinkingBlock):
        return estimate_tokens(block.thinking)
    if isinstance(block, RedactedThinkingBlock):
        return estimate_tokens(block.data)
    if isinstance(block, ImageBlock):
        return IMAGE_TOKENS
    if isinstance(block, ToolUseBlock):
        return estimate_tokens(block.name) + estimate_tokens(_json.encode(block.input).decode())
    if isinstance(block, ToolResultBlock):
        if isinstance(block.content, str):
            return estimate_tokens(block.content)
        return sum(estimate_block_tokens(b) for b in block.content)
    return 0


def estimate_message_tokens(messages: Iterable[Message]) -> int:
    """Estimated tokens of a list of messages, framing included."""
    return sum(
        MESSAGE_OVERHEAD + sum(estimate_block_tokens(b) for b in m.content) for m in messages
    )
