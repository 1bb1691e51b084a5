"""Provider-neutral requests to OpenAI Chat Completions parameters (plain dicts)."""

from __future__ import annotations

import json
import re
from typing import Any

from agent_core.llm.base import ChatRequest
from agent_core.messages import ImageBlock, Message, TextBlock, ToolResultBlock, ToolUseBlock

IMAGE_MOVED = "[image attached in the next message]"
_REASONING_MODEL = re.compile(r"^(o\d|gpt-5)")


def is_reasoning_model(model: str) -> bool:
    """OpenAI reasoning models take max_completion_tokens and reasoning_effort."""
    return bool(_REASONING_MODEL.match(model.lower().rsplit("/", 1)[-1]))


def reasoning_effort(budget: int) -> str:
    if budget < 4096:
        return "low"
    return "medium" if budget < 16384 else "high"


def build_params(model: str, request: ChatRequest) -> dict[str, Any]:
    """Keyword arguments for ``client.chat.completions.create``."""
    params: dict[str, Any] = {
        "model": model,
        "messages": wire_messages(request),
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    if request.tools:
        params["tools"] = [
            {
                "type": "function",
                "function": {
                    "name": t.name,
                    "description": t.description,
                    "parameters": t.input_schema,
                },
            }
            for t in request.tools
        ]
    reasoning = is_reasoning_model(model)
    params["max_completion_tokens" if reasoning else "max_tokens"] = request.max_tokens
    if request.temperature is not None:
        params["temperature"] = request.temperature
    if request.thinking_budget and reasoning:
        params["reasoning_effort"] = reasoning_effort(request.thinking_budget)
    if request.options:
        params["extra_body"] = dict(request.options)
    return params


def wire_messages(request: ChatRequest) -> list[dict[str, Any]]:
    """System prompt plus history as chat messages."""
    out: list[dict[str, Any]] = []
    system = "\n\n".join(b.text for b in request.system if b.text)
    if system:
        out.append({"role": "system", "content": system})
    for message in request.messages:
        if message.role == "assistant":
            out.append(_assistant(message))
        else:
            out.extend(_user(message))
    return out


def _assistant(message: Message) -> dict[str, Any]:
    # Thinking blocks are not sent back: chat completions have no field for them.
    text = "".join(b.text for b in message.content if isinstance(b, TextBlock))
    calls = [
        {
            "id": b.id,
            "type": "function",
            "function": {"name": b.name, "arguments": json.dumps(b.input)},
        }
        for b in message.content
        if isinstance(b, ToolUseBlock)
    ]
    wire: dict[str, Any] = {"role": "assistant", "content": text or (None if calls else "")}
    if calls:
        wire["tool_calls"] = calls
    return wire


def _image_part(block: ImageBlock) -> dict[str, Any]:
    url = f"data:{block.media_type};base64,{block.data}"
    return {"type": "image_url", "image_url": {"url": url}}


def _tool_message(block: ToolResultBlock, moved: list[dict[str, Any]]) -> dict[str, Any]:
    """A ``role: tool`` message; its images are appended to ``moved`` (tool messages are text)."""
    if isinstance(block.content, str):
        text = block.content
    else:
        lines = []
        for item in block.content:
            if isinstance(item, TextBlock):
                lines.append(item.text)
            else:
                lines.append(IMAGE_MOVED)
                if item.note:
                    moved.append({"type": "text", "text": item.note})
                moved.append(_image_part(item))
        text = "\n".join(lines)
    if block.is_error:
        text = f"Error: {text}"
    return {"role": "tool", "tool_call_id": block.tool_use_id, "content": text}


def _user(message: Message) -> list[dict[str, Any]]:
    """Tool results first (they must follow the assistant's tool_calls), then the user's part."""
    out: list[dict[str, Any]] = []
    parts: list[dict[str, Any]] = []
    for block in message.content:
        if isinstance(block, ToolResultBlock):
            out.append(_tool_message(block, parts))
    if parts:
        parts.insert(0, {"type": "text", "text": "Images from the tool results above:"})
    for block in message.content:
        if isinstance(block, TextBlock) and block.text:
            parts.append({"type": "text", "text": block.text})
        elif isinstance(block, ImageBlock):
            parts.append(_image_part(block))
    if any(p["type"] == "image_url" for p in parts):
        out.append({"role": "user", "content": parts})
    elif parts:
        out.append({"role": "user", "content": "\n\n".join(p["text"] for p in parts)})
    elif not out:
        out.append({"role": "user", "content": ""})
    return out
