"""The OpenAI Chat Completions wire format: chunks, completions and errors."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from tests.fakellm.steps import (
    Step,
    default_stop,
    fault_message,
    pieces,
    tool_arguments,
    tool_call_id,
    usage_of,
)

Frame = tuple[bytes, bool]

FINISH = {"end_turn": "stop", "tool_use": "tool_calls", "max_tokens": "length",
          "stop_sequence": "stop", "refusal": "content_filter"}  # fmt: skip
ERRORS = {
    401: ("invalid_request_error", "invalid_api_key"),
    403: ("invalid_request_error", "unsupported_country_region_territory"),
    404: ("invalid_request_error", "model_not_found"),
    429: ("requests", "rate_limit_exceeded"),
}


def _data(payload: dict[str, Any] | str, content: bool = False) -> Frame:
    text = payload if isinstance(payload, str) else json.dumps(payload)
    return f"data: {text}\n\n".encode(), content


def _chunk(model: str, delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {
        "id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 1_700_000_000,
        "model": model, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }  # fmt: skip


def usage_json(step: Step) -> dict[str, Any]:
    """OpenAI usage: prompt_tokens counts cached tokens too."""
    u = usage_of(step)
    prompt = u["input_tokens"] + u["cache_read"] + u["cache_write"]
    return {
        "prompt_tokens": prompt,
        "completion_tokens": u["output_tokens"],
        "total_tokens": prompt + u["output_tokens"],
        "prompt_tokens_details": {"cached_tokens": u["cache_read"]},
    }


def finish_reason(step: Step) -> str:
    stop = default_stop(step)
    return FINISH.get(stop, stop)


def stream_frames(step: Step, model: str, include_usage: bool) -> Iterator[Frame]:
    """Every ``data:`` line of one streamed answer, role chunk to ``[DONE]``."""
    size = step.get("chunk_size", 8)
    yield _data(_chunk(model, {"role": "assistant", "content": ""}))
    for piece in pieces(step.get("thinking", ""), size):
        yield _data(_chunk(model, {"reasoning_content": piece}), True)
    for piece in pieces(step.get("text", ""), size):
        yield _data(_chunk(model, {"content": piece}), True)
    for n, call in enumerate(step.get("tool_calls", [])):
        head = {"index": n, "id": tool_call_id(call, n, "call_"), "type": "function",
                "function": {"name": call["name"], "arguments": ""}}  # fmt: skip
        yield _data(_chunk(model, {"tool_calls": [head]}))
        for piece in pieces(tool_arguments(call), size):
            frag = {"index": n, "function": {"arguments": piece}}
            yield _data(_chunk(model, {"tool_calls": [frag]}), True)
    yield _data(_chunk(model, {}, finish_reason(step)))
    if include_usage:
        usage_chunk = _chunk(model, {}) | {"choices": [], "usage": usage_json(step)}
        yield _data(usage_chunk)
    yield _data("[DONE]")


def stream_error_frame(error_type: str, message: str) -> Frame:
    """An error object sent inside an already-started stream."""
    return _data({"error": {"message": message, "type": error_type, "param": None, "code": None}})


def completion_json(step: Step, model: str) -> dict[str, Any]:
    """A complete (non-streamed) ChatCompletion for the step."""
    message: dict[str, Any] = {"role": "assistant", "content": step.get("text") or None}
    calls = [
        {"id": tool_call_id(c, n, "call_"), "type": "function",
         "function": {"name": c["name"], "arguments": tool_arguments(c)}}
        for n, c in enumerate(step.get("tool_calls", []))
    ]  # fmt: skip
    if calls:
        message["tool_calls"] = calls
    if step.get("thinking"):
        message["reasoning_content"] = step["thinking"]
    return {
        "id": "chatcmpl-fake", "object": "chat.completion", "created": 1_700_000_000,
        "model": model, "usage": usage_json(step),
        "choices": [{"index": 0, "message": message, "finish_reason": finish_reason(step)}],
    }  # fmt: skip


def error_body(status: int, message: str) -> dict[str, Any]:
    kind, code = ERRORS.get(status, ("server_error" if status >= 500 else "invalid_request_error",
                                     None))  # fmt: skip
    if status == 400 and ("too long" in message or "context" in message):
        code = "context_length_exceeded"
    return {"error": {"message": message, "type": kind, "param": None, "code": code}}


def fault_body(step: Step) -> dict[str, Any]:
    return error_body(step["status"], fault_message(step))
