"""Layer 1 of context management: big tool results go to disk (docs/manual.md#sessions-and-context).

A result over the limit is saved to ``<session dir>/tool-results/<call id>.txt``
and replaced by its head plus a pointer to the file. The decision is kept in
a ledger keyed by call id and never revisited: once spilled stays spilled,
once kept stays kept. So re-applying the ledger to an old message gives the
same bytes, the history prefix never changes and the prompt cache keeps hitting.

Spill files are private (0600 in a 0700 folder) and redacted: the history's
preview is the live text the model sees, the file is what stays on disk.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import msgspec

from agent_core.fsutil import atomic_write_bytes
from agent_core.messages import ImageBlock, Message, TextBlock, ToolResultBlock
from agent_core.session.journal import AppendOnlyFile, read_lines
from agent_core.session.redact import Redactor

DEFAULT_SPILL_BYTES = 50_000
PREVIEW_CHARS = 2_000
LEDGER_NAME = "spill-ledger.jsonl"
RESULTS_DIR = "tool-results"


class SpillEntry(msgspec.Struct, frozen=True, omit_defaults=True):
    """One final decision about one tool result."""

    call_id: str
    spilled: bool
    path: str = ""
    bytes: int = 0


_decoder = msgspec.json.Decoder(SpillEntry)
_encoder = msgspec.json.Encoder()


class SpillLedger:
    """Decides, once per call id, whether a tool result stays inline or goes to disk."""

    def __init__(
        self,
        session_dir: Path,
        *,
        limit: int = DEFAULT_SPILL_BYTES,
        redactor: Redactor | None = None,
    ) -> None:
        self.session_dir = session_dir
        self.limit = limit
        self._redactor = redactor
        self._entries: dict[str, SpillEntry] = {}
        self._file: AppendOnlyFile | None = None
        self._load()

    @property
    def ledger_path(self) -> Path:
        return self.session_dir / LEDGER_NAME

    def decision(self, call_id: str) -> SpillEntry | None:
        """The recorded decision for a call, if one was made."""
        return self._entries.get(call_id)

    def apply(self, call_id: str, content: str) -> str:
        """The text history should hold for this result (a preview if spilled)."""
        entry = self._entries.get(call_id)
        if entry is None:
            entry = self._decide(call_id, content)
        if not entry.spilled:
            return content
        return spill_preview(content, entry.path, entry.bytes)

    def apply_block(self, block: ToolResultBlock) -> ToolResultBlock:
        """A tool result with the ledger applied (images are kept as they are)."""
        if isinstance(block.content, str):
            text = self.apply(block.tool_use_id, block.content)
            if text is block.content:
                return block
            return ToolResultBlock(block.tool_use_id, text, block.is_error)
        texts = [b.text for b in block.content if isinstance(b, TextBlock)]
        joined = "\n".join(texts)
        text = self.apply(block.tool_use_id, joined)
        if text is joined:
            return block
        images = [b for b in block.content if isinstance(b, ImageBlock)]
        return ToolResultBlock(block.tool_use_id, [TextBlock(text), *images], block.is_error)

    def apply_message(self, msg: Message) -> Message:
        """A message with every tool result in it passed through the ledger."""
        blocks = [self.apply_block(b) if isinstance(b, ToolResultBlock) else b for b in msg.content]
        if all(a is b for a, b in zip(blocks, msg.content, strict=True)):
            return msg
        return Message(role=msg.role, content=blocks)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def _decide(self, call_id: str, content: str) -> SpillEntry:
        size = len(content.encode("utf-8", "surrogatepass"))
        if size <= self.limit:
            entry = SpillEntry(call_id, spilled=False)
        else:
            if self._redactor is None:
                self._redactor = Redactor()
            path = self.session_dir / RESULTS_DIR / f"{_file_stem(call_id)}.txt"
            # The file is written before the ledger says it exists.
            size = write_spill_file(path, content, self._redactor)
            entry = SpillEntry(call_id, spilled=True, path=str(path), bytes=size)
        self._record(entry)
        return entry

    def _record(self, entry: SpillEntry) -> None:
        self._entries[entry.call_id] = entry
        if self._file is None:
            self._file = AppendOnlyFile(self.ledger_path)
        self._file.append(_encoder.encode(entry) + b"\n")

    def _load(self) -> None:
        if not self.ledger_path.is_file():
            return
        for _number, line, _complete in read_lines(self.ledger_path):
            try:
                entry = _decoder.decode(line)
            except (msgspec.DecodeError, msgspec.ValidationError):
                continue  # a torn line: that result will be decided again, the same way
            self._entries.setdefault(entry.call_id, entry)


def write_spill_file(path: Path, content: str, redactor: Redactor) -> int:
    """Save ``content`` redacted, privately and atomically; return the file's size in bytes."""
    data = redactor.text(content).encode("utf-8", "surrogatepass")
    atomic_write_bytes(path, data, private=True)
    return len(data)


def spill_message_text(
    session_dir: Path, text: str, *, limit: int, redactor: Redactor
) -> str | None:
    """A message text over ``limit`` bytes saved like a tool result: its preview, else None.

    The file is named by the text's hash, so a message saved again (a resume,
    a fork) reuses its file instead of writing another copy.
    """
    if len(text) <= limit // 4 or len(text.encode("utf-8", "surrogatepass")) <= limit:
        return None  # a character is at most 4 bytes: short texts skip the encode
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:20]
    path = session_dir / RESULTS_DIR / f"message-{digest}.txt"
    if path.is_file():
        size = path.stat().st_size
    else:
        size = write_spill_file(path, text, redactor)
    return spill_preview(text, str(path), size, what="message")


def spill_preview(content: str, path: str, size: int, *, what: str = "output") -> str:
    """The head of a spilled result (or message) and where the whole of it is."""
    head = content[:PREVIEW_CHARS]
    cut = head.rfind("\n")
    if cut > PREVIEW_CHARS // 2:
        head = head[:cut]
    return (
        f"{head}\n[... {what} truncated]\n"
        f"full {what} saved to {path} ({size} bytes); read it with Read"
    )


def _file_stem(call_id: str) -> str:
    stem = re.sub(r"[^A-Za-z0-9_.-]", "_", call_id)[:100].lstrip(".")
    if stem != call_id or not stem:
        stem = f"{stem}-{hashlib.sha256(call_id.encode()).hexdigest()[:8]}"
    return stem
