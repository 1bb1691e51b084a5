"""The Anthropic Messages API wire format: SSE events, JSON messages and errors."""

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

# (bytes on the wire, whether the frame carries model content)
Frame = tuple[bytes, bool]

ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    529: "overloaded_error",
}


def _event(name: str, data: dict[str, Any], content: bool = False) -> Frame:
    return f"event: {name}\ndata: {json.dumps(data)}\n\n".encode(), content


def _start_usage(step: Step) -> dict[str, int]:
    u = usage_of(step)
    return {
        "input_tokens": u["input_tokens"],
        "cache_creation_input_tokens": u["cache_write"],
        "cache_read_input_tokens": u["cache_read"],
        "output_tokens": 1,
    }


def _block(index: int, start: dict[str, Any], deltas: list[dict[str, Any]]) -> Iterator[Frame]:
    yield _event("content_block_start", {"type": "content_block_start", "index": index,
                                         "content_block": start})  # fmt: skip
    for delta in deltas:
        content = delta["type"] != "signature_delta" and any(
            delta.get(k) for k in ("text", "thinking", "partial_json")
        )
        body = {"type": "content_block_delta", "index": index, "delta": delta}
        yield _event("content_block_delta", body, content)
    yield _event("content_block_stop", {"type": "content_block_stop", "index": index})


def _blocks(step: Step) -> Iterator[Frame]:
    size = step.get("chunk_size", 8)
    index = 0
    if step.get("thinking"):
        deltas = [{"type": "thinking_delta", "thinking": p} for p in pieces(step["thinking"], size)]
        deltas.append({"type": "signature_delta", "signature": step.get("signature", "sig-1")})
        yield from _block(index, {"type": "thinking", "thinking": "", "signature": ""}, deltas)
        index += 1
    if step.get("redacted_thinking"):
        yield from _block(
            index, {"type": "redacted_thinking", "data": step["redacted_thinking"]}, []
        )
        index += 1
    if step.get("text"):
        deltas = [{"type": "text_delta", "text": p} for p in pieces(step["text"], size)]
        yield from _block(index, {"type": "text", "text": ""}, deltas)
        index += 1
    for n, call in enumerate(step.get("tool_calls", [])):
        start = {"type": "tool_use", "id": tool_call_id(call, n, "toolu_"), "name": call["name"],
                 "input": {}}  # fmt: skip
        # The real API opens every tool_use block with an empty fragment.
        frags = [""] + pieces(tool_arguments(call), size)
        deltas = [{"type": "input_json_delta", "partial_json": f} for f in frags]
        yield from _block(index, start, deltas)
        index += 1


def stream_frames(step: Step, model: str) -> Iterator[Frame]:
    """Every SSE event of one streamed answer, message_start to message_stop."""
    message = {
        "id": "msg_fake", "type": "message", "role": "assistant", "model": model, "content": [],
        "stop_reason": None, "stop_sequence": None, "usage": _start_usage(step),
    }  # fmt: skip
    yield _event("message_start", {"type": "message_start", "message": message})
    yield _event("ping", {"type": "ping"})
    yield from _blocks(step)
    delta = {"stop_reason": default_stop(step), "stop_sequence": None}
    usage = {"output_tokens": usage_of(step)["output_tokens"]}
    yield _event("message_delta", {"type": "message_delta", "delta": delta, "usage": usage})
    yield _event("message_stop", {"type": "message_stop"})


def stream_error_frame(error_type: str, message: str) -> Frame:
    """An ``error`` event sent inside an already-started stream."""
    return _event("error", {"type": "error", "error": {"type": error_type, "message": message}})


def message_json(step: Step, model: str) -> dict[str, Any]:
    """A complete (non-streamed) Message object for the step."""
    content: list[dict[str, Any]] = []
    if step.get("thinking"):
        content.append({"type": "thinking", "thinking": step["thinking"],
                        "signature": step.get("signature", "sig-1")})  # fmt: skip
    if step.get("text"):
        content.append({"type": "text", "text": step["text"]})
    for n, call in enumerate(step.get("tool_calls", [])):
        content.append({"type": "tool_use", "id": tool_call_id(call, n, "toolu_"),
                        "name": call["name"], "input": call.get("input", {})})  # fmt: skip
    usage = _start_usage(step) | {"output_tokens": usage_of(step)["output_tokens"]}
    return {"id": "msg_fake", "type": "message", "role": "assistant", "model": model,
            "content": content, "stop_reason": default_stop(step), "stop_sequence": None,
            "usage": usage}  # fmt: skip


def error_body(status: int, message: str) -> dict[str, Any]:
    kind = ERROR_TYPES.get(status, "api_error")
    return {"type": "error", "error": {"type": kind, "message": message}}


def fault_body(step: Step) -> dict[str, Any]:
    return error_body(step["status"], fault_message(step))
