"""Parse a tool call's assembled argument string once all fragments have arrived."""

from __future__ import annotations

import json
from typing import Any


def parse_tool_input(raw: str) -> tuple[dict[str, Any], str | None]:
    """(input, None) for a JSON object; ({}, reason) when the model wrote something else."""
    if not raw.strip():
        return {}, None
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as exc:
        return {}, f"invalid JSON in tool arguments: {exc.msg} at position {exc.pos}"
    if not isinstance(value, dict):
        return {}, f"tool arguments must be a JSON object, got {type(value).__name__}"
    return value, None
