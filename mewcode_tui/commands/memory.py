"""/memory: the memory files loaded each session, then the long-term facts (docs/configuration.md#long-term-memory).

``/memory`` lists, ``/memory search TEXT`` ranks, ``/memory add [--global] TEXT``
stores what the user wrote, ``/memory delete ID`` (or ``rm``) removes a fact. The
session answers each (``QueryMemory``, ``RememberFact``, ``ForgetFact``): its memory
is the one the Remember tool writes.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from agent_core import events as ev
from agent_core.errors import MewCodeError
from agent_core.protocol import ops
from mewcode_tui.commands.registry import CommandHost, SlashCommand, ask
from mewcode_tui.widgets.status_bar import short_path

USAGE = "Usage: /memory [search TEXT | add [--global] TEXT | delete ID]"


def remaining(seconds: float) -> str:
    """'2d', '5h', '12m', '40s': the largest whole unit left."""
    for size, unit in ((86_400, "d"), (3_600, "h"), (60, "m")):
        if seconds >= size:
            return f"{int(seconds // size)}{unit}"
    return f"{int(seconds)}s"


def fact_line(fact: ev.FactInfo, now: float) -> str:
    """'#3 [global] I prefer tabs (expires in 2d)'."""
    expiry = ""
    if fact.expires_at is not None:
        expiry = f" (expires in {remaining(max(fact.expires_at - now, 0))})"
    return f"#{fact.id} [{fact.scope}] {fact.content}{expiry}"


def _facts_text(facts: Sequence[ev.FactInfo], now: float) -> list[str]:
    return [f"  {fact_line(f, now)}" for f in facts]


def listing(report: ev.MemoryReport, now: float) -> str:
    """The files that load every session (and the imports skipped), then the facts."""
    lines = ["File memory (loaded every session):"]
    lines += [
        f"  {short_path(Path(f.path))}"
        + (f" (imported by {short_path(Path(f.imported_by))})" if f.imported_by else "")
        for f in report.files
    ] or ["  none (MEWCODE.md, AGENTS.md, CLAUDE.md, CLAUDE.local.md)"]
    lines += [f"  skipped: {notice}" for notice in report.skipped]
    where = short_path(Path(report.store))
    lines.append(f"Long-term memory ({where}): {len(report.facts)} for this project and global")
    lines += _facts_text(report.facts, now) or ["  none yet: /memory add TEXT"]
    return "\n".join(lines)


async def _show(host: CommandHost, search: str) -> None:
    assert host.session is not None
    report = await ask(host.session, ops.QueryMemory(search=search), ev.MemoryReport)
    now = time.time()
    if search:
        lines = _facts_text(report.facts, now) or ["  nothing matches"]
        host.say("\n".join([f"Memory matching {search!r}:", *lines]))
    else:
        host.say(listing(report, now))
    for problem in report.problems:
        host.say(problem, "warning")


async def _add(host: CommandHost, args: str) -> None:
    assert host.session is not None
    words = args.split(maxsplit=1)
    scope: Literal["project", "global"] = "global" if words[:1] == ["--global"] else "project"
    text = (words[1] if len(words) > 1 else "") if scope == "global" else args
    if not text.strip():
        host.say(f"/memory add: the fact is empty. {USAGE}", "warning")
        return
    try:
        added = await ask(host.session, ops.RememberFact(text=text, scope=scope), ev.FactRemembered)
    except MewCodeError as exc:
        host.say(str(exc), "warning")
        return
    kept_out = " A secret in it was stored as [REDACTED]." if added.redacted else ""
    if added.new:
        host.say(f"Remembered #{added.fact_id} ({scope}).{kept_out}")
    else:
        host.say(f"Already remembered as #{added.fact_id}.{kept_out}")


async def _delete(host: CommandHost, args: str) -> None:
    assert host.session is not None
    if not args.isdigit():
        host.say(
            f"/memory delete: expected a fact id such as 3, got {args or 'nothing'!r}.", "warning"
        )
        return
    try:
        done = await ask(host.session, ops.ForgetFact(fact_id=int(args)), ev.FactForgotten)
    except MewCodeError as exc:
        host.say(str(exc), "warning")
        return
    if done.deleted:
        host.say(f"Deleted #{args}.")
    else:
        host.say(f"No fact #{args} in this project's or the global memory.", "warning")


async def memory(host: CommandHost, args: str) -> None:
    if host.session is None:
        host.say("Still starting: memory is read once the session is open.", "warning")
        return
    head, _, rest = args.partition(" ")
    rest = rest.strip()
    match head:
        case "":
            await _show(host, "")
        case "search" if rest:
            await _show(host, rest)
        case "add" if rest:
            await _add(host, rest)
        case "delete" | "rm":
            await _delete(host, rest)
        case _:
            host.say(USAGE, "warning")


COMMANDS = [
    SlashCommand(
        "memory",
        "local",
        "List memory files and remembered facts; search, add or delete a fact",
        memory,
        usage="/memory [search TEXT | add [--global] TEXT | delete ID]",
    ),
]
