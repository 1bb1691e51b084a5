"""The offline demo provider: a scripted tour that drives real tools, no key needed.

It inspects the project it runs in to choose what to show: it lists and
searches the tree, reads a file, proposes a small new file (which needs the
user's approval in the default mode) and ends with a Markdown summary. It
proposes the file only in a scratch copy made by demo_workspace.py (what
`mewcode --demo` and the first-run screen start in); anywhere else it only
reads. Every answer says clearly that it is a demo.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

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
from agent_core.llm.demo_workspace import is_demo_workspace
from agent_core.llm.pricing import OFFLINE_PROVIDER
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

    name = OFFLINE_PROVIDER

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

    def _script(
        self, rounds: int, prompt: str, tools: set[str]
    ) -> tuple[str, str, list[tuple[str, dict[str, Any]]]]:
        target = _pick_file(self.cwd)
        scratch = is_demo_workspace(self.cwd)
        if rounds == 0:
            where = (
                f"on a scratch copy of your project's top-level files in `{self.cwd}`, "
                "deleted when you quit — your project itself is not touched"
                if scratch
                else "on this project, read-only: outside `mewcode --demo` I change nothing here"
            )
            text = (
                "**This is the offline demo** — no model is called and nothing leaves your machine. "
                f"You asked: *{prompt.strip()[:120] or '(nothing)'}*. I can't really answer that, "
                f"but I can show you how MewCode works, using real tools {where}.\n\n"
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
                    f"Now I'll read `{target}`. To see any tool call's input and output, press "
                    "Tab in the prompt to reach the tool lines, ↑/↓ to pick one and → to open it.",
                    "",
                    [("Read", {"file_path": target, "limit": 40})],
                )
            return ("The project looks empty, so there is nothing to read.", "", [])
        edits = scratch and "Write" in tools
        if rounds == 2 and edits:
            content = (
                "# MewCode demo\n\n"
                "The offline demo wrote this file in a scratch copy of your project to show an\n"
                "edit and its diff. The copy is deleted when you quit MewCode.\n"
            )
            return (
                f"Next, an edit: I'll create `{DEMO_FILE}` in the scratch copy. In the default mode "
                "this **asks for your approval** first — the dialog shows the diff and the rule "
                "*always* would save. Afterwards, `d` on its tool line opens the full diff.",
                "",
                [("Write", {"file_path": DEMO_FILE, "content": content})],
            )
        edit_row = "| a permission prompt with a diff | the `Write` call |\n" if edits else ""
        return (
            "## That was the tour\n\n"
            "| What you saw | Where |\n|---|---|\n"
            "| streamed Markdown and dimmed *thinking* | the chat pane |\n"
            "| parallel read-only tools | `LS` + `Grep` |\n"
            f"{edit_row}\n"
            "`/help` lists the commands and keys; `/status` shows this session.\n\n"
            "To use a real model, set `ANTHROPIC_API_KEY` or `OPENAI_API_KEY` (or an "
            "OpenAI-compatible `OPENAI_BASE_URL`) and start `mewcode` again.\n\n"
            "```bash\nexport ANTHROPIC_API_KEY=sk-ant-...\nmewcode\n```\n",
            "",
            [],
        )


def _chunks(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]
