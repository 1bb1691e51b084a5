"""MCP results (the SDK's own types) as the ToolOutput the model sees."""

from __future__ import annotations

from typing import Any

import pytest
from mcp_types import (
    AudioContent,
    BlobResourceContents,
    CallToolResult,
    EmbeddedResource,
    GetPromptResult,
    ImageContent,
    PromptMessage,
    ReadResourceResult,
    Resource,
    ResourceLink,
    TextContent,
    TextResourceContents,
)

from agent_core.mcp import results
from agent_core.messages import ImageBlock, TextBlock
from agent_core.tools.base import ToolOutput

PNG = "iVBORw0KGgo="
PNG_1X1 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP439AAAASBAgCFVE/wAAAAAElFTkSuQmCC"  # opaque: sent as is
CALLS: list[tuple[str, CallToolResult, ToolOutput]] = [
    ("text", CallToolResult(content=[TextContent(text="hi")]), ToolOutput("hi")),
    (
        "two texts join into one string (spillable)",
        CallToolResult(content=[TextContent(text="a"), TextContent(text="b")]),
        ToolOutput("a\nb"),
    ),
    (
        "image keeps its blocks",
        CallToolResult(
            content=[TextContent(text="see"), ImageContent(data=PNG_1X1, mime_type="image/png")]
        ),
        ToolOutput([TextBlock("see"), ImageBlock(media_type="image/png", data=PNG_1X1)]),
    ),
    (
        "an image the provider would reject is a note",
        CallToolResult(content=[ImageContent(data="PHN2Zy8+", mime_type="image/svg+xml")]),
        ToolOutput("[image image/svg+xml, 6 bytes: not a PNG, JPEG, GIF or WebP, not shown]"),
    ),
    (
        "audio is a note",
        CallToolResult(content=[AudioContent(data="AAAA", mime_type="audio/wav")]),
        ToolOutput("[audio audio/wav, 3 bytes, not shown]"),
    ),
    (
        "resource link",
        CallToolResult(content=[ResourceLink(uri="file:///a.txt", name="a")]),
        ToolOutput("[resource link] file:///a.txt (a)"),
    ),
    (
        "embedded text resource",
        CallToolResult(
            content=[EmbeddedResource(resource=TextResourceContents(uri="x://1", text="body"))]
        ),
        ToolOutput("[x://1]\nbody"),
    ),
    (
        "embedded blob resource",
        CallToolResult(
            content=[
                EmbeddedResource(
                    resource=BlobResourceContents(uri="x://2", blob="AAAA", mime_type="a/b")
                )
            ]
        ),
        ToolOutput("[x://2: binary a/b, 3 bytes, not shown]"),
    ),
    (
        "structured content alone becomes JSON text",
        CallToolResult(content=[], structured_content={"n": 1}),
        ToolOutput('{\n  "n": 1\n}'),
    ),
    (
        "structured content already carried as text is not repeated",
        CallToolResult(content=[TextContent(text='{"n": 1}')], structured_content={"n": 1}),
        ToolOutput('{"n": 1}'),
    ),
    (
        "a wrapped plain result is not repeated",
        CallToolResult(content=[TextContent(text="ok")], structured_content={"result": "ok"}),
        ToolOutput("ok"),
    ),
    (
        "structured content that differs from the text is added",
        CallToolResult(content=[TextContent(text="done")], structured_content={"n": 2}),
        ToolOutput('done\n{\n  "n": 2\n}'),
    ),
    (
        "isError",
        CallToolResult(content=[TextContent(text="bad")], is_error=True),
        ToolOutput("bad", is_error=True),
    ),
    ("empty", CallToolResult(content=[]), ToolOutput("(no output)")),
]


@pytest.mark.parametrize(("case", "result", "expected"), CALLS, ids=[c[0] for c in CALLS])
def test_call_results(case: str, result: CallToolResult, expected: ToolOutput) -> None:
    assert results.call_output(result) == expected


READS: list[tuple[Any, ToolOutput]] = [
    (
        ReadResourceResult(contents=[TextResourceContents(uri="note://a", text="hello")]),
        ToolOutput("[note://a]\nhello"),
    ),
    (
        ReadResourceResult(
            contents=[BlobResourceContents(uri="img://b", blob=PNG, mime_type="image/png")]
        ),
        ToolOutput("[img://b: binary image/png, 8 bytes, not shown]"),
    ),
    (ReadResourceResult(contents=[]), ToolOutput("(no output)")),
]


@pytest.mark.parametrize(("result", "expected"), READS)
def test_resource_reads(result: Any, expected: ToolOutput) -> None:
    assert results.resource_output(result) == expected


def test_prompt_is_its_description_then_role_lines() -> None:
    result = GetPromptResult(
        description="Greet someone.",
        messages=[
            PromptMessage(role="user", content=TextContent(text="Greet Bo.")),
            PromptMessage(role="assistant", content=TextContent(text="Hello Bo!")),
        ],
    )
    assert results.prompt_output(result) == ToolOutput(
        "Greet someone.\nuser: Greet Bo.\nassistant: Hello Bo!"
    )


def test_resource_list_is_one_line_each() -> None:
    listed = [
        Resource(uri="note://a", name="a", mime_type="text/plain", description="The\n A note"),
        Resource(uri="note://b", name="b"),
    ]
    assert results.resource_list_output(listed) == ToolOutput(
        "note://a (a) [text/plain]: The A note\nnote://b (b)"
    )
    assert results.resource_list_output([]) == ToolOutput("(no resources)")
