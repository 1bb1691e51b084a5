"""/memory: the memory files loaded each session, then the long-term facts (docs/configuration.md#long-term-memory).

``/memory`` lists, ``/memory search TEXT`` ranks, ``/memory add [--global] TEXT``
stores what the user wrote, ``/memory delete ID`` (or ``rm``) removes a fact.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from agent_core.memory.files import MemoryReach, collect_memory, session_reach
from agent_core.memory.long_term import GLOBAL, LongTermMemory, MemoryScope
from agent_core.memory.recall import Fact
from agent_core.memory.store import MemoryUnavailable
from mewcode_tui.commands.registry import CommandHost, SlashCommand
from mewcode_tui.widgets.status_bar import short_path

USAGE = "Usage: /memory [search TEXT | add [--global] TEXT | delete ID]"
USER_IMPORTANCE = 0.7  # written by the user: kept over facts the model stored for them


def remaining(seconds: float) -> str:
    """'2d', '5h', '12m', '40s': the largest whole unit left."""
    for size, unit in ((86_400, "d"), (3_600, "h"), (60, "m")):
        if seconds >= size:
            return f"{int(seconds // size)}{unit}"
    return f"{int(seconds)}s"


def fact_line(fact: Fact, now: float) -> str:
    """'#3 [global] I prefer tabs (expires in 2d)'."""
    scope = "global" if fact.scope == GLOBAL else "project"
    expiry = ""
    if fact.expires_at is not None:
        expiry = f" (expires in {remaining(max(fact.expires_at - now, 0))})"
    return f"#{fact.id} [{scope}] {fact.content}{expiry}"


def _facts_text(facts: Sequence[Fact], now: float) -> list[str]:
    return [f"  {fact_line(f, now)}" for f in facts]


def memory_reach(host: CommandHost) -> MemoryReach:
    """The session's reach; before it has started, the project root's with the default
    hidden paths."""
    runtime = host.runtime
    if runtime is not None:
        return session_reach(
            host.paths, runtime.cwd, host.settings.additional_directories,
            runtime.sandbox_policy.hidden,
        )  # fmt: skip
    return session_reach(host.paths, host.paths.project, host.settings.additional_directories, ())


def _listing(host: CommandHost, memory: LongTermMemory) -> str:
    lines = ["File memory (loaded every session):"]
    loaded = collect_memory(memory_reach(host))
    lines += [
        f"  {short_path(f.path)}"
        + (f" (imported by {short_path(f.imported_by)})" if f.imported_by else "")
        for f in loaded.files
    ] or ["  none (MEWCODE.md, AGENTS.md, CLAUDE.md, CLAUDE.local.md)"]
    lines += [f"  skipped: {notice}" for notice in loaded.notices]
    facts = memory.listing()
    where = short_path(memory.store.path)
    lines.append(f"Long-term memory ({where}): {len(facts)} for this project and global")
    lines += _facts_text(facts, memory.clock()) or ["  none yet: /memory add TEXT"]
    return "\n".join(lines)


def _add(host: CommandHost, memory: LongTermMemory, args: str) -> None:
    words = args.split(maxsplit=1)
    scope: MemoryScope = "global" if words[:1] == ["--global"] else "project"
    text = (words[1] if len(words) > 1 else "") if scope == "global" else args
    try:
        added = memory.remember(text, scope, importance=USER_IMPORTANCE)
    except ValueError as exc:
        host.say(f"/memory add: {exc}. {USAGE}", "warning")
        return
    kept_out = " A secret in it was stored as [REDACTED]." if added.redacted else ""
    if added.new:
        host.say(f"Remembered #{added.id} ({scope}).{kept_out}")
    else:
        host.say(f"Already remembered as #{added.id}.{kept_out}")


def _delete(host: CommandHost, memory: LongTermMemory, args: str) -> None:
    if not args.isdigit():
        host.say(
            f"/memory delete: expected a fact id such as 3, got {args or 'nothing'!r}.", "warning"
        )
        return
    if memory.delete(int(args)):
        host.say(f"Deleted #{args}.")
    else:
        host.say(f"No fact #{args} in this project's or the global memory.", "warning")


def memory(host: CommandHost, args: str) -> None:
    head, _, rest = args.partition(" ")
    rest = rest.strip()
    store = LongTermMemory(host.paths, time.time)
    try:
        match head:
            case "":
                host.say(_listing(host, store))
            case "search" if rest:
                found = store.search(rest)
                lines = _facts_text(found, store.clock()) or ["  nothing matches"]
                host.say("\n".join([f"Memory matching {rest!r}:", *lines]))
            case "add" if rest:
                _add(host, store, rest)
            case "delete" | "rm":
                _delete(host, store, rest)
            case _:
                host.say(USAGE, "warning")
    except MemoryUnavailable as exc:
        host.say(str(exc), "warning")
    finally:
        store.close()


COMMANDS = [
    SlashCommand(
        "memory",
        "local",
        "List memory files and remembered facts; search, add or delete a fact",
        memory,
        usage="/memory [search TEXT | add [--global] TEXT | delete ID]",
    ),
]
