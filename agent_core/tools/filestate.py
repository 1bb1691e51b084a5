"""What the agent knows about a file it edits: read-before-write stamps and its text form.

An edit is only safe if the model saw the current content, so writes to an
existing file need a stamp recorded by Read (or by our last write) that still
matches the file on disk. Text is handled with "\\n" line ends in memory and
written back with the file's own line ending and BOM. The file is the one the
permission check resolved, opened with no symlink on the way (nofollow.py), and
its stamp is taken from the descriptor it is read through.
"""

from __future__ import annotations

import os
import stat
import time
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from agent_core import own_writes
from agent_core.fsutil import fsync_dir
from agent_core.tools.base import CheckedPath, FileStamp, ToolContext, ToolError
from agent_core.tools.nofollow import PathChanged, open_no_symlinks, open_parent_dir

_BOM = b"\xef\xbb\xbf"
MAX_EDIT_BYTES = 16 << 20  # Write, Edit and MultiEdit hold the whole file in memory
_SNIFF_BYTES = 8192


@dataclass(frozen=True)
class TextFile:
    """A UTF-8 text file's content with "\\n" line ends, and how to write it back."""

    text: str
    newline: str = "\n"  # "\r\n" when the file uses Windows line endings
    bom: bool = False

    def encode(self, text: str) -> bytes:
        """Bytes for new content, in this file's line-ending style and BOM."""
        if self.newline == "\r\n":
            text = text.replace("\r\n", "\n").replace("\n", "\r\n")
        data = text.encode("utf-8")
        return _BOM + data if self.bom else data


def decode_text(data: bytes, label: str) -> TextFile:
    """Decode file bytes as UTF-8 text; binary or non-UTF-8 content is refused."""
    if b"\x00" in data[:_SNIFF_BYTES]:
        raise ToolError(f"{label} is a binary file: it cannot be edited as text")
    bom = data.startswith(_BOM)
    try:
        text = data[len(_BOM) if bom else 0 :].decode("utf-8")
    except UnicodeDecodeError:
        raise ToolError(f"{label} is not UTF-8 text: it cannot be edited") from None
    crlf = text.count("\r\n")
    # The majority line ending wins; a file with a few stray CRLFs stays LF.
    if crlf and crlf * 2 > text.count("\n"):
        return TextFile(text.replace("\r\n", "\n"), "\r\n", bom)
    return TextFile(text, "\n", bom)


class OnDisk(NamedTuple):
    """A checked file as read through one descriptor: its text, stamp and identity."""

    text: TextFile | None  # None: no such file yet
    stamp: FileStamp | None
    ident: tuple[int, int] | None  # (device, inode), to see it replaced before a write
    mode: int | None


def open_regular(target: CheckedPath, label: str, as_dir: str) -> tuple[int, os.stat_result]:
    """(fd, its stat) of the regular file at ``target``, opened with no symlink on the way;
    FileNotFoundError when there is none, ToolError for anything else (``as_dir``: what a
    directory is called). O_NONBLOCK: a FIFO must not block the open."""
    try:
        fd = open_no_symlinks(target.path, os.O_RDONLY | os.O_NONBLOCK, root=target.root)
    except FileNotFoundError:
        raise
    except IsADirectoryError:
        raise ToolError(f"{label} is {as_dir}") from None
    except PathChanged:
        raise ToolError(_changed(label)) from None
    except PermissionError:
        raise ToolError(f"permission denied: {label}") from None
    except OSError as exc:
        raise ToolError(f"cannot read {label}: {exc.strerror or exc}") from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        if stat.S_ISDIR(info.st_mode):
            raise ToolError(f"{label} is {as_dir}")
        raise ToolError(f"{label} is not a regular file")  # a FIFO or device never ends
    return fd, info


