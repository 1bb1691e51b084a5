"""The Grep tool: ripgrep content search with Claude Code's parameters."""

from __future__ import annotations

import asyncio
import os
import re
from pathlib import Path
from typing import Annotated, ClassVar, Literal

import msgspec
from msgspec import Meta

from agent_core.tools.base import PermissionKind, PlanMode, ToolContext, ToolError, ToolOutput
from agent_core.tools.pathfilter import relative_under
from agent_core.tools.ripgrep import MAX_OUTPUT_BYTES, rg_error, run_rg

OutputMode = Literal["content", "files_with_matches", "count"]
NonNegative = Annotated[int, Meta(ge=0)]
NO_MATCHES = "No matches found"
# Lines longer than this (minified code, data) show a preview instead of the whole line.
MAX_COLUMNS = 500


class GrepParams(msgspec.Struct, forbid_unknown_fields=True):
    pattern: Annotated[
        str, Meta(description="The regular expression to search for in file contents")
    ]
    path: Annotated[
        str | None,
        Meta(description="File or directory to search in; defaults to the project root"),
    ] = None
    glob: Annotated[
        str | None,
        Meta(description='Glob to filter files, e.g. "*.js" or "*.{ts,tsx}" (rg --glob)'),
    ] = None
    type: Annotated[
        str | None,
        Meta(description='File type to search, e.g. "py", "js", "rust" (rg --type)'),
    ] = None
    output_mode: Annotated[
        OutputMode,
        Meta(
            description='"content" shows matching lines, "files_with_matches" shows file '
            'paths (default), "count" shows match counts per file'
        ),
    ] = "files_with_matches"
    case_insensitive: Annotated[bool, Meta(description="Case-insensitive search (rg -i)")] = (
        msgspec.field(default=False, name="-i")
    )
    line_numbers: Annotated[
        bool, Meta(description='Show line numbers (rg -n); output_mode "content" only')
    ] = msgspec.field(default=True, name="-n")
    after: Annotated[
        NonNegative | None,
        Meta(description='Lines to show after each match (rg -A); "content" only'),
    ] = msgspec.field(default=None, name="-A")
    before: Annotated[
        NonNegative | None,
        Meta(description='Lines to show before each match (rg -B); "content" only'),
    ] = msgspec.field(default=None, name="-B")
    context: Annotated[
        NonNegative | None,
        Meta(description='Lines to show around each match (rg -C); "content" only'),
    ] = msgspec.field(default=None, name="-C")
    head_limit: Annotated[
        NonNegative | None,
        Meta(
            description="Keep only the first N lines/entries of the output, like | head -N; "
            "0 or unset means no limit",
        ),
    ] = None
    multiline: Annotated[
        bool,
        Meta(description="Let patterns span lines and . match newlines (rg -U --multiline-dotall)"),
    ] = False


def split_globs(glob: str) -> list[str]:
    """Several globs in one string ("*.py *.md", "*.py,*.md"); braces keep their commas."""
    globs: list[str] = []
    for part in glob.split():
        globs.extend(re.split(r",(?![^{]*\})", part))
    return [g for g in globs if g]


def rg_arguments(args: GrepParams, target: str | None) -> list[str]:
    """The rg command line (without the executable) for a Grep call."""
    cmd = ["--color=never", "--no-heading", "--with-filename", "--hidden"]
    cmd += [f"--max-columns={MAX_COLUMNS}", "--max-columns-preview"]
    if args.output_mode == "files_with_matches":
        cmd.append("--files-with-matches")
    elif args.output_mode == "count":
        cmd.append("--count")
    else:
        if args.line_numbers:
            cmd.append("--line-number")
        if args.context is not None:
            cmd.append(f"--context={args.context}")
        else:
            if args.after is not None:
                cmd.append(f"--after-context={args.after}")
            if args.before is not None:
                cmd.append(f"--before-context={args.before}")
    if args.case_insensitive:
        cmd.append("--ignore-case")
    if args.multiline:
        cmd += ["--multiline", "--multiline-dotall"]
    for glob in split_globs(args.glob or ""):
        cmd += ["--glob", glob]
    cmd += ["--glob", "!.git"]  # later globs win, so this holds whatever the user asked
    if args.type:
        cmd += ["--type", args.type]
    cmd += ["--regexp", args.pattern]
    if target is not None:
        cmd += ["--", target]
    return cmd


def search_target(args: GrepParams, ctx: ToolContext) -> str | None:
    """What rg should search, as written relative to cwd when under it (None: all of cwd)."""
    if not args.path:
        return None
    # The path the permission check resolved, not the name again (a symlink swapped in
    # meanwhile would lead elsewhere); rg itself runs under the OS sandbox.
    resolved = Path(ctx.target(args.path).path)
    if not os.path.lexists(resolved):
        raise ToolError(f"path not found: {args.path}")
    rel = relative_under(resolved, Path(os.path.realpath(ctx.cwd)))
    if rel is None:
        return str(resolved)
    return None if rel == "." else rel


