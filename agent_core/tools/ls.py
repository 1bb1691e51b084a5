"""The LS tool: a directory tree, breadth first, skipping ignored entries."""

from __future__ import annotations

import asyncio
import os
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, ClassVar

import msgspec
import pathspec
from msgspec import Meta

from agent_core.tools.base import PermissionKind, PlanMode, ToolContext, ToolError, ToolOutput
from agent_core.tools.nofollow import open_no_symlinks
from agent_core.tools.pathfilter import IgnoreRules, display_path

MAX_ENTRIES = 1000


class LSParams(msgspec.Struct, forbid_unknown_fields=True):
    path: Annotated[
        str | None,
        Meta(
            description="The directory to list: absolute or relative to the project root "
            "(defaults to the project root)"
        ),
    ] = None
    ignore: Annotated[
        list[str],
        Meta(description='Glob patterns to leave out, gitignore style, e.g. ["*.log", "dist/"]'),
    ] = msgspec.field(default_factory=list)


@dataclass
class TreeNode:
    """One listed entry; directories hold their listed children."""

    name: str
    is_dir: bool
    link: str | None = None
    unreadable: bool = False
    children: list[TreeNode] = field(default_factory=list)


@dataclass
class Listing:
    """The walked tree, how many entries it holds, and whether the cap cut it short."""

    root: TreeNode
    count: int
    truncated: bool


def walk_tree(
    root: Path, ignore: list[str], limit: int = MAX_ENTRIES, *, beneath: str = "/"
) -> Listing:
    """Breadth first, so a capped listing still shows every top-level entry.

    Each folder is opened with no symlink on the way below ``beneath`` (nofollow.py) and
    listed through that descriptor: a folder swapped for a link to ``~/.ssh`` meanwhile
    is shown as unreadable, never listed."""
    user_rules = pathspec.GitIgnoreSpec.from_lines(ignore) if ignore else None
    prefix = len(os.fspath(root).rstrip(os.sep)) + 1
    top = TreeNode(root.name or os.fspath(root), True)
    queue = deque([(root, top, IgnoreRules.for_directory(root))])
    count = 0
    while queue:
        directory, node, rules = queue.popleft()
        try:
            fd = open_no_symlinks(os.fspath(directory), os.O_RDONLY | os.O_DIRECTORY, root=beneath)
        except (OSError, ValueError):
            node.unreadable = True
            continue
        try:
            with os.scandir(fd) as it:
                entries = sorted(it, key=lambda e: e.name)
            links = {e.name: _link_target(e.name, fd) for e in entries if e.is_symlink()}
        except OSError:
            node.unreadable = True
            continue
        finally:
            os.close(fd)
        for entry in entries:
            is_dir = entry.is_dir(follow_symlinks=False)
            path = directory / entry.name
            if rules.ignored(path, is_dir):
                continue
            rel = os.fspath(path)[prefix:] + ("/" if is_dir else "")
            if user_rules is not None and user_rules.match_file(rel):
                continue
            if count == limit:
                return Listing(top, count, truncated=True)
            count += 1
            link = links.get(entry.name)
            child = TreeNode(entry.name, is_dir, link)
            node.children.append(child)
            if is_dir:
                queue.append((path, child, rules.descend(path)))
    return Listing(top, count, truncated=False)


def _link_target(name: str, folder: int) -> str:
    try:
        return os.readlink(name, dir_fd=folder)
    except OSError:
        return "?"


def render_tree(listing: Listing, root_label: str) -> str:
    """Claude Code's LS layout: "- name" lines, two spaces per level, dirs end in "/"."""
    lines = [f"- {root_label.rstrip('/')}/"]

    def add(node: TreeNode, depth: int) -> None:
        if node.unreadable:
            lines.append(f"{'  ' * depth}(cannot read this directory)")
        for child in sorted(node.children, key=lambda c: (not c.is_dir, c.name)):
            label = child.name + ("/" if child.is_dir else "")
            if child.link is not None:
                label += f" -> {child.link}"
            lines.append(f"{'  ' * depth}- {label}")
            add(child, depth + 1)

    add(listing.root, 1)
    if listing.count == 0 and not listing.root.unreadable:
        lines.append("  (empty directory)")
    text = "\n".join(lines)
    if listing.truncated:
        text = (
            f"There are more than {listing.count} entries here; showing the first "
            f"{listing.count}, breadth first. List a subdirectory or use Glob to see "
            "the rest.\n\n" + text
        )
    return text


class LSTool:
    """List a directory as a tree."""

    name: ClassVar[str] = "LS"
    description: ClassVar[str] = (
        'Lists files and directories under a path as a tree (directories end in "/").\n'
        "- path may be absolute or relative to the project root; it defaults to the root.\n"
        "- Skips .git and anything .gitignore excludes; ignore takes extra glob patterns "
        'to leave out, e.g. ["*.log", "dist/"].\n'
        f"- Shows at most {MAX_ENTRIES} entries, breadth first.\n"
        "- Prefer Glob and Grep when you know what you are looking for."
    )
    params: ClassVar[type[msgspec.Struct]] = LSParams
    read_only: ClassVar[bool] = True
    permission_kind: ClassVar[PermissionKind] = "read"
    rule_field: ClassVar[str | None] = "path"
    plan_mode: ClassVar[PlanMode] = "offered"

    def summary(self, args: LSParams) -> str:
        return args.path or "."

    async def run(self, args: LSParams, ctx: ToolContext) -> ToolOutput:
        # The folder the permission check resolved, listed with no symlink followed.
        target = ctx.target(args.path or ".")
        root = Path(target.path)
        if not root.exists():
            raise ToolError(f"directory not found: {args.path or root}")
        if not root.is_dir():
            raise ToolError(f"{args.path} is a file, not a directory: use Read")
        listing = await asyncio.to_thread(walk_tree, root, args.ignore, beneath=target.root)
        label = display_path(root, ctx.cwd)
        return ToolOutput(render_tree(listing, os.fspath(root) if label == "." else label))
