"""Script steps: validation, defaults and helpers shared by both wire formats."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

Step = dict[str, Any]
Responder = Callable[[dict[str, Any]], Step]

STEP_KEYS = {
    "text", "thinking", "signature", "redacted_thinking", "tool_calls", "usage", "stop_reason",
    "chunk_size", "delay_ms", "cut_after_chunks", "cut_clean", "stream_error",
    "status", "retry_after", "message",
}  # fmt: skip
TOOL_CALL_KEYS = {"id", "name", "input", "raw_arguments"}
USAGE_KEYS = {"input_tokens", "output_tokens", "cache_read", "cache_write"}
DEFAULT_USAGE = {"input_tokens": 10, "output_tokens": 5, "cache_read": 0, "cache_write": 0}


def check_step(step: object) -> Step:
    """Return ``step`` if it is a well-formed step dict; raise ValueError naming the problem."""
    if not isinstance(step, dict):
        raise ValueError(f"a step must be a dict, got {type(step).__name__}")
    unknown = set(step) - STEP_KEYS
    if unknown:
        raise ValueError(f"unknown step keys: {sorted(unknown)}")
    for call in step.get("tool_calls", []):
        if not isinstance(call, dict) or "name" not in call:
            raise ValueError(f"a tool call needs at least a name: {call!r}")
        if set(call) - TOOL_CALL_KEYS:
            raise ValueError(f"unknown tool call keys: {sorted(set(call) - TOOL_CALL_KEYS)}")
    if set(step.get("usage", {})) - USAGE_KEYS:
        raise ValueError(f"unknown usage keys: {sorted(set(step['usage']) - USAGE_KEYS)}")
    return step


def usage_of(step: Step) -> dict[str, int]:
    return {**DEFAULT_USAGE, **step.get("usage", {})}


def pieces(text: str, size: int) -> list[str]:
    """Split ``text`` into fragments of at most ``size`` characters."""
    size = max(1, size)
    return [text[i : i + size] for i in range(0, len(text), size)]


def tool_arguments(call: dict[str, Any]) -> str:
    """The JSON argument string the model 'writes' for a scripted call."""
    if "raw_arguments" in call:
        return call["raw_arguments"]
    return json.dumps(call.get("input", {}))


def tool_call_id(call: dict[str, Any], index: int, prefix: str) -> str:
    return call.get("id") or f"{prefix}{index + 1}"


def default_stop(step: Step) -> str:
    """Anthropic-style stop reason: tool_use when the step calls tools."""
    return step.get("stop_reason") or ("tool_use" if step.get("tool_calls") else "end_turn")


FAULT_TEXT = {
    400: "invalid request",
    401: "invalid x-api-key",
    403: "permission denied",
    404: "not found",
    429: "rate limit exceeded",
    500: "internal server error",
    503: "service unavailable",
    529: "Overloaded",
}


def fault_message(step: Step) -> str:
    return step.get("message") or FAULT_TEXT.get(step["status"], f"error {step['status']}")


# --- reading request bodies of either wire format ----------------------------


def _messages(body: dict[str, Any]) -> list[dict[str, Any]]:
    return body.get("messages") or []


def last_tool_result_text(body: dict[str, Any]) -> str | None:
    """The text of the newest tool result in an Anthropic or OpenAI request body."""
    for msg in reversed(_messages(body)):
        if msg.get("role") == "tool":  # OpenAI
            content = msg.get("content")
            if isinstance(content, list):
                return "".join(p.get("text", "") for p in content if isinstance(p, dict))
            return content
        content = msg.get("content")
        if msg.get("role") == "user" and isinstance(content, list):
            for block in reversed(content):
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    inner = block.get("content", "")
                    if isinstance(inner, list):
                        return "".join(b.get("text", "") for b in inner if b.get("type") == "text")
                    return inner
    return None


def last_user_text(body: dict[str, Any]) -> str | None:
    """The text of the newest user message (either wire format)."""
    for msg in reversed(_messages(body)):
        if msg.get("role") != "user":
            continue
        content = msg.get("content")
        if isinstance(content, str):
            return content
        texts = [b.get("text", "") for b in content or [] if b.get("type") == "text"]
        if texts:
            return "".join(texts)
    return None
