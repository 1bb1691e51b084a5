"""The offline demo provider: a scripted tour that drives real tools, no key needed.

It inspects the current project itself to choose what to show: it lists and
searches the tree, reads a file, proposes a small new file (which needs the
user's approval in the default mode) and ends with a Markdown summary. Every
answer says clearly that it is a demo.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from pathlib import Path

from agent_core.llm.base import (
    ChatRequest,
    Stop,
    StreamEvent,
    TextDelta,
    ThinkingComplete,
    ThinkingDelta,
    ToolCallComplete,
    UsageReport,
)
from agent_core.messages import Message, TextBlock, ToolResultBlock
from agent_core.usage import Usage

DEMO_FILE = "MEWCODE_DEMO.md"
_ids = itertools.count(1)
_SKIP = {".git", ".venv", "node_modules", "__pycache__", ".mewcode"}


def _rounds_since_user_prompt(messages: list[Message]) -> tuple[int, str]:
    """How many assistant answers followed the latest typed prompt, and that prompt."""
    rounds = 0
    for message in reversed(messages):
        if message.role == "assistant":
            rounds += 1
            continue
        texts = [b.text for b in message.content if isinstance(b, TextBlock)]
        is_results = any(isinstance(b, ToolResultBlock) for b in message.content)
        if texts and not is_results:
            return rounds, texts[0]
    return rounds, ""


def _pick_file(cwd: Path) -> str | None:
    for name in ("README.md", "README.rst", "README.txt", "pyproject.toml", "package.json"):
        if (cwd / name).is_file():
            return name
    for path in sorted(cwd.rglob("*")):
        if path.is_file() and not (_SKIP & set(path.relative_to(cwd).parts)):
            if path.stat().st_size < 200_000:
                return str(path.relative_to(cwd))
    return None


class DemoProvider:
    """Scripted, offline; streams like a real model so every UI feature shows."""

    name = "demo"

    def __init__(self, cwd: Path, *, model: str = "demo", chunk_delay: float = 0.012) -> None:
        self.cwd = Path(cwd)
        self.model = model
        self.chunk_delay = chunk_delay

    async def stream(self, request: ChatRequest) -> AsyncIterator[StreamEvent]:
        rounds, prompt = _rounds_since_user_prompt(request.messages)
        tools = {t.name for t in request.tools}
        text, thinking, calls = self._script(rounds, prompt, tools)
        if thinking:
            for chunk in _chunks(thinking, 24):
                await self._pause()
                yield ThinkingDelta(chunk)
            yield ThinkingComplete(thinking, signature="demo")
        for chunk in _chunks(text, 12):
            await self._pause()
            yield TextDelta(chunk)
        for name, args in calls:
            yield ToolCallComplete(f"demo_{next(_ids)}", name, args)
        out = max(1, len(text) // 4)
        yield UsageReport(
            Usage(
                input_tokens=sum(len(m.text()) for m in request.messages) // 4 + 900,
                output_tokens=out,
            )
        )
        yield Stop("tool_use" if calls else "end_turn")

    async def _pause(self) -> None:
        if self.chunk_delay:
            await asyncio.sleep(self.chunk_delay)

    def _script(self, rounds: int, prompt: str, tools: set[str]):
        target = _pick_file(self.cwd)
        if rounds == 0:
            text = (
                "**This is the offline demo** — no model is called and nothing leaves your machine. "
                f"You asked: *{prompt.strip()[:120] or '(nothing)'}*. I can't really answer that, "
                "but I can show you how MewCode works, using real tools on this project.\n\n"
                "First, a look around: I'll list the project and search it — two read-only calls "
                "that run **concurrently**."
            )
            thinking = "The demo starts by exploring the project with read-only tools, in parallel."
            return (
                text,
                thinking,
                [
                    ("LS", {"path": "."}),
                    ("Grep", {"pattern": "TODO|FIXME", "output_mode": "count"}),
                ],
            )
        if rounds == 1:
            if target:
                return (
                    f"Now I'll read `{target}`. Open any tool line (↑/↓, →) to see its input "
                    "and output.",
                    "",
                    [("Read", {"file_path": target, "limit": 40})],
                )
            return ("The project looks empty, so there is nothing to read.", "", [])
        if rounds == 2 and ("Write" in tools):
            content = (
                "# MewCode demo\n\n"
                "This file was written by the offline demo to show an edit and its diff.\n"
                "Delete it whenever you like, or roll the turn back.\n"
            )
            return (
                f"Next, an edit: I'll create `{DEMO_FILE}`. In the default mode this **asks for "
                "your approval** first — the dialog shows the diff and the rule *always* would save.",
                "",
                [("Write", {"file_path": DEMO_FILE, "content": content})],
            )
        return (
            "## That was the tour\n\n"
            "| What you saw | Where |\n|---|---|\n"
            "| streamed Markdown and dimmed *thinking* | the chat pane |\n"
            "| parallel read-only tools | `LS` + `Grep` |\n"
            "| a permission prompt with a diff | the `Write` call |\n\n"
            "To use a real model, set `ANTHROPIC_API_KEY` or `OPENAI_API_KEY` (or an "
            "OpenAI-compatible `OPENAI_BASE_URL`) and start `mewcode` again.\n\n"
            "```bash\nexport ANTHROPIC_API_KEY=sk-ant-...\nmewcode\n```\n",
            "",
            [],
        )


def _chunks(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]