class GrepTool:
    """Search file contents with ripgrep."""

    name: ClassVar[str] = "Grep"
    description: ClassVar[str] = (
        "A powerful search tool built on ripgrep.\n"
        "- ALWAYS use Grep for search tasks; never run grep or rg through Bash.\n"
        '- Supports full regex syntax (e.g. "log.*Error", "function\\s+\\w+"). Literal braces '
        'need escaping: use "interface\\{\\}" to find "interface{}".\n'
        '- Filter files with glob (e.g. "*.js", "**/*.tsx") or type (e.g. "py", "js", "rust").\n'
        '- output_mode: "files_with_matches" (default) lists matching files, newest first; '
        '"content" shows matching lines (supports -A/-B/-C context, -n line numbers); '
        '"count" shows matches per file.\n'
        "- Patterns match within single lines; set multiline: true for patterns that span "
        "lines, such as struct \\{[\\s\\S]*?field.\n"
        "- Honours .gitignore and skips .git; hidden files are searched.\n"
        "- Use head_limit to keep large outputs short. For open-ended searches that need "
        "several rounds, use the Task tool."
    )
    params: ClassVar[type[msgspec.Struct]] = GrepParams
    read_only: ClassVar[bool] = True
    permission_kind: ClassVar[PermissionKind] = "read"
    rule_field: ClassVar[str | None] = "path"
    plan_mode: ClassVar[PlanMode] = "offered"

    def summary(self, args: GrepParams) -> str:
        where = f" in {args.path}" if args.path else ""
        only = f" ({args.glob or args.type})" if args.glob or args.type else ""
        return f'"{args.pattern}"{where}{only}'

    async def run(self, args: GrepParams, ctx: ToolContext) -> ToolOutput:
        target = search_target(args, ctx)
        limit = args.head_limit or None
        streamed_cap = limit if args.output_mode != "files_with_matches" else None
        result = await run_rg(
            rg_arguments(args, target),
            ctx.cwd,
            ctx.cancel,
            max_lines=streamed_cap,
            policy=ctx.state.sandbox_policy,
        )
        if result.returncode == 2 and not result.stdout:
            raise ToolError(rg_error(result.stderr))
        text = result.stdout.decode("utf-8", errors="replace")
        if not text:
            return ToolOutput(NO_MATCHES)
        if args.output_mode == "files_with_matches":
            listing = await _files_listing(text, ctx.cwd, limit)
            return ToolOutput(listing + (_cut_note(None, "files") if result.cut else ""))
        if args.output_mode == "count":
            return ToolOutput(_count_listing(text, result.cut, limit))
        return ToolOutput(_content_listing(text, result.cut, limit))


async def _files_listing(text: str, cwd: Path, limit: int | None) -> str:
    files = text.splitlines()
    if len(files) > 1:
        # Many stats are slow on network disks: keep the event loop free.
        files = await asyncio.to_thread(newest_first, files, cwd)
    total = len(files)
    shown = files[:limit] if limit else files
    noun = "file" if total == 1 else "files"
    head = f"Found {total} {noun}" + (
        f" (showing the first {len(shown)})" if len(shown) < total else ""
    )
    return head + "\n" + "\n".join(shown)


def newest_first(paths: list[str], cwd: Path) -> list[str]:
    """Paths (relative to cwd or absolute) by modification time, newest first."""
    base = os.fspath(cwd)

    def mtime(p: str) -> int:
        try:
            return os.stat(os.path.join(base, p)).st_mtime_ns
        except OSError:
            return 0

    stamped = sorted((-mtime(p), p) for p in paths)
    return [p for _, p in stamped]


def _count_listing(text: str, cut: bool, limit: int | None) -> str:
    lines = text.rstrip("\n").split("\n")
    total = 0
    for line in lines:
        _, _, count = line.rpartition(":")
        total += int(count) if count.isdigit() else 0
    body = "\n".join(lines)
    if cut:
        return body + _cut_note(limit, "files")
    noun = "file" if len(lines) == 1 else "files"
    return f"{body}\n\nFound {total} matching lines in {len(lines)} {noun}"


def _content_listing(text: str, cut: bool, limit: int | None) -> str:
    body = text.rstrip("\n")
    return body + _cut_note(limit, "lines") if cut else body


def _cut_note(limit: int | None, unit: str) -> str:
    if limit:
        return f"\n\n(showing the first {limit} {unit}; there are more: raise head_limit)"
    size = MAX_OUTPUT_BYTES // (1024 * 1024)
    return f"\n\n(output stopped after {size} MB; narrow the search with path, glob or type)"
