"""The Read tool: numbered lines of a text file, or an image as an image block."""

from __future__ import annotations

import asyncio
import os
from typing import IO, Annotated, ClassVar

import msgspec
from msgspec import Meta

from agent_core.messages import ImageBlock, TextBlock
from agent_core.tools.base import (
    CheckedPath,
    FileStamp,
    PermissionKind,
    PlanMode,
    ToolContext,
    ToolError,
    ToolOutput,
)
from agent_core.tools.filestate import open_regular
from agent_core.tools.imagefit import ImageError, fit_image, sniff_image

DEFAULT_LIMIT = 2000
MAX_LINE_CHARS = 2000
# A UTF-8 character is at most 4 bytes: this many bytes always hold MAX_LINE_CHARS + 1.
_MAX_LINE_BYTES = 4 * MAX_LINE_CHARS + 4
_SNIFF_BYTES = 8192
_COUNT_CHUNK = 1 << 20
# Past what is shown, lines are counted this far at most: a huge (or sparse) file must
# not be read to its end for a line count.
MAX_COUNTED_BYTES = 64 << 20
MAX_IMAGE_BYTES = 32 << 20
LINE_CUT_MARKER = "… [line truncated]"
NonNegative = Annotated[int, Meta(ge=0)]
Positive = Annotated[int, Meta(ge=1)]


class ReadParams(msgspec.Struct, forbid_unknown_fields=True):
    file_path: Annotated[
        str, Meta(description="The file to read: absolute, or relative to the project root")
    ]
    offset: Annotated[
        NonNegative | None,
        Meta(description="The line number to start reading from (1 = first line)"),
    ] = None
    limit: Annotated[
        Positive | None,
        Meta(description=f"How many lines to read (default {DEFAULT_LIMIT})"),
    ] = None


class ReadTool:
    """Read a file from the local filesystem."""

    name: ClassVar[str] = "Read"
    description: ClassVar[str] = (
        "Reads a file from the local filesystem.\n"
        "- file_path may be absolute or relative to the project root.\n"
        f"- By default reads up to {DEFAULT_LIMIT} lines from the start of the file. For long "
        "files, pass offset (a 1-based line number) and limit to read a part; it is usually "
        "better to read the whole file.\n"
        f"- Lines longer than {MAX_LINE_CHARS} characters are truncated.\n"
        "- Output is numbered like cat -n: line number, a tab, then the line. The number "
        "and tab are not part of the file: never include them in an Edit's old_string.\n"
        "- Images (PNG, JPEG, GIF, WebP) are returned as images you can see.\n"
        "- It reads files only: list a directory with LS, find files with Glob.\n"
        "- You may read several files at once by calling Read in parallel.\n"
        "- A file must be Read before it is edited or overwritten."
    )
    params: ClassVar[type[msgspec.Struct]] = ReadParams
    read_only: ClassVar[bool] = True
    permission_kind: ClassVar[PermissionKind] = "read"
    rule_field: ClassVar[str | None] = "file_path"
    plan_mode: ClassVar[PlanMode] = "offered"

    def summary(self, args: ReadParams) -> str:
        if args.offset or args.limit:
            start = args.offset or 1
            end = f"{start + args.limit - 1}" if args.limit else ""
            return f"{args.file_path}:{start}-{end}"
        return args.file_path

    async def run(self, args: ReadParams, ctx: ToolContext) -> ToolOutput:
        target = ctx.target(args.file_path)
        output, stamp = await asyncio.to_thread(_read, target, args)
        ctx.file_stamps[target.path] = stamp
        return output


