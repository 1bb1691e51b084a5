"""Turn one tool call into the actions it performs, each judged on its own.

A Bash call becomes one action per simple command and one per file
redirect (checked as an Edit of that file); a file tool becomes one action
on its resolved path.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import urlsplit

from agent_core.permissions.file_args import file_targets
from agent_core.permissions.paths import ResolvedPath, expand_home, resolve
from agent_core.permissions.readonly import is_read_only
from agent_core.permissions.shell_model import ParsedCommand, SimpleCommand
from agent_core.permissions.shell_wrappers import Word

READ_FAMILY = frozenset({"Read", "Glob", "Grep", "LS", "NotebookRead"})
EDIT_FAMILY = frozenset({"Edit", "Write", "MultiEdit", "NotebookEdit"})
# Device files any command may touch without that being a file access worth judging.
HARMLESS_DEVICES = frozenset({
    "/dev/null", "/dev/zero", "/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/tty",
    "/dev/random", "/dev/urandom",
})  # fmt: skip
_BRACE_LIST = re.compile(r"\{[^}]*(,|\.\.)[^}]*\}")
_SUBJECT_FIELDS = {"Skill": "name", "Task": "subagent_type"}


class Action(NamedTuple):
    """One thing a call does: run a command, touch a path, fetch a host, call a tool."""

    tool: str  # the tool name rules match ("Edit" for a Bash redirect)
    label: str  # what it does, for messages
    command: SimpleCommand | None = None
    reads: tuple[ResolvedPath, ...] = ()
    writes: tuple[ResolvedPath, ...] = ()
    read_only: bool = False
    unknown_paths: bool = False  # a path argument the engine cannot resolve
    host: str | None = None
    subject: str = ""  # Skill name, Task subagent type


class Scope(NamedTuple):
    """Where paths resolve: the project root, home and the sandbox roots."""

    root: Path
    home: Path
    roots: list[Path]


def _path_input(tool: str, data: dict[str, Any]) -> str | None:
    for key in ("file_path", "notebook_path", "path"):
        value = data.get(key)
        if isinstance(value, str) and value:
            return value
    return None


def _glob_base(pattern: str) -> str | None:
    """The literal directory part of a glob pattern that leaves the default directory."""
    if not pattern.startswith(("/", "~", "$HOME")) and ".." not in pattern.split("/"):
        return None
    literal: list[str] = []
    for part in pattern.split("/"):
        if any(c in part for c in "*?[{"):
            break
        literal.append(part)
    return "/".join(literal) or "/"


def file_tool_actions(
    tool: str, data: dict[str, Any], read_only: bool, kind: str, scope: Scope
) -> list[Action]:
    """The single action of Read/Write/Edit/Glob/Grep/LS and other path tools."""
    raw = _path_input(tool, data) or "."
    target = resolve(raw, scope.root, scope.home, scope.roots)
    reads: list[ResolvedPath] = []
    writes: list[ResolvedPath] = []
    (writes if kind == "edit" else reads).append(target)
    pattern = data.get("pattern")
    if tool == "Glob" and isinstance(pattern, str) and (base := _glob_base(pattern)):
        reads.append(resolve(base, target.path, scope.home, scope.roots))
    verb = "edit" if kind == "edit" else "read"
    return [
        Action(tool, f"{verb} {raw}", reads=tuple(reads), writes=tuple(writes), read_only=read_only)
    ]


def _base_dir(cwd: str, scope: Scope) -> Path | None:
    if cwd == "?":
        return None
    if not cwd:
        return scope.root
    return scope.root / expand_home(cwd, scope.home)


def _resolve_word(word: Word, base: Path | None, scope: Scope) -> ResolvedPath | None:
    """Resolve a shell word naming a file; None when it cannot be known."""
    text = word.text
    if word.dynamic:
        rest = next(
            (text[len(v) :] for v in ("${HOME}", "$HOME") if text == v or text.startswith(v + "/")),
            None,
        )
        if rest is None or "$" in rest or "`" in rest:
            return None
    if _BRACE_LIST.search(text):
        return None
    if base is None and not text.startswith(("/", "~", "$HOME", "${HOME}")):
        return None
    return resolve(text, base or scope.root, scope.home, scope.roots)


def bash_actions(parsed: ParsedCommand, scope: Scope) -> list[Action]:
    """One action per simple command and per file redirect."""
    actions: list[Action] = []
    for cmd in parsed.commands:
        base = _base_dir(cmd.cwd, scope)
        reads: list[ResolvedPath] = []
        writes: list[ResolvedPath] = []
        unknown = False
        for word, written in file_targets(cmd):
            if word.text in HARMLESS_DEVICES:
                continue
            resolved = _resolve_word(word, base, scope)
            if resolved is None:
                unknown = True
            else:
                (writes if written else reads).append(resolved)
        label = " ".join(w.text for w in cmd.words)
        actions.append(
            Action("Bash", label, cmd, tuple(reads), tuple(writes), is_read_only(cmd), unknown)
        )
    for redirect in parsed.redirects:
        text = redirect.target.text
        if text in HARMLESS_DEVICES or text.startswith("/dev/fd/"):
            continue
        resolved = _resolve_word(redirect.target, _base_dir(redirect.cwd, scope), scope)
        paths = (resolved,) if resolved else ()
        if redirect.write:
            actions.append(
                Action("Edit", f"write {text}", writes=paths, unknown_paths=resolved is None)
            )
        else:
            actions.append(
                Action(
                    "Read",
                    f"read {text}",
                    reads=paths,
                    read_only=True,
                    unknown_paths=resolved is None,
                )
            )
    return actions


def web_host(url: str) -> str:
    """The lower-case host of a URL ("" when there is none)."""
    try:
        host = urlsplit(url.strip()).hostname or ""
    except ValueError:
        return ""
    return host.rstrip(".").lower()


def tool_actions(
    tool: str, data: dict[str, Any], read_only: bool, kind: str, scope: Scope
) -> list[Action]:
    """Actions of a non-Bash call."""
    if kind in ("read", "edit"):
        return file_tool_actions(tool, data, read_only, kind, scope)
    if kind == "web":
        url = data.get("url")
        url = url if isinstance(url, str) else ""
        if urlsplit(url.strip()).scheme.lower() == "file":  # a local read in disguise
            local = resolve(urlsplit(url.strip()).path or "/", scope.root, scope.home, scope.roots)
            return [Action(tool, f"fetch {url}", reads=(local,), read_only=read_only)]
        return [Action(tool, f"fetch {url}", read_only=read_only, host=web_host(url))]
    field = _SUBJECT_FIELDS.get(tool)
    subject = data.get(field) if field else None
    return [
        Action(tool, tool, read_only=read_only, subject=subject if isinstance(subject, str) else "")
    ]
