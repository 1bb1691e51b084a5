"""Provider-neutral conversation history: messages made of typed content blocks."""

from __future__ import annotations

from typing import Any, Literal

import msgspec


class TextBlock(msgspec.Struct, tag="text", tag_field="type", omit_defaults=True):
    text: str


class ThinkingBlock(msgspec.Struct, tag="thinking", tag_field="type", omit_defaults=True):
    thinking: str
    signature: str = ""


class RedactedThinkingBlock(msgspec.Struct, tag="redacted_thinking", tag_field="type"):
    data: str


class ImageBlock(msgspec.Struct, tag="image", tag_field="type", omit_defaults=True):
    media_type: str
    data: str  # base64
    note: str = ""


class ToolUseBlock(msgspec.Struct, tag="tool_use", tag_field="type"):
    id: str
    name: str
    input: dict[str, Any]


class ToolResultBlock(msgspec.Struct, tag="tool_result", tag_field="type", omit_defaults=True):
    tool_use_id: str
    content: str | list[TextBlock | ImageBlock]
    is_error: bool = False


ContentBlock = (
    TextBlock | ThinkingBlock | RedactedThinkingBlock | ImageBlock | ToolUseBlock | ToolResultBlock
)


class Message(msgspec.Struct, omit_defaults=True):
    role: Literal["user", "assistant"]
    content: list[ContentBlock]

    def tool_uses(self) -> list[ToolUseBlock]:
        return [b for b in self.content if isinstance(b, ToolUseBlock)]

    def text(self) -> str:
        return "".join(b.text for b in self.content if isinstance(b, TextBlock))


def user_text(text: str) -> Message:
    return Message(role="user", content=[TextBlock(text)])


def result_text(block: ToolResultBlock) -> str:
    """The textual part of a tool result (images are described, not inlined)."""
    if isinstance(block.content, str):
        return block.content
    parts = []
    for b in block.content:
        parts.append(b.text if isinstance(b, TextBlock) else f"[image {b.media_type}]")
    return "\n".join(parts)


def dangling_tool_uses(history: list[Message]) -> list[ToolUseBlock]:
    """Tool uses in the last assistant message that have no result after them."""
    if not history or history[-1].role != "assistant":
        return []
    return history[-1].tool_uses()