def _read(target: CheckedPath, args: ReadParams) -> tuple[ToolOutput, FileStamp]:
    # What was checked, opened with no symlink on the way; then checked, stamped and
    # read through that one descriptor.
    try:
        fd, info = open_regular(target, args.file_path, "a directory: use LS to list it")
    except FileNotFoundError:
        raise ToolError(f"file not found: {args.file_path}") from None
    try:
        with os.fdopen(fd, "rb") as fh:
            stamp = FileStamp(info.st_mtime_ns, info.st_size)
            head = fh.read(_SNIFF_BYTES)
            media_type = sniff_image(head)
            if media_type is not None:
                if info.st_size > MAX_IMAGE_BYTES:
                    raise ToolError(
                        f"image too large ({info.st_size} bytes; at most {MAX_IMAGE_BYTES})"
                    )
                return _image(head + fh.read(MAX_IMAGE_BYTES), media_type), stamp
            if b"\0" in head:
                raise ToolError(f"binary file ({info.st_size} bytes): not shown")
            fh.seek(0)
            return ToolOutput(_numbered(fh, args)), stamp
    except PermissionError:
        raise ToolError(f"permission denied: {args.file_path}") from None
    except OSError as exc:
        raise ToolError(f"cannot read {args.file_path}: {exc.strerror}") from None


def _image(data: bytes, media_type: str) -> ToolOutput:
    try:
        fitted = fit_image(data, media_type)
    except ImageError as exc:
        raise ToolError(str(exc)) from None
    caption = f"Image ({fitted.media_type}, {len(data)} bytes)"
    if fitted.note:
        caption += f"; it was scaled down: {fitted.note}"
    block = ImageBlock(fitted.media_type, fitted.data, note=fitted.note)
    return ToolOutput([TextBlock(caption), block])


def _numbered(fh: IO[bytes], args: ReadParams) -> str:
    """The requested lines as `cat -n` output, with notes on what was left out."""
    start = max(args.offset or 1, 1)
    limit = args.limit or DEFAULT_LIMIT
    shown: list[str] = []
    number = 0
    for number, (raw, cut) in enumerate(_lines(fh), start=1):
        if number < start:
            continue
        text = raw.decode("utf-8", errors="replace").rstrip("\r\n")
        if number == 1:
            text = text.removeprefix("\ufeff")
        if cut or len(text) > MAX_LINE_CHARS:
            text = text[:MAX_LINE_CHARS] + LINE_CUT_MARKER
        shown.append(f"{number:>6}\t{text}")
        if len(shown) == limit:
            break
    if not shown:
        if number == 0:
            return "(the file exists but is empty)"
        noun = "line" if number == 1 else "lines"
        return f"(offset {start} is past the end of the file: it has {number} {noun})"
    last = start + len(shown) - 1
    remaining, counted_all = _count_lines(fh)
    body = "\n".join(shown)
    if not counted_all:
        body += (
            f"\n\n(Showing lines {start}-{last}; the file goes on for at least {remaining} "
            f"more lines (not counted past {MAX_COUNTED_BYTES >> 20} MB). Use offset={last + 1} "
            "to read on.)"
        )
    elif remaining:
        total = last + remaining
        body += (
            f"\n\n(Showing lines {start}-{last} of {total}; {remaining} more lines. "
            f"Use offset={last + 1} to read on.)"
        )
    return body


def _lines(fh: IO[bytes]):
    """(line bytes, cut) pairs; an over-long line is cut and the rest skipped unread."""
    while part := fh.readline(_MAX_LINE_BYTES):
        if part.endswith(b"\n") or len(part) < _MAX_LINE_BYTES:
            yield part, False
            continue
        skipped = 0
        while rest := fh.readline(_COUNT_CHUNK):
            skipped += len(rest)
            if rest.endswith(b"\n") or skipped >= MAX_COUNTED_BYTES:
                break  # the rest of a huge line is not read to its end
        yield part, True


def _count_lines(fh: IO[bytes]) -> tuple[int, bool]:
    """How many lines remain from the current position (to the end, or to
    MAX_COUNTED_BYTES), and whether that was the end."""
    count = 0
    last = b"\n"
    read = 0
    while chunk := fh.read(_COUNT_CHUNK):
        count += chunk.count(b"\n")
        last = chunk[-1:]
        read += len(chunk)
        if read >= MAX_COUNTED_BYTES:
            return count, False
    return count + (last != b"\n"), True
