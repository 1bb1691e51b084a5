"""The answers to the query ops: read-only pictures of the session's parts, as events.

Each takes the runtime (what ``HostedRuntime`` names of it) and the op and returns
the result event, so a front end never builds memory stores, skill loaders, hook
configurations or command loaders of its own to show them. The few ops that change
something the user asked for (a fact, a rule) are answered here too; a refusal is a
``MewCodeError`` whose message the host tells in ``OpRefused``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from agent_core import events as ev
from agent_core.errors import ConfigError, MewCodeError
from agent_core.protocol import ops

if TYPE_CHECKING:
    from agent_core.config.paths import MewcodePaths
    from agent_core.hooks.config import HookCommand
    from agent_core.memory.recall import Fact
    from agent_core.protocol.hosted import HostedRuntime
    from agent_core.skills.loader import SkillLibrary

USER_IMPORTANCE = 0.7  # written by the user: kept over facts the model stored for them
COMMAND_LINE_SOURCES = ("cli", "--settings")  # rules no file holds: they end with the run


# --- sessions ------------------------------------------------------------------------


def session_summaries(paths: MewcodePaths) -> list[ev.SessionSummary]:
    """This project's saved sessions, most recently modified first (reads every file).

    Also what ``mewcode --resume`` offers before a session is open.
    """
    from agent_core.session.listing import list_sessions

    return [
        ev.SessionSummary(s.session_id, s.first_prompt, s.modified, s.message_count, s.size_bytes)
        for s in list_sessions(paths)
    ]


def session_list(runtime: HostedRuntime, op: ops.ListSessions) -> ev.SessionList:
    return ev.SessionList(op_id=op.id, sessions=session_summaries(runtime.paths))


# --- memory ----------------------------------------------------------------------------


def _fact(fact: Fact) -> ev.FactInfo:
    from agent_core.memory.long_term import GLOBAL

    if fact.scope == GLOBAL:
        return ev.FactInfo(fact.id, "global", fact.content, fact.expires_at)
    return ev.FactInfo(fact.id, "project", fact.content, fact.expires_at)


def memory_report(runtime: HostedRuntime, op: ops.QueryMemory) -> ev.MemoryReport:
    """The memory files that load this session and the facts (matching ``op.search``)."""
    from agent_core.memory.files import collect_memory
    from agent_core.memory.store import MemoryUnavailable

    loaded = collect_memory(runtime.memory_reach())
    problems: list[str] = []
    memory = runtime.memory
    facts: list[Fact] = []
    try:
        facts = memory.search(op.search) if op.search else memory.listing()
    except MemoryUnavailable as exc:
        problems.append(str(exc))
    if memory.problem and memory.problem not in problems:
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
        store=str(memory.store.path),
        skipped=list(loaded.notices),
    )


def remember_fact(runtime: HostedRuntime, op: ops.RememberFact) -> ev.FactRemembered:
    """Store the user's fact; a blank or overlong one, or memory that is off, is refused."""
    from agent_core.memory.store import MemoryUnavailable

    try:
        added = runtime.memory.remember(op.text, op.scope, importance=USER_IMPORTANCE)
    except ValueError as exc:
        raise MewCodeError(str(exc)) from None
    except MemoryUnavailable as exc:
        raise MewCodeError(str(exc)) from None
    return ev.FactRemembered(
        op_id=op.id, fact_id=added.id, scope=op.scope, new=added.new, redacted=added.redacted
    )


def forget_fact(runtime: HostedRuntime, op: ops.ForgetFact) -> ev.FactForgotten:
    from agent_core.memory.store import MemoryUnavailable

    try:
        deleted = runtime.memory.delete(op.fact_id)
    except MemoryUnavailable as exc:
        raise MewCodeError(str(exc)) from None
    return ev.FactForgotten(op_id=op.id, fact_id=op.fact_id, deleted=deleted)


# --- permission rules ------------------------------------------------------------------


def rule_list(runtime: HostedRuntime, op: ops.ListRules) -> ev.RuleList:
    return ev.RuleList(op_id=op.id, rules=list(runtime.rules()))


def remove_rule(runtime: HostedRuntime, op: ops.RemoveRule) -> ev.RuleRemoved:
    """Remove the rule from its file or the session; a command-line rule is refused."""
    entry = op.rule
    if entry.source in COMMAND_LINE_SOURCES:
        raise MewCodeError("that rule came from the command line; restart without it")
    try:
        removed = runtime.remove_rule(entry)
    except OSError as exc:
        raise MewCodeError(f"could not remove {entry.rule}: {exc.strerror}") from None
    return ev.RuleRemoved(op_id=op.id, rule=entry, removed=removed)


# --- context, review ----------------------------------------------------------------------


def context_report(runtime: HostedRuntime, op: ops.QueryContext) -> ev.ContextReport:
    return ev.ContextReport(op_id=op.id, breakdown=dict(runtime.context_breakdown()))


