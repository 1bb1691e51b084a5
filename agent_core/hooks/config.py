"""The ``hooks:`` settings (docs/configuration.md#hooks), read file by file so each hook keeps where it came from.

Claude Code's shape, so its settings load unchanged::

    hooks: {PreToolUse: [{matcher: "Edit|Write", hooks: [{type: command, command: "...", timeout: 60}]}]}

Files, in the settings' order (config/settings.py): ``~/.claude/settings.json``,
``MEWCODE_HOME/settings.yaml``, then the project's ``.claude/settings.json``,
``.mewcode/settings.yaml``, ``.claude/settings.local.json`` and
``.mewcode/settings.local.yaml``. Project and local hooks come from the checkout:
they run only once the project is trusted.
A malformed entry is one problem line naming its file; the rest load.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import msgspec

from agent_core.config.paths import MewcodePaths
from agent_core.hooks.matcher import matcher_problem

if TYPE_CHECKING:
    from agent_core.config.program_trust import ProgramEntry

HOOK_EVENTS = (
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "Stop",
    "PreCompact",
    "Notification",
    "SessionEnd",
)
DEFAULT_TIMEOUT_S = 60.0
Scope = Literal["user", "project", "local"]


class HookCommand(msgspec.Struct, frozen=True):
    """One configured command: its event, matcher, timeout and the file it came from."""

    event: str
    matcher: str
    command: str
    timeout_s: float
    source: str

    def label(self, project: Path) -> str:
        """How the user is told which hook this is: file, event and command."""
        return f"hook {shown_path(Path(self.source), project)} {self.event} `{self.command}`"

    def fingerprint(self, project: Path) -> str:
        """What trust records of this hook (config/program_trust.py), as it is on disk now."""
        from agent_core.config.program_trust import hook_fingerprint

        return hook_fingerprint(
            self.source, self.event, self.matcher, self.command, self.timeout_s, project
        )

    def program_entry(self, project: Path) -> ProgramEntry:
        from agent_core.config.program_trust import ProgramEntry

        matcher = f" [{self.matcher}]" if self.matcher else ""
        where = f"{shown_path(Path(self.source), project)}: hook {self.event}{matcher}"
        return ProgramEntry("hook", where, self.command, self.fingerprint(project))


class HookSettings(msgspec.Struct):
    """The hooks that run, the project's that wait for trust, and what could not be read.

    ``changed`` are those of a trusted project that wait because they are not what the
    user trusted (new or changed since); they are in ``waiting_for_trust`` too.
    """

    active: list[HookCommand] = []
    waiting_for_trust: list[HookCommand] = []
    changed: list[HookCommand] = []
    problems: list[str] = []


def shown_path(path: Path, project: Path) -> str:
    """``path`` relative to the project when inside it, else with ``~`` for the home directory."""
    for base, prefix in ((project, ""), (Path.home(), "~/")):
        try:
            return prefix + str(path.relative_to(base))
        except ValueError:
            continue
    return str(path)


def parse_hooks(data: Any, source: str) -> tuple[list[HookCommand], list[str]]:
    """The commands a ``hooks`` value configures, and one problem line per entry left out."""
    if data is None:
        return [], []
    if not isinstance(data, dict):
        return [], [f"{source}: hooks: expected a mapping of event names to lists"]
    found: list[HookCommand] = []
    problems: list[str] = []
    for event, groups in data.items():
        where = f"{source}: hooks.{event}"
        if event not in HOOK_EVENTS:
            problems.append(f"{where}: not an event MewCode runs ({', '.join(HOOK_EVENTS)})")
            continue
        if not isinstance(groups, list):
            problems.append(f"{where}: expected a list of {{matcher, hooks}} entries")
            continue
        for i, group in enumerate(groups):
            _parse_group(event, group, f"{where}[{i}]", source, found, problems)
    return found, problems


def _parse_group(
    event: str, group: Any, where: str, source: str, found: list, problems: list
) -> None:
    if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
        problems.append(f"{where}: expected {{matcher: ..., hooks: [...]}}")
        return
    matcher = group.get("matcher", "")
    if matcher is None:
        matcher = ""
    if not isinstance(matcher, str):
        problems.append(f"{where}.matcher: expected a string")
        return
    if problem := matcher_problem(matcher):
        problems.append(f"{where}: {problem}")
        return
    for j, hook in enumerate(group["hooks"]):
        at = f"{where}.hooks[{j}]"
        if not isinstance(hook, dict):
            problems.append(f"{at}: expected {{type: command, command: ...}}")
            continue
        if hook.get("type", "command") != "command":
            problems.append(f"{at}: type {hook.get('type')!r} is not supported (only command)")
            continue
        command = hook.get("command")
        if not isinstance(command, str) or not command.strip():
            problems.append(f"{at}: command: expected a non-empty string")
            continue
        timeout = hook.get("timeout", DEFAULT_TIMEOUT_S)
        if isinstance(timeout, bool) or not isinstance(timeout, int | float) or timeout <= 0:
            problems.append(f"{at}: timeout: expected a number of seconds above 0")
            continue
        found.append(HookCommand(event, matcher, command, float(timeout), source))


def hook_files(paths: MewcodePaths, user_home: Path) -> list[tuple[Path, Scope]]:
    """Every file hooks are read from, each once, in the settings' merge order."""
    from agent_core.config.settings import settings_sources

    def scope(file: Path, user: bool) -> Scope:
        return "user" if user else "local" if ".local." in file.name else "project"

    return [(file, scope(file, user)) for file, user in settings_sources(paths, user_home)]