def load_checked(target: CheckedPath, label: str) -> OnDisk:
    """The file at ``target``, opened with no symlink on the way and read through that fd."""
    try:
        fd, info = open_regular(target, label, "a directory, not a file")
    except FileNotFoundError:
        return OnDisk(None, None, None, None)
    if info.st_size > MAX_EDIT_BYTES:
        os.close(fd)
        raise ToolError(
            f"{label} is too large to edit as text ({info.st_size >> 20} MB; at most "
            f"{MAX_EDIT_BYTES >> 20} MB): change it with a command"
        )
    with os.fdopen(fd, "rb") as fh:
        try:
            data = fh.read(MAX_EDIT_BYTES + 1)
        except OSError as exc:
            raise ToolError(f"cannot read {label}: {exc.strerror or exc}") from None
    return OnDisk(
        decode_text(data, label),
        FileStamp(info.st_mtime_ns, info.st_size),
        (info.st_dev, info.st_ino),
        stat.S_IMODE(info.st_mode),
    )


def _changed(label: str) -> str:
    return (
        f"{label} changed while it was being opened (a symbolic link appeared on the way): "
        "nothing was read or written; Read it again"
    )


def write_checked(target: CheckedPath, before: OnDisk, file: TextFile, text: str, label: str):
    """Write new content where ``target`` was checked, atomically, through a folder fd
    opened with no symlink on the way (missing folders made the same way): a temp file
    made there, then renamed over the name, which never follows a link. Refused if the
    file is no longer the one read. Returns the new file's stamp."""
    try:
        folder, name = open_parent_dir(target.path, root=target.root, create=True)
    except PathChanged:
        raise ToolError(_changed(label)) from None
    except OSError as exc:
        raise ToolError(f"cannot write {label}: {exc.strerror or exc}") from None
    try:
        try:
            now = os.stat(name, dir_fd=folder, follow_symlinks=False)
            ident: tuple[int, int] | None = (now.st_dev, now.st_ino)
        except FileNotFoundError:
            ident = None
        if ident != before.ident:
            raise ToolError(f"{label} changed on disk while it was being edited: Read it again")
        tmp = f".{name}.{os.getpid()}.{time.monotonic_ns()}.tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                     0o666, dir_fd=folder)  # fmt: skip
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(file.encode(text))
                fh.flush()
                if before.mode is not None:
                    os.fchmod(fh.fileno(), before.mode)  # an edited script stays executable
                os.fsync(fh.fileno())
                info = os.fstat(fh.fileno())
            os.rename(tmp, name, src_dir_fd=folder, dst_dir_fd=folder)
        except BaseException:
            try:
                os.unlink(tmp, dir_fd=folder)
            except OSError:
                pass
            raise
        fsync_dir(Path("."), dir_fd=folder)
    except OSError as exc:
        raise ToolError(f"cannot write {label}: {exc.strerror or exc}") from None
    finally:
        os.close(folder)
    own_writes.note(target.path)
    return FileStamp(info.st_mtime_ns, info.st_size)


def check_fresh(ctx: ToolContext, target: CheckedPath, raw: Path, on_disk: OnDisk) -> None:
    """Refuse to overwrite an existing file the model has not read, or that changed since
    (the stamp of the descriptor the file was just read through, not a fresh stat)."""
    if on_disk.stamp is None:
        return  # a new file needs no read
    keys = dict.fromkeys([target.path, str(raw), os.path.realpath(raw)])
    stamp = next((ctx.file_stamps[k] for k in keys if k in ctx.file_stamps), None)
    if stamp is None:
        raise ToolError("file has not been read yet: Read it first")
    if stamp.mtime_ns != on_disk.stamp.mtime_ns or stamp.size != on_disk.stamp.size:
        raise ToolError("file changed on disk since it was read: Read it again")


def record_stamp(ctx: ToolContext, target: CheckedPath, raw: Path, stamp: FileStamp) -> None:
    """Remember the file as the agent last saw it (after a successful write)."""
    ctx.file_stamps[target.path] = stamp
    if str(raw) in ctx.file_stamps:
        ctx.file_stamps[str(raw)] = stamp


def display_path(ctx: ToolContext, path: Path) -> str:
    """The path relative to the project root when inside it, else absolute."""
    norm = Path(os.path.normpath(path))
    try:
        return str(norm.relative_to(ctx.cwd))
    except ValueError:
        return str(norm)