async def diff_report(runtime: HostedRuntime, op: ops.QueryDiff) -> ev.DiffReport:
    """The project's uncommitted diff, git run in a stricter copy of the session's sandbox."""
    from agent_core.git.working_diff import working_tree_diff

    if op.max_chars <= 0:
        raise MewCodeError(f"query_diff: max_chars must be positive, got {op.max_chars}")
    diff, problem = await working_tree_diff(runtime.paths.project, runtime.sandbox_policy)
    if diff is None:
        return ev.DiffReport(op_id=op.id, problem=problem)
    cut = len(diff) > op.max_chars
    return ev.DiffReport(op_id=op.id, diff=diff[: op.max_chars] if cut else diff, cut=cut)


# --- commands, skills, hooks, MCP -----------------------------------------------------------


def custom_commands(paths: MewcodePaths, user_home: Path | None = None) -> ev.CommandList:
    """The custom command files as they are on disk now (also before a session opens)."""
    from agent_core.custom_commands import command_folders, load_command_files

    home = user_home if user_home is not None else Path.home()
    found = load_command_files(command_folders(paths.home, home, paths.project))
    commands = [
        ev.CommandInfo(c.name, c.description, c.argument_hint, str(c.path), c.body)
        for c in found.commands.values()
    ]
    return ev.CommandList(op_id="", commands=commands, notices=list(found.notices))


def command_list(runtime: HostedRuntime, op: ops.QueryCommands) -> ev.CommandList:
    listing = custom_commands(runtime.paths)
    return ev.CommandList(op_id=op.id, commands=listing.commands, notices=listing.notices)


def installed_skills(paths: MewcodePaths, library: SkillLibrary | None = None) -> ev.SkillList:
    """The skills in force now, read from disk, with a line for each skipped one."""
    from agent_core.skills.loader import SkillLibrary

    found = (library or SkillLibrary.for_session(paths)).load()
    skills = [
        ev.SkillInfo(s.name, s.description, str(s.path), str(s.layer))
        for s in found.skills.values()
    ]
    folders = [str(paths.home / "skills"), str(paths.project / ".mewcode" / "skills")]
    return ev.SkillList(op_id="", skills=skills, problems=list(found.warnings), folders=folders)


def skill_list(runtime: HostedRuntime, op: ops.QuerySkills) -> ev.SkillList:
    listing = installed_skills(runtime.paths, runtime.skills)
    return ev.SkillList(
        op_id=op.id, skills=listing.skills, problems=listing.problems, folders=listing.folders
    )


def _hooks(hooks: list[HookCommand], project: Path) -> list[ev.HookInfo]:
    """In the order events happen, then as configured; each file shown short."""
    from agent_core.hooks.config import HOOK_EVENTS, shown_path

    order = {event: index for index, event in enumerate(HOOK_EVENTS)}
    ordered = sorted(hooks, key=lambda h: order.get(h.event, len(order)))
    return [
        ev.HookInfo(h.event, h.matcher, h.command, h.timeout_s, shown_path(Path(h.source), project))
        for h in ordered
    ]


def hook_list(runtime: HostedRuntime, op: ops.QueryHooks) -> ev.HookList:
    """The hooks this session runs, those waiting for trust, and what could not be read."""
    loaded = runtime.hooks.settings
    project = runtime.paths.project
    return ev.HookList(
        op_id=op.id,
        active=_hooks(loaded.active, project),
        waiting_for_trust=_hooks(loaded.waiting_for_trust, project),
        problems=list(loaded.problems),
    )


def mcp_list(runtime: HostedRuntime, op: ops.QueryMcp) -> ev.McpServerList:
    return ev.McpServerList(op_id=op.id, servers=runtime.mcp_servers())


# --- settings, folders, doctor, models ----------------------------------------------------


def config_report(runtime: HostedRuntime, op: ops.QueryConfig) -> ev.SettingsReport:
    """The settings in force, each traced to its file; with ``reread``, as the files hold
    them now (what a restart would apply), keeping what the command line and the session
    added."""
    from agent_core.config.settings import load_settings
    from agent_core.config.settings_origins import (
        COMMAND_LINE,
        THIS_SESSION,
        file_states,
        read_sources,
        settings_origins,
    )

    settings = runtime.settings
    rules = list(runtime.rules())
    problems = list(runtime.settings_problems)
    if op.reread:
        try:
            fresh = load_settings(runtime.paths, trust_project=settings.project_trusted)
        except ConfigError as exc:
            raise MewCodeError(str(exc)) from None
        kept = [r for r in rules if r.source in ("session", *COMMAND_LINE_SOURCES)]
        files = read_sources(runtime.paths, Path.home())
        traced = settings_origins(settings, files, rules, runtime.added_directories)
        extra = [
            o.value
            for o in traced
            if o.key == "permissions.additionalDirectories"
            and o.source in (COMMAND_LINE, THIS_SESSION)
        ]
        settings = msgspec.structs.replace(
            fresh, additional_directories=[*fresh.additional_directories, *extra]
        )
        rules = [*fresh.rules, *kept]
        problems = list(fresh.problems)
    files = read_sources(runtime.paths, Path.home())
    values = settings_origins(settings, files, rules, runtime.added_directories)
    return ev.SettingsReport(
        op_id=op.id,
        values=[ev.SettingValue(v.key, v.value, v.source) for v in values],
        files=[
            ev.SettingsFileInfo(f.path, f.exists, f.applies)
            for f in file_states(files, settings.project_trusted)
        ],
        user_file=str(runtime.paths.user_settings),
        problems=problems,
    )


