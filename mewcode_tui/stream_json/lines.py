"""One stdin line of the stream-json input, read into what it asks (pure).

An app sends three kinds of line: a user message, a ``control_request`` (it asks us
something) and a ``control_response`` (it answers what we asked). Anything else is a
``BadLine`` whose reason names the problem; the caller says it and goes on.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

from agent_core.messages import ImageBlock


class UserText(msgspec.Struct, frozen=True):
    """A user message: its text (text blocks joined) and its base64 images, as sent."""

    text: str
    images: list[ImageBlock] = []


class ControlRequest(msgspec.Struct, frozen=True):
    """The app asks: ``subtype`` and the request's other fields."""

    request_id: str
    subtype: str
    body: dict[str, Any]


class ControlResponse(msgspec.Struct, frozen=True):
    """The app answers one of our requests: its body, or the error it gave."""

    request_id: str
    body: dict[str, Any]
    error: str | None = None


class BadLine(msgspec.Struct, frozen=True):
    reason: str
    request_id: str = ""  # a control request we can still answer with an error


Inbound = UserText | ControlRequest | ControlResponse | BadLine


def read_line(raw: str) -> Inbound | None:
    """What ``raw`` asks; None for a blank line."""
    if not raw.strip():
        return None
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        return BadLine(f"not JSON ({exc.msg} at column {exc.colno})")
    if not isinstance(data, dict):
        return BadLine(f"expected a JSON object, got {type(data).__name__}")
    kind = data.get("type")
    if kind == "user":
        return _user(data)
    if kind == "control_request":
        return _control_request(data)
    if kind == "control_response":
        return _control_response(data)
    if kind is None:
        return BadLine('no "type" field (user, control_request or control_response)')
    return BadLine(f"unknown type {kind!r} (user, control_request or control_response)")


def _user(data: dict[str, Any]) -> Inbound:
    message = data.get("message")
    if not isinstance(message, dict):
        return BadLine('a user line needs a "message" object')
    content = message.get("content")
    if isinstance(content, str):
        return UserText(content)
    if not isinstance(content, list):
        return BadLine("message.content must be a string or a list of blocks")
    texts: list[str] = []
    images: list[ImageBlock] = []
    for index, block in enumerate(content):
        kind = block.get("type") if isinstance(block, dict) else None
        if kind == "text" and isinstance(block.get("text"), str):
            texts.append(block["text"])
        elif kind == "image":
            image = _image(block.get("source"))
            if isinstance(image, str):
                return BadLine(f"message.content[{index}].source: {image}")
            images.append(image)
        else:
            return BadLine(f"message.content[{index}]: expected a text or image block")
    return UserText("\n\n".join(texts), images)


def _image(source: Any) -> ImageBlock | str:
    """An image block's ``source`` as an ImageBlock, or what is wrong with it.

    Only the shape is read here; the session checks the media type, size and bytes.
    """
    if not isinstance(source, dict) or source.get("type") != "base64":
        return 'only {"type": "base64", "media_type": ..., "data": ...} images are supported'
    media_type, data = source.get("media_type"), source.get("data")
    if not isinstance(media_type, str) or not isinstance(data, str):
        return "media_type and data must be strings"
    return ImageBlock(media_type, data)


def _control_request(data: dict[str, Any]) -> Inbound:
    request_id = data.get("request_id")
    if not isinstance(request_id, str) or not request_id:
        return BadLine('a control_request needs a "request_id" string')
    request = data.get("request")
    subtype = request.get("subtype") if isinstance(request, dict) else None
    if not isinstance(request, dict) or not isinstance(subtype, str):
        return BadLine('a control_request needs a "request" object with a subtype', request_id)
    return ControlRequest(request_id, subtype, request)


def _control_response(data: dict[str, Any]) -> Inbound:
    response = data.get("response")
    request_id = response.get("request_id") if isinstance(response, dict) else None
    if not isinstance(response, dict) or not isinstance(request_id, str):
        return BadLine('a control_response needs a "response" object with a request_id')
    if response.get("subtype") == "error":
        return ControlResponse(request_id, {}, str(response.get("error") or "unknown error"))
    body = response.get("response")
    return ControlResponse(request_id, body if isinstance(body, dict) else {})
