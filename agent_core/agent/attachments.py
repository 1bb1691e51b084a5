"""@-mentions in a prompt: each named file is attached to the user message, as Claude Code does.

The prompt's text stays as typed; each readable file adds a text block holding its
content, labelled with its path. A file is attached only where the Read tool could
read it without asking (the same permission layers decide), within a byte budget
per file and per prompt. What is left out gets a one-line note for the user.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import Any, Protocol

import msgspec

from agent_core.attached_files import file_block
from agent_core.events import AttachedFile
from agent_core.messages import ImageBlock, TextBlock

# "@path" or '@"path with spaces"', not part of a word or an e-mail address.
_MENTION = re.compile(r'(?<![\w@/])@("[^"\n]+"|[^\s"]+)')
_TRAILING = ".,;:!?)]}'`"  # punctuation that ends a sentence, not a path
_SNIFF_BYTES = 8192


class ReadGate(Protocol):
    """The permission layers, asked as the Read tool would ask them."""

    def decide(self, tool: Any, args_raw: dict[str, Any]) -> Any: ...


class AttachmentBudget(msgspec.Struct, frozen=True):
    """How many bytes of one file, and of all files of one prompt, are sent."""

    per_file: int = 100_000
    per_prompt: int = 256_000


class PromptAttachments(msgspec.Struct):
    """The blocks to add to the user message, what they hold, and what was left out."""

    blocks: list[TextBlock | ImageBlock] = []  # images a front end sent, then files
    files: list[AttachedFile] = []
    notes: list[str] = []


def mentions(text: str) -> list[str]:
    """The paths ``text`` @-mentions, in order, each once."""
    found: list[str] = []
    for match in _MENTION.finditer(text):
        raw = match.group(1)
        path = raw[1:-1] if raw.startswith('"') else raw.rstrip(_TRAILING)
        if path and path not in found:
            found.append(path)
    return found


def attach_mentions(
    text: str, cwd: Path, gate: ReadGate, budget: AttachmentBudget
) -> PromptAttachments:
    """Read every file ``text`` mentions that the Read permission allows, within ``budget``."""
    from agent_core.tools.read import ReadTool

    read = ReadTool()
    result = PromptAttachments()
    seen: set[Path] = set()
    left = budget.per_prompt
    for mention in mentions(text):
        path = Path(os.path.normpath(cwd / Path(mention).expanduser()))
        try:
            real = Path(os.path.realpath(path))
        except OSError:  # a link swapped while it was followed (realpath's readlink failed)
            result.notes.append(f"@{mention}: it changed while it was being read, not attached")
            continue
        if real in seen:
            continue
        seen.add(real)
        refusal = _refusal(mention, path, real, gate, read)
        if refusal is not None:
            if refusal:  # "" : not a file mention at all, say nothing
                result.notes.append(refusal)
            continue
        if left <= 0:
            result.notes.append(
                f"@{mention}: not attached: this prompt's files already use the "
                f"{_kb(budget.per_prompt)} budget (limits.attach_prompt_bytes)"
            )
            continue
        label = _label(path, cwd)
        limit_name = "attach_file_bytes" if budget.per_file <= left else "attach_prompt_bytes"
        attached = _read_block(mention, real, label, min(budget.per_file, left))
        if isinstance(attached, str):
            result.notes.append(attached)
            continue
        block, info = attached
        result.blocks.append(block)
        result.files.append(info)
        left -= info.shown
        if info.shown < info.size:
            result.notes.append(
                f"@{mention}: only the first {_kb(info.shown)} of {_kb(info.size)} attached "
                f"(limits.{limit_name}); the model can Read the rest"
            )
    return result


def _refusal(mention: str, path: Path, real: Path, gate: ReadGate, read: Any) -> str | None:
    """Why ``path`` is not attached ("" to stay silent); None when it may be read."""
    try:
        info = os.stat(real)
    except OSError:
        # "@bob" or "@pytest" is likely not a path: only a path-like mention gets a note.
        looks_like_path = "/" in mention or "." in mention
        return f"@{mention}: no such file, not attached" if looks_like_path else ""
    if stat.S_ISDIR(info.st_mode):
        return f"@{mention}: a folder, not attached (mention the files in it)"
    if not stat.S_ISREG(info.st_mode):
        return f"@{mention}: not a regular file, not attached"
    # Both the name as written and where a symlink leads must be readable.
    for candidate in dict.fromkeys([path, real]):
        verdict = gate.decide(read, {"file_path": str(candidate)})
        if verdict.decision == "deny":
            return f"@{mention}: not attached: {verdict.reason}"
        if verdict.decision != "allow":
            return (
                f"@{mention}: not attached: reading it needs your approval ({verdict.reason}); "
                "ask MewCode to Read it instead"
            )
    return None


def _read_block(
    mention: str, real: Path, label: str, limit: int
) -> tuple[TextBlock, AttachedFile] | str:
    from agent_core.tools.nofollow import PathChanged, open_no_symlinks

    try:
        # The path the Read check approved, with no symlink swapped in on the way since.
        fd = open_no_symlinks(str(real), os.O_RDONLY | os.O_NONBLOCK)
        with os.fdopen(fd, "rb") as fh:
            opened = os.fstat(fh.fileno())
            if not stat.S_ISREG(opened.st_mode):
                return f"@{mention}: not a regular file, not attached"
            size = opened.st_size
            data = fh.read(limit + 1)
    except PathChanged:
        return f"@{mention}: it changed while it was being read (a symbolic link?), not attached"
    except OSError as exc:
        return f"@{mention}: cannot read it ({exc.strerror}), not attached"
    if b"\0" in data[:_SNIFF_BYTES]:
        return f"@{mention}: a binary file ({_kb(size)}), not attached"
    if len(data) > limit:
        data = data[:limit]
        cut = data.rfind(b"\n")
        data = data[: cut + 1] if cut > 0 else data  # whole lines where there are any
    info = AttachedFile(label, size, len(data))
    return file_block(info, data.decode("utf-8", errors="replace")), info


def _label(path: Path, cwd: Path) -> str:
    """The path relative to the working folder when inside it, else absolute."""
    try:
        return str(path.relative_to(cwd))
    except ValueError:
        return str(path)


def _kb(size: int) -> str:
    return f"{size / 1000:.0f} KB" if size >= 1000 else f"{size} bytes"