def add_directory(runtime: HostedRuntime, op: ops.AddDirectory) -> ev.DirectoryAdded:
    if not op.path.strip():
        raise MewCodeError("add_directory: give a folder")
    folder, new = runtime.add_directory(op.path.strip())
    return ev.DirectoryAdded(op_id=op.id, path=str(folder), new=new)


def model_list(runtime: HostedRuntime, op: ops.QueryModels) -> ev.ModelList:
    from agent_core.llm.catalog import catalog_models
    from agent_core.llm.pricing import model_info

    provider = runtime.provider
    names = list(catalog_models(provider.name))
    if provider.model not in names:
        names.insert(0, provider.model)  # a model the table does not list is still offered
    choices = []
    for name in names:
        info = model_info(name)
        choices.append(ev.ModelChoice(name, info.context_window, info.input, info.output))
    return ev.ModelList(op_id=op.id, provider=provider.name, current=provider.model, models=choices)


def doctor_report(runtime: HostedRuntime, op: ops.QueryDoctor) -> ev.DoctorReport:
    """Each part a session needs, how it stands, and what to do when it is wrong."""
    checks = [_provider_check(runtime), _sandbox_check(runtime), *_mcp_checks(runtime)]
    checks += _hook_checks(runtime)
    for problem in runtime.settings_problems:
        checks.append(
            ev.DoctorCheck(
                "settings", "warning", problem, "edit the file it names (/config edit: yours)"
            )
        )
    return ev.DoctorReport(op_id=op.id, checks=checks)


def _provider_check(runtime: HostedRuntime) -> ev.DoctorCheck:
    from agent_core.llm.catalog import PROVIDERS
    from agent_core.llm.key_source import key_source

    provider = runtime.provider
    found, where = key_source(provider.name, runtime.settings, runtime.provider_env)
    detail = f"{provider.name} · model {provider.model} · key: {where}"
    if found:
        return ev.DoctorCheck("provider", "ok", detail)
    entry = PROVIDERS.get(provider.name)
    variable = runtime.settings.api_key_env or (entry.key_env if entry else None) or "the key"
    return ev.DoctorCheck(
        "provider",
        "error",
        detail,
        f"export {variable}=… before starting mewcode, or run it once to paste a key",
    )


def _sandbox_check(runtime: HostedRuntime) -> ev.DoctorCheck:
    status = runtime.sandbox
    if not status.available:
        return ev.DoctorCheck(
            "sandbox",
            "error",
            "none: commands run unconfined",
            "install bubblewrap (apt install bubblewrap) or use a kernel with Landlock; "
            "`mewcode sandbox check` tells more",
        )
    # The facts are long sentences: /doctor counts them, `mewcode sandbox check` lists them.
    detail = (
        f"{status.backend}: every command confined (writes only in the project, added "
        f"folders and temp dirs); {len(status.enforced)} protections enforced, "
        f"{len(status.missing)} known gaps (`mewcode sandbox check` lists them)"
    )
    return ev.DoctorCheck("sandbox", "ok", detail)


def _mcp_checks(runtime: HostedRuntime) -> list[ev.DoctorCheck]:
    servers = runtime.mcp_servers()
    if not servers:
        return [ev.DoctorCheck("mcp", "ok", "no MCP servers configured")]
    checks = []
    for server in servers:
        detail = f"{server.name} ({server.transport}): {server.state}, {server.tools} tools"
        if server.state == "failed":
            fix = f"fix the server in {server.source}, then reconnect it in /mcp"
            detail += f" — {server.error}" if server.error else ""
            checks.append(ev.DoctorCheck("mcp", "error", detail, fix))
        elif server.state == "needs-trust":
            fix = "trust the project (restart mewcode and answer the trust question)"
            checks.append(ev.DoctorCheck("mcp", "warning", detail, fix))
        else:
            checks.append(ev.DoctorCheck("mcp", "ok", detail))
    return checks


def _hook_checks(runtime: HostedRuntime) -> list[ev.DoctorCheck]:
    loaded = runtime.hooks.settings
    active = len(loaded.active)
    checks = [ev.DoctorCheck("hooks", "ok", f"{active} hook{'' if active == 1 else 's'} loaded")]
    if loaded.waiting_for_trust:
        waiting = len(loaded.waiting_for_trust)
        checks.append(
            ev.DoctorCheck(
                "hooks",
                "warning",
                f"{waiting} project hook{'' if waiting == 1 else 's'} waiting for trust",
                "trust the project to run them (/hooks lists them)",
            )
        )
    for problem in loaded.problems:
        checks.append(ev.DoctorCheck("hooks", "warning", problem, "fix the hook in the file named"))
    return checks
