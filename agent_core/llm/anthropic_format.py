"""Provider-neutral requests to Anthropic Messages API parameters (plain dicts)."""

from __future__ import annotations

import re
from typing import Any

from agent_core.llm.base import ChatRequest
from agent_core.messages import (
    ContentBlock,
    ImageBlock,
    Message,
    RedactedThinkingBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)

EPHEMERAL = {"type": "ephemeral"}
EMPTY_MESSAGE = "(no content)"  # the API rejects a message with no content blocks
MIN_THINKING_BUDGET = 1024
_CLAUDE_VERSION = re.compile(
    r"claude-(?:opus|sonnet|haiku|fable|mythos)-(\d+)(?:-(\d{1,2})(?!\d))?"
)


def build_params(model: str, request: ChatRequest) -> dict[str, Any]:
    """Keyword arguments for ``client.messages.create`` (without ``stream``)."""
    params: dict[str, Any] = {
        "model": model,
        "max_tokens": request.max_tokens,
        "messages": [wire_message(m) for m in request.messages],
    }
    system = [_system_block(b.text, b.cache) for b in request.system if b.text]
    if system:
        params["system"] = system
    if request.tools:
        tools = [
            {"name": t.name, "description": t.description, "input_schema": t.input_schema}
            for t in request.tools
        ]
        tools[-1]["cache_control"] = EPHEMERAL  # caches every tool definition before it too
        params["tools"] = tools
    if request.thinking_budget:
        params["thinking"] = thinking_param(model, request.thinking_budget)
        budget = params["thinking"].get("budget_tokens", 0)
        # The API requires max_tokens > budget_tokens; keep the caller's answer room on top.
        if budget and params["max_tokens"] <= budget:
            params["max_tokens"] = budget + request.max_tokens
    elif request.temperature is not None:
        # Thinking requires the default temperature, so it is only sent without thinking.
        params["temperature"] = request.temperature
    if request.options:
        params["extra_body"] = dict(request.options)
    return params


def uses_adaptive_thinking(model: str) -> bool:
    """Claude 4.6 and later take ``{"type": "adaptive"}``; earlier models take a budget."""
    match = _CLAUDE_VERSION.match(model.lower().rsplit("/", 1)[-1])
    if not match:
        return False  # other Anthropic-compatible servers know the classic form
    return (int(match.group(1)), int(match.group(2) or 0)) >= (4, 6)


def thinking_param(model: str, budget: int) -> dict[str, Any]:
    if uses_adaptive_thinking(model):
        return {"type": "adaptive"}
    return {"type": "enabled", "budget_tokens": max(MIN_THINKING_BUDGET, budget)}


def _system_block(text: str, cache: bool) -> dict[str, Any]:
    block: dict[str, Any] = {"type": "text", "text": text}
    if cache:
        block["cache_control"] = EPHEMERAL
    return block


def wire_message(message: Message) -> dict[str, Any]:
    """One history message as an Anthropic message param."""
    blocks = [b for b in (_wire_block(x) for x in message.content) if b is not None]
    if not blocks:
        blocks = [{"type": "text", "text": EMPTY_MESSAGE}]
    return {"role": message.role, "content": blocks}


def _image(block: ImageBlock) -> dict[str, Any]:
    source = {"type": "base64", "media_type": block.media_type, "data": block.data}
    return {"type": "image", "source": source}


def _result_content(block: ToolResultBlock) -> str | list[dict[str, Any]]:
    if isinstance(block.content, str):
        return block.content
    parts: list[dict[str, Any]] = []
    for item in block.content:
        if isinstance(item, TextBlock):
            if item.text:
                parts.append({"type": "text", "text": item.text})
        else:
            if item.note:
                parts.append({"type": "text", "text": item.note})
            parts.append(_image(item))
    return parts


def _wire_block(block: ContentBlock) -> dict[str, Any] | None:
    if isinstance(block, TextBlock):
        return {"type": "text", "text": block.text} if block.text else None
    if isinstance(block, ThinkingBlock):
        # Unsigned thinking (from another vendor) would be rejected; it is only for display.
        if not block.signature:
            return None
        return {"type": "thinking", "thinking": block.thinking, "signature": block.signature}
    if isinstance(block, RedactedThinkingBlock):
        return {"type": "redacted_thinking", "data": block.data}
    if isinstance(block, ImageBlock):
        return _image(block)
    if isinstance(block, ToolUseBlock):
        return {"type": "tool_use", "id": block.id, "name": block.name, "input": block.input}
    if isinstance(block, ToolResultBlock):
        out: dict[str, Any] = {"type": "tool_result", "tool_use_id": block.tool_use_id}
        content = _result_content(block)
        if content:
            out["content"] = content
        if block.is_error:
            out["is_error"] = True
        return out
    return None