def load_hooks(
    paths: MewcodePaths,
    *,
    trusted: bool,
    user_home: Path | None = None,
    approved: Collection[str] | None = None,
) -> HookSettings:
    """The hooks in force for this project (those of an untrusted project wait).

    In a trusted project, ``approved`` (fingerprints) are the project hooks the user
    trusted; the others wait too. None: every hook of a trusted project runs.
    """
    result = HookSettings()
    for file, scope in hook_files(paths, user_home or Path.home()):
        data, problem = _read_hooks_value(file)
        if problem:
            result.problems.append(problem)
        hooks, problems = parse_hooks(data, str(file))
        result.problems.extend(problems)
        if scope != "user" and trusted and approved is not None:
            changed = [h for h in hooks if h.fingerprint(paths.project) not in approved]
            result.changed.extend(changed)
            if changed:
                shown = ", ".join(f"{h.event} `{h.command}`" for h in changed)
                result.problems.append(
                    f"{file}: hooks not run: new or changed since you trusted this folder: "
                    f"{shown} (trust them in the dialog when mewcode opens, or run with --trust-project)"
                )
            result.waiting_for_trust.extend(changed)
            result.active.extend(h for h in hooks if h not in changed)
        elif scope != "user" and not trusted:
            result.waiting_for_trust.extend(hooks)  # settings.py says so, file by file
        else:
            result.active.extend(hooks)
    return result


def project_hooks(paths: MewcodePaths, user_home: Path | None = None) -> list[HookCommand]:
    """Every hook the project's own files configure (trusted or not)."""
    found: list[HookCommand] = []
    for file, scope in hook_files(paths, user_home or Path.home()):
        if scope != "user":
            found += parse_hooks(_read_hooks_value(file)[0], str(file))[0]
    return found


def _read_hooks_value(file: Path) -> tuple[Any, str | None]:
    """The file's ``hooks`` value (YAML, or Claude Code's JSON); settings.py reports what
    could not be read."""
    from agent_core.config.settings_file import load_settings_file
    from agent_core.errors import ConfigError

    try:
        raw = load_settings_file(file)
    except ConfigError:  # already one of the settings problems the user sees
        return None, None
    return (raw.hooks if raw is not None else None), None
