"""Custom prompt commands: Markdown files in MewCode's and Claude Code's command folders.

Folders, lowest precedence first (a later one wins a name): ``~/.claude/commands``,
``MEWCODE_HOME/commands``, the project root's ``.claude/commands``, then its
``.mewcode/commands`` — the project over the user, ours over ``.claude``. A file in a
subfolder is namespaced: ``frontend/component.md`` is ``/frontend:component``.
Front matter may give ``description`` and ``argument-hint``; ``allowed-tools`` and
``model`` are not supported (the command runs with the session's permissions and
model, and the user is told). Expanding a body (``$ARGUMENTS``, ``$1``..``$9``) is pure
text, in agent_core/command_text.py; ``@file`` stays in the prompt, which attaches it
through the Read permission as typed mentions. The session answers ``QueryCommands``
from here (agent_core/protocol/queries.py); no UI here.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

import yaml

_PART = re.compile(r"^[a-z0-9][a-z0-9_.-]*$")
UNSUPPORTED_KEYS = ("allowed-tools", "model")
MAX_FILE_BYTES = 100_000


@dataclass(frozen=True)
class CommandFile:
    """One custom command as read from its file."""

    name: str  # "greet", "frontend:component"
    body: str
    path: Path
    description: str
    argument_hint: str = ""
    unsupported: tuple[str, ...] = ()  # front matter keys left unapplied


@dataclass
class CommandFiles:
    """The commands found, by name, and one line for each thing the user should know."""

    commands: dict[str, CommandFile] = field(default_factory=dict)
    notices: list[str] = field(default_factory=list)


def command_folders(mewcode_home: Path, user_home: Path, project: Path) -> list[Path]:
    """The command folders, lowest precedence first."""
    return [
        user_home / ".claude" / "commands",
        mewcode_home / "commands",
        project / ".claude" / "commands",
        project / ".mewcode" / "commands",
    ]


def _plain_fields(front: str) -> dict[str, str]:
    """``key: value`` lines as written (``argument-hint: [pr] [priority]`` is not YAML)."""
    fields: dict[str, str] = {}
    for line in front.splitlines():
        key, sep, value = line.partition(":")
        if sep and key.strip() and not key.startswith((" ", "\t")):
            fields[key.strip()] = value.strip()
    return fields


def split_front_matter(text: str) -> tuple[dict, str]:
    """Front matter (if any) and the body of a Markdown command file; what YAML cannot
    read is taken line by line, as Claude Code's files are written."""
    if text.startswith("---\n"):
        end = text.find("\n---", 4)
        if end > 0:
            front = text[4:end]
            try:
                meta = yaml.safe_load(front) or {}
            except yaml.YAMLError:
                meta = {}
            meta = {**_plain_fields(front), **(meta if isinstance(meta, dict) else {})}
            if "argument-hint" in meta:
                meta["argument-hint"] = _plain_fields(front).get("argument-hint", "")
            body = text[end + 4 :].lstrip("\n")
            return meta, body
    return {}, text


def command_name(relative: Path) -> str | None:
    """``frontend/component.md`` -> ``frontend:component``; None for a bad name."""
    parts = [*relative.parent.parts, relative.stem]
    lowered = [p.lower() for p in parts]
    if not all(_PART.match(p) for p in lowered):
        return None
    return ":".join(lowered)


def read_command(path: Path, name: str, folder: Path) -> CommandFile | None:
    """The command in ``path``; None when it is not UTF-8 text in a regular file reached
    from ``folder`` with no symbolic link (a repo's link to ~/.ssh/id_rsa is not a prompt)."""
    from agent_core.tools.nofollow import open_no_symlinks

    try:
        root = os.path.realpath(folder)
        fd = open_no_symlinks(
            os.path.join(root, str(path.relative_to(folder))), os.O_RDONLY | os.O_NONBLOCK,
            root=root,
        )  # fmt: skip
        with os.fdopen(fd, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                return None
            data = fh.read(MAX_FILE_BYTES + 1)
        text = data[:MAX_FILE_BYTES].decode("utf-8")
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    meta, body = split_front_matter(text)
    first_line = next((ln.strip("# ").strip() for ln in body.splitlines() if ln.strip()), "")
    return CommandFile(
        name=name,
        body=body,
        path=path,
        description=str(meta.get("description") or first_line or "Custom command")[:80],
        argument_hint=str(meta.get("argument-hint") or "")[:40],
        unsupported=tuple(k for k in UNSUPPORTED_KEYS if k in meta),
    )


def load_command_files(folders: list[Path]) -> CommandFiles:
    """Every ``*.md`` under each folder (subfolders namespaced); later folders win."""
    found = CommandFiles()
    for folder in folders:
        if not folder.is_dir():
            continue
        for path in sorted(folder.rglob("*.md")):
            name = command_name(path.relative_to(folder))
            if name is None or not path.is_file():
                continue
            command = read_command(path, name, folder)
            if command is not None:
                found.commands[name] = command
    for command in found.commands.values():
        if command.unsupported:
            keys = " and ".join(command.unsupported)
            found.notices.append(
                f"{command.path}: {keys} not supported: /{command.name} runs with the "
                "session's permissions and model"
            )
    return found
