"""What the agent knows about a file it edits: read-before-write stamps and its text form.

An edit is only safe if the model saw the current content, so writes to an
existing file need a stamp recorded by Read (or by our last write) that still
matches the file on disk. Text is handled with "\\n" line ends in memory and
written back with the file's own line ending and BOM.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from agent_core.fsutil import atomic_write_bytes
from agent_core.tools.base import FileStamp, ToolContext, ToolError

_BOM = b"\xef\xbb\xbf"
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


def load_text(path: Path, label: str) -> TextFile | None:
    """The file's text, or None when it does not exist."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise ToolError(f"{label} is a directory, not a file") from None
    except OSError as exc:
        raise ToolError(f"cannot read {label}: {exc.strerror or exc}") from None
    return decode_text(data, label)


def write_text(path: Path, file: TextFile, text: str) -> None:
    """Write new content atomically (parents created) in the file's own style.

    A symlink is written through (the link stays a link) and an existing
    file keeps its permission bits, so an edited script stays executable.
    """
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        mode = None
    try:
        atomic_write_bytes(target, file.encode(text))
        if mode is not None:
            os.chmod(target, mode)
    except OSError as exc:
        raise ToolError(f"cannot write {path}: {exc.strerror or exc}") from None


def _stamp_keys(path: Path) -> list[str]:
    # Read records the symlink-free absolute path; the path as given is also
    # accepted so a stamp recorded either way is found.
    real = os.path.realpath(path)
    return [real] if real == str(path) else [real, str(path)]


def check_fresh(ctx: ToolContext, path: Path) -> None:
    """Refuse to overwrite an existing file the model has not read, or that changed since."""
    try:
        st = path.stat()
    except FileNotFoundError:
        return  # a new file needs no read
    stamp = next((ctx.file_stamps[k] for k in _stamp_keys(path) if k in ctx.file_stamps), None)
    if stamp is None:
        raise ToolError("file has not been read yet: Read it first")
    if stamp.mtime_ns != st.st_mtime_ns or stamp.size != st.st_size:
        raise ToolError("file changed on disk since it was read: Read it again")


def record_stamp(ctx: ToolContext, path: Path) -> None:
    """Remember the file as the agent last saw it (after a successful write)."""
    st = path.stat()
    stamp = FileStamp(mtime_ns=st.st_mtime_ns, size=st.st_size)
    keys = _stamp_keys(path)
    for key in [keys[0], *(k for k in keys[1:] if k in ctx.file_stamps)]:
        ctx.file_stamps[key] = stamp


def display_path(ctx: ToolContext, path: Path) -> str:
    """The path relative to the project root when inside it, else absolute."""
    norm = Path(os.path.normpath(path))
    try:
        return str(norm.relative_to(ctx.cwd))
    except ValueError:
        return str(norm)
