"""/export [FILE] [--force]: the conversation as Markdown, written to a file
(docs/manual.md#the-full-screen-ui).

The source is the session's ``history.report``: the user's own words (without the files an
@-mention attached), the answers, and each tool call with the start of its result. The
file goes in the session's directory unless FILE says otherwise; an existing file is
replaced only with ``--force``.
"""

from __future__ import annotations

import asyncio
import errno
import json
import os
from pathlib import Path

from agent_core import events as ev
from agent_core.errors import MewCodeError
from agent_core.messages import TextBlock, ToolResultBlock, ToolUseBlock, result_text
from agent_core.protocol import ops
from mewcode_tui.commands.registry import CommandHost, SlashCommand, ask

USAGE = "[FILE] [--force]"
RESULT_LINES = 6
RESULT_CHARS = 600
INPUT_CHARS = 300


def default_name(session_id: str) -> str:
    return f"mewcode-export-{session_id}.md"


def _fenced(text: str) -> str:
    """``text`` in a fence longer than any backtick run inside it."""
    run, fence = 0, 3
    for char in text:
        run = run + 1 if char == "`" else 0
        fence = max(fence, run + 1)
    return f"{'`' * fence}\n{text}\n{'`' * fence}"


def short_result(text: str) -> str:
    lines = text.strip().splitlines()
    kept = "\n".join(lines[:RESULT_LINES])
    if len(kept) > RESULT_CHARS:
        kept = kept[: RESULT_CHARS - 1] + "…"
    more = len(lines) - RESULT_LINES
    if more > 0:
        kept += f"\n… ({more} more line{'' if more == 1 else 's'})"
    return kept


def conversation_markdown(report: ev.HistoryReport, title: str) -> str:
    """The conversation as Markdown: a section a message, tool calls with their short result."""
    results: dict[str, ToolResultBlock] = {}
    for item in report.items:
        for block in item.message.content:
            if isinstance(block, ToolResultBlock):
                results[block.tool_use_id] = block
    out = [f"# {title}", ""]
    for item in report.items:
        message = item.message
        if item.shown_as == "summary":
            out += ["## Earlier conversation (summarised)", "", message.text().strip(), ""]
            continue
        if item.shown_as == "summary_ack":
            continue
        if message.role == "user":
            words = "\n".join(item.words).strip()
            if words:
                out += ["## User", "", words, ""]
                out += [f"*Attached: `{f.path}`*" for f in item.attached]
                if item.attached:
                    out.append("")
            continue
        parts: list[str] = []
        for block in message.content:
            if isinstance(block, TextBlock) and block.text.strip():
                parts += [block.text.strip(), ""]
            elif isinstance(block, ToolUseBlock):
                parts += _tool_call(block, results.get(block.id), report.calls.get(block.id))
        if parts:
            out += ["## Assistant", "", *parts]
    return "\n".join(out).rstrip() + "\n"


def _tool_call(
    block: ToolUseBlock, result: ToolResultBlock | None, view: ev.CallViewRecord | None
) -> list[str]:
    summary = view.summary if view is not None and view.summary else ""
    if not summary:
        summary = json.dumps(block.input, ensure_ascii=False, sort_keys=True)
        if len(summary) > INPUT_CHARS:
            summary = summary[: INPUT_CHARS - 1] + "…"
    flat = " ".join(summary.split()).replace("`", "'")
    head = f"**{block.name}** `{flat}`"
    status = view.status if view is not None else ("error" if result and result.is_error else "")
    if status and status != "ok":
        head += f" — {status}"
    if result is None:
        return [head, "", "*(no result)*", ""]
    text = short_result(result_text(result))
    return [head, "", _fenced(text) if text else "*(empty result)*", ""]


def target_file(cwd: str, session_id: str, words: list[str]) -> tuple[Path, bool]:
    """The file to write and whether ``--force`` was given; MewCodeError for bad arguments."""
    force = "--force" in words
    names = [w for w in words if w != "--force"]
    if len(names) > 1:
        raise MewCodeError(f"usage: /export {USAGE}")
    name = names[0] if names else default_name(session_id)
    return Path(cwd) / Path(name).expanduser(), force


def write_export(path: Path, text: str, force: bool) -> None:
    """Write ``text`` to ``path``; MewCodeError naming the file when it cannot.

    MewCode writes it itself, outside the sandbox, often in the project a command could
    write: the name is opened without following a symbolic link (one planted there,
    even dangling, is refused), and only created anew unless ``--force``.
    """
    if path.is_symlink():
        raise MewCodeError(f"{path} is a symbolic link: name another file")
    if path.is_dir():
        raise MewCodeError(f"{path} is a folder: name a file")
    flags = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC
    flags |= os.O_TRUNC if force else os.O_EXCL
    try:
        fd = os.open(path, flags, 0o644)
    except FileExistsError:
        raise MewCodeError(f"{path} exists: /export {path.name} --force replaces it") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # swapped for a link after the check above
            raise MewCodeError(f"{path} is a symbolic link: name another file") from None
        raise MewCodeError(f"{path}: {exc.strerror}") from None
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)


async def export(host: CommandHost, args: str) -> None:
    session = host.session
    if session is None:
        host.say("Still starting: nothing to export yet.", "warning")
        return
    now = session.snapshot()
    try:
        path, force = target_file(now.cwd, now.session_id, args.split())
    except MewCodeError as exc:
        host.say(str(exc)[:1].upper() + str(exc)[1:], "warning")
        return
    report = await ask(session, ops.QueryHistory(), ev.HistoryReport)
    if not report.items:
        host.say("Nothing to export yet: the conversation is empty.", "warning")
        return
    text = conversation_markdown(report, f"MewCode session {now.session_id} ({now.model})")
    try:
        await asyncio.to_thread(write_export, path, text, force)
    except MewCodeError as exc:
        host.say(f"Not exported: {exc}.", "warning")
        return
    host.say(f"Exported {len(report.items)} messages to {path}.")


COMMANDS = [
    SlashCommand("export", "local", "Write the conversation to a Markdown file", export, USAGE),
]
