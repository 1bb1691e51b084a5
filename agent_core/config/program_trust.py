"""Trust bound to content: the programs a trusted folder may start are the ones the user saw.

Trusting a folder (trust.py) records, besides the folder, a fingerprint of every
program its files start: each hook in ``.mewcode/settings*.yaml`` and
``.claude/settings*.json``, each server in ``.mcp.json``. A program whose fingerprint
is not recorded — new, or changed by a session, a ``git pull`` or anyone — waits
until the user trusts the folder again: the UI asks, listing exactly what changed;
headless runs print one line and do not run it. ``--trust-project`` trusts the
folder as it is for one run, without recording.

Records live in ``MEWCODE_HOME/trusted-programs.json`` (0600): per project, the
fingerprint with where the program is configured and what it runs, so a change can
be shown against what was trusted.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import msgspec

from agent_core.config.paths import MewcodePaths
from agent_core.errors import ConfigError

if TYPE_CHECKING:
    from agent_core.config.settings_model import Settings

RECORD_FILE = "trusted-programs.json"
ProgramKind = Literal["hook", "mcp"]


class ProgramEntry(msgspec.Struct, frozen=True):
    """One program a project's files start: what kind, where it is configured, what it runs."""

    kind: ProgramKind
    where: str  # ".claude/settings.json: hooks.PreToolUse [Bash]", ".mcp.json: server db"
    what: str  # the command line or URL
    fingerprint: str


class _ProjectRecord(msgspec.Struct):
    programs: list[ProgramEntry] = []


class _RecordFile(msgspec.Struct):
    version: int = 1
    projects: dict[str, _ProjectRecord] = {}


def fingerprint(kind: ProgramKind, *parts: Any) -> str:
    """A stable hash of what makes a program what it is (canonical JSON)."""
    text = json.dumps([kind, *parts], sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


MAX_NAMED_BYTES = 4 << 20  # a file a program names is hashed up to this size


def named_files(words: list[str], base: Path, project: Path) -> list[list[str]]:
    """[path, sha256] of each file in the project that ``words`` name (`sh scripts/x.sh`,
    `python3 tools/server.py`): a program is also what it runs, and a command may rewrite
    that file without touching the settings."""
    found: list[list[str]] = []
    root = os.path.realpath(project)
    for word in words:
        if not word or word.startswith("-") or "\0" in word:
            continue
        candidate = Path(word).expanduser()
        path = os.path.realpath(candidate if candidate.is_absolute() else base / candidate)
        if not (path.startswith(root.rstrip("/") + "/") and os.path.isfile(path)):
            continue
        try:
            with open(path, "rb") as fh:
                digest = hashlib.sha256(fh.read(MAX_NAMED_BYTES + 1)).hexdigest()
        except OSError:
            digest = "unreadable"
        found.append([os.path.relpath(path, root), digest])
    return found


def command_words(command: str) -> list[str]:
    try:
        return shlex.split(command)
    except ValueError:
        return command.split()


def hook_fingerprint(
    source: str, event: str, matcher: str, command: str, timeout: float, project: Path
) -> str:
    """A hook as configured, with the project files its command names (it runs in the
    project folder)."""
    named = named_files(command_words(command), project, project)
    return fingerprint("hook", Path(source).name, event, matcher, command, timeout, named)


def mcp_fingerprint(name: str, entry: Any, project: Path) -> str:
    """A server as written in ``.mcp.json`` (variables unexpanded), with the project files
    its command line names."""
    named: list[list[str]] = []
    if isinstance(entry, dict) and isinstance(entry.get("command"), str):
        args = entry.get("args")
        listed = [str(a) for a in args] if isinstance(args, list) else []
        cwd = entry.get("cwd") if isinstance(entry.get("cwd"), str) else ""
        base = project / cwd if cwd and not cwd.startswith("~") else project
        named = named_files([entry["command"], *listed], base, project)
    return fingerprint("mcp", name, entry, named)


def _record_path(paths: MewcodePaths) -> Path:
    return paths.home / RECORD_FILE


def _read(paths: MewcodePaths) -> _RecordFile:
    file = _record_path(paths)
    try:
        data = file.read_bytes()
    except FileNotFoundError:
        return _RecordFile()
    except OSError as exc:
        raise ConfigError(f"{file}: cannot read: {exc.strerror or exc}") from None
    try:
        return msgspec.json.decode(data, type=_RecordFile)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        # Fail closed: no record means every project program waits for trust again.
        raise ConfigError(f"{file}: unreadable ({exc}); programs wait for trust") from None


def trusted_programs(paths: MewcodePaths) -> dict[str, ProgramEntry]:
    """The programs recorded when the user last trusted this project, by fingerprint."""
    try:
        record = _read(paths).projects.get(str(paths.project.resolve()))
    except ConfigError:
        return {}
    return {p.fingerprint: p for p in record.programs} if record else {}


def record_programs(paths: MewcodePaths, programs: list[ProgramEntry]) -> None:
    """Record ``programs`` as what the user trusts in this project (replacing the last)."""
    from agent_core.fsutil import atomic_write_bytes

    try:
        data = _read(paths)
    except ConfigError:
        data = _RecordFile()  # an unreadable record is replaced, never merged
    data.projects[str(paths.project.resolve())] = _ProjectRecord(list(programs))
    try:
        atomic_write_bytes(_record_path(paths), msgspec.json.encode(data), private=True)
    except OSError as exc:
        raise ConfigError(f"{_record_path(paths)}: cannot record trust: {exc.strerror}") from None


def project_programs(paths: MewcodePaths, home: Path | None = None) -> list[ProgramEntry]:
    """Every program the project's own files configure, as they are on disk now."""
    from agent_core.hooks.config import project_hooks
    from agent_core.mcp.config import project_server_entries

    found = [hook.program_entry(paths.project) for hook in project_hooks(paths, home)]
    found += project_server_entries(paths)
    return found


def changed_programs(
    current: list[ProgramEntry], trusted: dict[str, ProgramEntry]
) -> list[ProgramEntry]:
    """The programs not recorded as trusted (new or changed)."""
    return [p for p in current if p.fingerprint not in trusted]


def change_lines(current: list[ProgramEntry], trusted: dict[str, ProgramEntry]) -> list[str]:
    """What changed since the user trusted the folder, one line per program: new, or
    changed (with what was trusted in the same place)."""
    before = {p.where: p for p in trusted.values()}
    lines = []
    for program in changed_programs(current, trusted):
        old = before.get(program.where)
        if old is None:
            lines.append(f"new {program.where}: {program.what}")
        else:
            lines.append(f"changed {program.where}: {program.what} (was: {old.what})")
    return lines


def pending_changes(paths: MewcodePaths, settings: Settings) -> list[str]:
    """For a trusted project: the change lines of programs that wait for trust ([] when
    none do, or when the project is not trusted or is trusted for this run as it is)."""
    if not settings.project_trusted or settings.trusted_programs is None:
        return []
    return change_lines(project_programs(paths), trusted_programs(paths))
