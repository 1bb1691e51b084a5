"""What an MCP server answered, as the ToolOutput the model sees.

Pure functions over the SDK's result objects (read by attribute, so this
module never imports ``mcp``). Text-only answers become one string, which the
executor's result shaper can spill to a file when it is large; an answer with
an image becomes a list of blocks.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Iterable
from typing import Any

from agent_core.messages import ImageBlock, TextBlock
from agent_core.tools.base import ToolOutput

NO_OUTPUT = "(no output)"


def call_output(result: Any) -> ToolOutput:
    """A CallToolResult: its content blocks, its structured content, its error flag."""
    blocks = [block_out for block in result.content for block_out in content_blocks(block)]
    structured = getattr(result, "structured_content", None)
    if structured is not None:
        encoded = json.dumps(structured, ensure_ascii=False, indent=2)
        if not _carries(blocks, structured, encoded):
            blocks.append(TextBlock(encoded))
    return _output(blocks, is_error=bool(getattr(result, "is_error", False)))


def resource_output(result: Any) -> ToolOutput:
    """A ReadResourceResult: each content's text (with its uri) or a note for binary data."""
    blocks = [block for contents in result.contents for block in resource_contents(contents)]
    return _output(blocks, is_error=False)


def resource_list_output(resources: Iterable[Any]) -> ToolOutput:
    """The resources a server lists, one line each: uri, name, what it is."""
    lines = []
    for resource in resources:
        line = f"{resource.uri} ({resource.name})"
        mime = getattr(resource, "mime_type", None)
        if mime:
            line += f" [{mime}]"
        description = (getattr(resource, "description", None) or "").strip()
        if description:
            line += f": {_one_line(description)}"
        lines.append(line)
    return ToolOutput("\n".join(lines) if lines else "(no resources)")


def prompt_output(result: Any) -> ToolOutput:
    """A GetPromptResult: its description, then each message as ``role: text``."""
    lines = []
    description = (getattr(result, "description", None) or "").strip()
    if description:
        lines.append(description)
    for message in result.messages:
        texts = [b.text for b in content_blocks(message.content) if isinstance(b, TextBlock)]
        lines.append(f"{message.role}: {' '.join(texts)}")
    return ToolOutput("\n".join(lines) if lines else NO_OUTPUT)


def content_blocks(block: Any) -> list[TextBlock | ImageBlock]:
    """One MCP content block as our blocks."""
    kind = getattr(block, "type", "")
    if kind == "text":
        return [TextBlock(block.text)]
    if kind == "image":
        return [_image(block.data, block.mime_type)]
    if kind == "audio":
        return [
            TextBlock(f"[audio {block.mime_type}, {_decoded_size(block.data)} bytes, not shown]")
        ]
    if kind == "resource_link":
        return [TextBlock(f"[resource link] {block.uri} ({block.name})")]
    if kind == "resource":
        return resource_contents(block.resource)
    return [TextBlock(f"[unsupported {kind or type(block).__name__} content]")]


def resource_contents(contents: Any) -> list[TextBlock | ImageBlock]:
    """Text resource contents with their uri, or a note naming a blob's type and size."""
    text = getattr(contents, "text", None)
    if isinstance(text, str):
        return [TextBlock(f"[{contents.uri}]\n{text}")]
    mime = getattr(contents, "mime_type", None) or "application/octet-stream"
    size = _decoded_size(getattr(contents, "blob", ""))
    return [TextBlock(f"[{contents.uri}: binary {mime}, {size} bytes, not shown]")]


def _image(data: str, mime: str) -> TextBlock | ImageBlock:
    """An image the provider accepts (type from its bytes, scaled to fit), else a note:
    an oversized or unsupported image in the history would fail every later request."""
    from agent_core.tools.imagefit import ImageError, fit_image, sniff_image

    try:
        raw = base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        return TextBlock(f"[image {mime}: not valid base64, not shown]")
    media_type = sniff_image(raw[:16])
    if media_type is None:
        return TextBlock(
            f"[image {mime}, {len(raw)} bytes: not a PNG, JPEG, GIF or WebP, not shown]"
        )
    try:
        fitted = fit_image(raw, media_type)
    except ImageError as exc:
        return TextBlock(f"[image {mime}, {len(raw)} bytes, not shown: {exc}]")
    return ImageBlock(media_type=fitted.media_type, data=fitted.data, note=fitted.note)


def _carries(blocks: list[TextBlock | ImageBlock], structured: Any, encoded: str) -> bool:
    """Whether a text block already holds the structured content (servers often send both;
    SDK servers wrap a plain return value as ``{"result": value}``)."""
    wrapped = list(structured.values()) if isinstance(structured, dict) else []
    for block in blocks:
        if not isinstance(block, TextBlock):
            continue
        if block.text.strip() == encoded.strip() or wrapped == [block.text]:
            return True
        try:
            if json.loads(block.text) == structured:
                return True
        except ValueError:
            continue
    return False


def _output(blocks: list[TextBlock | ImageBlock], *, is_error: bool) -> ToolOutput:
    if not blocks:
        return ToolOutput(NO_OUTPUT, is_error=is_error)
    if all(isinstance(b, TextBlock) for b in blocks):
        return ToolOutput("\n".join(b.text for b in blocks if isinstance(b, TextBlock)), is_error)
    return ToolOutput(blocks, is_error=is_error)


def _decoded_size(data: str) -> int:
    try:
        return len(base64.b64decode(data, validate=False))
    except (binascii.Error, ValueError):
        return len(data) * 3 // 4


def _one_line(text: str) -> str:
    return " ".join(text.split())
