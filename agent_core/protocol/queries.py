"""The answers to the query ops: read-only pictures of the session's parts, as events.

Each takes the runtime and the op and returns the result event; none changes
state, so a front end never builds memory stores, skill loaders or hook
configurations of its own to show them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agent_core import events as ev
from agent_core.memory.files import collect_memory
from agent_core.memory.long_term import GLOBAL
from agent_core.memory.recall import Fact
from agent_core.memory.store import MemoryUnavailable
from agent_core.protocol import ops
from agent_core.session.listing import list_sessions

if TYPE_CHECKING:
    from agent_core.protocol.hosted import HostedRuntime


def session_list(runtime: HostedRuntime, op: ops.ListSessions) -> ev.SessionList:
    """This project's saved sessions, most recently modified first."""
    return ev.SessionList(
        op_id=op.id,
        sessions=[
            ev.SessionSummary(s.session_id, s.first_prompt, s.modified, s.message_count)
            for s in list_sessions(runtime.paths)
        ],
    )


def _fact(fact: Fact) -> ev.FactInfo:
    if fact.scope == GLOBAL:
        return ev.FactInfo(fact.id, "global", fact.content, fact.expires_at)
    return ev.FactInfo(fact.id, "project", fact.content, fact.expires_at)


def memory_report(runtime: HostedRuntime, op: ops.QueryMemory) -> ev.MemoryReport:
    """The memory files that load this session and the facts (matching ``op.search``)."""
    loaded = collect_memory(runtime.memory_reach())
    problems = list(loaded.notices)
    memory = runtime.memory
    facts: list[Fact] = []
    try:
        facts = memory.search(op.search) if op.search else memory.listing()
    except MemoryUnavailable as exc:
        problems.append(str(exc))
    if memory.problem:
        problems.append(memory.problem)
    files = [
        ev.MemoryFileInfo(str(f.path), f.label, str(f.imported_by or "")) for f in loaded.files
    ]
    return ev.MemoryReport(
        op_id=op.id,
        files=files,
        facts=[_fact(f) for f in facts],
        search=op.search,
        problems=problems,
    )


def skill_list(runtime: HostedRuntime, op: ops.QuerySkills) -> ev.SkillList:
    """The skills in force now, read from disk, with a line for each skipped one."""
    found = runtime.skills.load()
    skills = [
        ev.SkillInfo(s.name, s.description, str(s.path), str(s.layer))
        for s in found.skills.values()
    ]
    return ev.SkillList(op_id=op.id, skills=skills, problems=list(found.warnings))


def hook_list(runtime: HostedRuntime, op: ops.QueryHooks) -> ev.HookList:
    """The hooks this session runs, those waiting for trust, and what could not be read."""
    loaded = runtime.hooks.settings
    return ev.HookList(
        op_id=op.id,
        active=list(loaded.active),
        waiting_for_trust=list(loaded.waiting_for_trust),
        problems=list(loaded.problems),
    )


def mcp_list(runtime: HostedRuntime, op: ops.QueryMcp) -> ev.McpServerList:
    return ev.McpServerList(op_id=op.id, servers=runtime.mcp_servers())
