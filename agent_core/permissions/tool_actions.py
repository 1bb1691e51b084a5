"""The actions of a call to a tool other than Bash, each judged on its own.

A file tool (Read, Write, Edit, Glob, Grep, LS and other path tools) becomes one
action on its resolved path, with the tree it searches; a fetch (WebFetch) one
action on its host, or a read for a ``file:`` URL; any other tool one action
carrying its rule field's value. Bash calls are split by ``actions.py``, which
also holds the ``Action``, ``Search`` and ``Scope`` types used here.
"""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import urlsplit

from agent_core.net.hosts import url_host
from agent_core.permissions.actions import Action, Scope, Search
from agent_core.permissions.paths import ResolvedPath, resolve
from agent_core.tool_table import BUILTIN_TOOLS
from agent_core.tools.builtin import builtin_rule_field

# Where a tool outside the built-in table (an MCP server's, a test's) that claims to read
# or edit a path keeps it; built-ins declare their own field (Tool.rule_field).
_CONVENTIONAL_PATH_FIELDS = ("file_path", "path")


def _rule_input(tool: str, data: dict[str, Any]) -> str | None:
    """The value a rule's specifier is matched against: the declared field's, if a string."""
    declared = builtin_rule_field(tool)
    keys = (declared,) if declared else () if tool in BUILTIN_TOOLS else _CONVENTIONAL_PATH_FIELDS
    for key in keys:
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


def _tool_search(tool: str, data: dict[str, Any], target: ResolvedPath, scope: Scope) -> Search:
    """What Grep, Glob and LS read below their path (they honour .gitignore, skip .git)."""
    if tool == "Grep":
        from agent_core.tools.grep import split_globs

        glob = data.get("glob")
        includes = tuple(split_globs(glob)) if isinstance(glob, str) else ()
        return Search(target, "Grep", ignore=True, skip_git=True, includes=includes)
    if tool == "Glob":
        from agent_core.tools.glob import split_pattern

        pattern = data.get("pattern")
        pattern = pattern.strip() if isinstance(pattern, str) else "**"
        prefix, rest = split_pattern(os.path.expanduser(pattern).removeprefix("./"))
        base = resolve(prefix, target.path, scope.home, scope.roots) if prefix else target
        return Search(base, "Glob", ignore=True, skip_git=True, select=rest)
    ignore = data.get("ignore")
    excludes = tuple(i for i in ignore if isinstance(i, str)) if isinstance(ignore, list) else ()
    return Search(target, tool, ignore=True, skip_git=True, excludes=excludes)


def file_tool_actions(
    tool: str, data: dict[str, Any], read_only: bool, kind: str, scope: Scope
) -> list[Action]:
    """The single action of Read/Write/Edit/Glob/Grep/LS and other path tools."""
    raw = _rule_input(tool, data) or "."
    target = resolve(raw, scope.cwd, scope.home, scope.roots)
    verb = "edit" if kind == "edit" else "read"
    reads: list[ResolvedPath] = []
    writes: list[ResolvedPath] = []
    (writes if kind == "edit" else reads).append(target)
    pattern = data.get("pattern")
    if tool == "Glob" and isinstance(pattern, str) and (base := _glob_base(pattern)):
        reads.append(resolve(base, target.path, scope.home, scope.roots))
    searches: tuple[Search, ...] = ()
    if tool in ("Grep", "Glob", "LS") and target.root is not None:
        searches = (_tool_search(tool, data, target, scope),)
    return [
        Action(
            tool,
            f"{verb} {raw}",
            reads=tuple(reads),
            writes=tuple(writes),
            read_only=read_only,
            searches=searches,
        )
    ]


def _web_action(tool: str, url: str, read_only: bool, scope: Scope) -> Action:
    """A fetch: it asks per host, and a host that cannot be read exactly is unknown ("")."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:  # "http://[": no host, an unknown one below
        parts = None
    if parts is not None and parts.scheme.lower() == "file":  # a local read in disguise
        local = resolve(parts.path or "/", scope.cwd, scope.home, scope.roots)
        return Action(tool, f"fetch {url}", reads=(local,), read_only=read_only)
    host = url_host(url) or ""
    reach = f"it sends a request to {host}" if host else "its host cannot be read exactly"
    return Action(tool, f"fetch {url}", read_only=read_only, host=host, asks=reach)


# Why an MCP tool's readOnlyHint does not let it run unasked.
CLAIMED_READ_ONLY = (
    "read-only by its server's word only; trustReadOnlyHint is not set for that server"
)


def tool_actions(
    tool: str,
    data: dict[str, Any],
    read_only: bool,
    kind: str,
    scope: Scope,
    read_only_trusted: bool = True,
) -> list[Action]:
    """Actions of a non-Bash call (``read_only_trusted``: False when the read-only flag is
    only the tool's own claim, which then asks like any other call)."""
    if kind in ("read", "edit"):
        return file_tool_actions(tool, data, read_only, kind, scope)
    if kind == "web":
        url = data.get(builtin_rule_field(tool) or "url")
        return [_web_action(tool, url if isinstance(url, str) else "", read_only, scope)]
    subject = _rule_input(tool, data) if tool in BUILTIN_TOOLS else None
    asks = CLAIMED_READ_ONLY if read_only and not read_only_trusted else ""
    return [Action(tool, tool, read_only=read_only, subject=subject or "", asks=asks)]
