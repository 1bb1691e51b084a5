"""The Glob tool: file paths matching a glob, newest first, via `rg --files`."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Annotated, ClassVar

import msgspec
from msgspec import Meta

from agent_core.tools.base import PermissionKind, PlanMode, ToolContext, ToolError, ToolOutput
from agent_core.tools.globmatch import GlobSyntaxError, compile_glob
from agent_core.tools.pathfilter import display_path
from agent_core.tools.ripgrep import rg_error, run_rg

MAX_RESULTS = 1000
_MAGIC = frozenset("*?[{")


class GlobParams(msgspec.Struct, forbid_unknown_fields=True):
    pattern: Annotated[
        str,
        Meta(description='The glob to match file paths against, e.g. "**/*.py" or "src/**/*.ts"'),
    ]
    path: Annotated[
        str | None,
        Meta(description="The directory to search in; defaults to the project root"),
    ] = None


def split_pattern(pattern: str) -> tuple[str, str]:
    """Split a glob into its literal leading directories and the rest.

    "src/**/*.ts" -> ("src", "**/*.ts"); "/abs/dir/*.py" -> ("/abs/dir", "*.py").
    Searching from the literal part keeps rg from walking unrelated trees.
    """
    parts = pattern.split("/")
    literal: list[str] = []
    for part in parts[:-1]:
        if _MAGIC.intersection(part):
            break
        literal.append(part)
    rest = "/".join(parts[len(literal) :]) or "**"
    prefix = "/".join(literal)
    if pattern.startswith("/") and not prefix:
        prefix = "/"
    return prefix, rest


# Every non-ignored file under the search root; the glob is matched in Python because
# an rg --glob that names a path would override .gitignore (see globmatch).
RG_LIST_FILES = ["--files", "--hidden", "--color=never", "--glob", "!.git"]
# File lists are small per entry but a monorepo has many entries.
MAX_LISTING_BYTES = 64 * 1024 * 1024


class GlobTool:
    """Find files by name pattern."""

    name: ClassVar[str] = "Glob"
    description: ClassVar[str] = (
        "Fast file pattern matching that works with any codebase size.\n"
        '- Supports glob patterns like "**/*.js" or "src/**/*.ts"; "*" does not cross '
        'directories, so use "**/" to match at any depth. Braces work: "**/*.{ts,tsx}".\n'
        "- Returns matching file paths sorted by modification time, newest first "
        f"(at most {MAX_RESULTS}).\n"
        "- Honours .gitignore and skips .git; hidden files are included.\n"
        "- Use this tool when you need to find files by name. To search file contents use "
        "Grep; for open-ended searches that need several rounds, use the Task tool."
    )
    params: ClassVar[type[msgspec.Struct]] = GlobParams
    read_only: ClassVar[bool] = True
    permission_kind: ClassVar[PermissionKind] = "read"
    rule_field: ClassVar[str | None] = "path"
    plan_mode: ClassVar[PlanMode] = "offered"

    def summary(self, args: GlobParams) -> str:
        return f"{args.pattern} in {args.path}" if args.path else args.pattern

    async def run(self, args: GlobParams, ctx: ToolContext) -> ToolOutput:
        pattern = args.pattern.strip()
        if not pattern:
            raise ToolError("pattern is empty")
        if pattern.startswith("~"):
            pattern = os.path.expanduser(pattern)
        prefix, rest = split_pattern(pattern.removeprefix("./"))
        # The folder the permission check resolved; rg runs under the OS sandbox.
        start = Path(ctx.target(args.path).path) if args.path else ctx.cwd
        base = Path(os.path.normpath(start / prefix if prefix else start))
        if not ctx.cwd.is_dir():
            raise ToolError(f"working directory no longer exists: {ctx.cwd}")
        if not base.is_dir():
            raise ToolError(f"directory not found: {display_path(base, ctx.cwd)}")
        try:
            matcher = compile_glob(rest)
        except GlobSyntaxError as exc:
            raise ToolError(f"bad glob {args.pattern!r}: {exc}") from None
        result = await run_rg(
            RG_LIST_FILES,
            base,
            ctx.cancel,
            max_bytes=MAX_LISTING_BYTES,
            policy=ctx.state.sandbox_policy,
        )
        if result.returncode == 2 and not result.stdout:
            raise ToolError(rg_error(result.stderr))
        listed = os.fsdecode(result.stdout).splitlines()
        names = [name for name in listed if matcher.fullmatch(name)]
        if not names:
            return ToolOutput("No files found")
        ranked = await asyncio.to_thread(_newest_first, base, names)
        return ToolOutput(_listing(ranked, ctx.cwd, len(names), result.cut))


def _newest_first(base: Path, names: list[str]) -> list[Path]:
    stamped: list[tuple[int, str]] = []
    root = os.fspath(base)
    for name in names:
        full = os.path.join(root, name)
        try:
            stamped.append((-os.stat(full).st_mtime_ns, full))
        except OSError:
            continue  # vanished since rg listed it
    stamped.sort()
    return [Path(full) for _, full in stamped]


def _listing(paths: list[Path], cwd: Path, total: int, cut: bool) -> str:
    shown = [_printable(display_path(p, cwd)) for p in paths[:MAX_RESULTS]]
    text = "\n".join(shown)
    if len(paths) > MAX_RESULTS or cut:
        count = f"{total}+" if cut else str(total)
        text += (
            f"\n\n(Results are truncated: showing the {MAX_RESULTS} newest of {count} files. "
            "Use a more specific pattern or path.)"
        )
    return text


def _printable(name: str) -> str:
    """Undecodable bytes in a file name shown as U+FFFD so the text stays valid UTF-8."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return name
