"""Project trust: a repository's own configuration may only tighten things until trusted.

A project's ``.mewcode/settings.yaml``, ``.mewcode/settings.local.yaml`` and
``.mcp.json`` come from whoever wrote the repository. Until the user trusts the
project, settings.py keeps only what makes things stricter from them (deny and
ask rules, a stricter mode, ``sandbox.network: false``); anything that loosens
permissions or runs code (allow rules, looser modes, ``additionalDirectories``,
hooks, MCP servers, language servers, limits) waits for trust.

Trust is bound to content: what the folder's files start (hooks, MCP servers) is
recorded when it is trusted, and a program not recorded waits (program_trust.py).
Trust is exact: ``trustedProjects`` in the user's settings file lists resolved
project paths, and trusting a directory does not trust the directories below
it (each may be another checkout with its own settings). It is recorded by the
TUI's trust dialog; ``--trust-project`` trusts for one run without recording.

Whatever loads ``.mcp.json`` or project hooks starts project servers and hooks only
when ``Settings.project_trusted`` holds and their fingerprint is in
``Settings.trusted_programs``.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from agent_core.config.paths import MewcodePaths
from agent_core.errors import ConfigError
from agent_core.modes import MODE_STRICTNESS, Mode

TRUSTED_PROJECTS = "trustedProjects"  # the user settings key


def stricter_mode(current: Mode, proposed: Mode) -> Mode:
    """The stricter of two permission modes (an unknown mode counts as the strictest)."""

    def rank(mode: Mode) -> int:
        return MODE_STRICTNESS.index(mode) if mode in MODE_STRICTNESS else -1

    return proposed if rank(proposed) < rank(current) else current


def _resolved(entry: str) -> Path | None:
    try:
        path = Path(entry).expanduser()
        return path.resolve() if path.is_absolute() else None
    except (RuntimeError, ValueError, OSError):  # "~nobody", a NUL byte, a symlink loop
        return None


def is_trusted(project: Path, entries: Iterable[str]) -> bool:
    """Whether ``project`` (resolved) is one of the trusted paths (exactly, not a parent)."""
    target = project.resolve()
    return any(_resolved(entry) == target for entry in entries)


def record_trust(paths: MewcodePaths) -> bool:
    """Add the project to ``trustedProjects`` in the user's settings, and record the
    programs its files start as they are now (program_trust.py); False if the folder
    was listed already (its programs are recorded again all the same).

    Keeps the rest of the file as written (comments included) when it can append
    a line; raises ConfigError when the file cannot be read or written.
    """
    from agent_core.config.program_trust import project_programs, record_programs
    from agent_core.config.settings import load_settings_file

    file = paths.user_settings
    raw = load_settings_file(file)  # ConfigError for a file we must not rewrite
    record_programs(paths, project_programs(paths))
    if raw is not None and raw.trustedProjects and is_trusted(paths.project, raw.trustedProjects):
        return False
    try:
        _add_entry(file, str(paths.project.resolve()))
    except OSError as exc:
        raise ConfigError(f"{file}: cannot record trust: {exc.strerror}") from None
    return True


def _add_entry(file: Path, entry: str) -> None:
    import yaml

    from agent_core.config.settings import edit_settings
    from agent_core.fsutil import atomic_write_text

    item = yaml.safe_dump([entry], default_flow_style=False, allow_unicode=True).strip()
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = ""
    root = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    if root is None or (isinstance(root, yaml.MappingNode) and not root.flow_style):
        listed = next(
            (v for k, v in (root.value if root else []) if k.value == TRUSTED_PROJECTS), None
        )
        if listed is None:  # append the key; every other line stays as written
            sep = "" if not text or text.endswith("\n") else "\n"
            file.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(file, f"{text}{sep}{TRUSTED_PROJECTS}:\n{item}\n", private=True)
            return
        if isinstance(listed, yaml.SequenceNode) and listed.value and not listed.flow_style:
            # A block list: one more "- path" line after its last item, same indentation.
            lines = text.splitlines(keepends=True)
            end = listed.value[-1].end_mark
            last = end.line - 1 if end.column == 0 else end.line
            if not lines[last].endswith("\n"):
                lines[last] += "\n"
            lines.insert(last + 1, " " * listed.start_mark.column + item + "\n")
            atomic_write_text(file, "".join(lines), private=True)
            return

    def add(data: dict) -> bool:  # any other shape: rewrite the file
        current = data.get(TRUSTED_PROJECTS)
        data[TRUSTED_PROJECTS] = [*current, entry] if isinstance(current, list) else [entry]
        return True

    edit_settings(file, add)


def untrusted_notice(file: Path, keys: list[str]) -> str:
    """The one line telling the user what an untrusted project file did not get to do."""
    return (
        f"{file}: not applied until you trust this project: {', '.join(keys)} "
        "(trust it in the dialog when mewcode opens, or run with --trust-project)"
    )


def credentials_notice(file: Path, keys: list[str], user_file: Path) -> str:
    """The one line telling the user a project tried to choose where credentials go."""
    names = " and ".join(keys)
    return (
        f"{file}: {names} ignored: only {user_file}, the environment and flags "
        "decide where your API key is sent"
    )
