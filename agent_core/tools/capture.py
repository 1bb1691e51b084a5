"""Command output held within bounds: all of it when small, else head + tail + a file with everything.

Output is consumed chunk by chunk, so a command printing gigabytes costs a
bounded amount of memory; nothing is lost because the whole stream goes to
the spill file as soon as it outgrows the limit. The file is private (0600)
and redacted as it is written (a secret split between two reads is still
caught); apart from redactions it has the command's bytes as printed.
"""

from __future__ import annotations

import codecs
import hashlib
import os
import re
from pathlib import Path
from typing import BinaryIO

from agent_core.fsutil import open_private, private_dir
from agent_core.session.redact import Redactor, StreamRedactor

HEAD_SHARE = 0.4  # of the limit; the rest is tail, where errors usually are


def spill_path(session_dir: Path, call_id: str) -> Path:
    """Where a Bash call's full output goes (distinct from the context layer's spill files)."""
    stem = re.sub(r"[^A-Za-z0-9_.-]", "_", call_id)[:100].lstrip(".")
    if stem != call_id or not stem:
        stem = f"{stem}-{hashlib.sha256(call_id.encode()).hexdigest()[:8]}"
    return session_dir / "tool-results" / f"bash-{stem}.txt"


class OutputCapture:
    """Collects a stream of output bytes, spilling to a file past limit_chars."""

    def __init__(
        self, limit_chars: int, spill_to: Path, *, redactor: Redactor | None = None
    ) -> None:
        self.limit = max(limit_chars, 100)
        self.spill_to = spill_to
        self._redactor = redactor
        self.total_chars = 0
        self.spilled = False
        self._spill_error = ""
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._raw: list[bytes] = []  # until spilled, to write the file byte-exact
        self._text = ""  # everything until spilled, then the head
        self._tail = ""
        self._file: BinaryIO | None = None
        # The file's own decoding: undecodable bytes pass through unchanged.
        self._file_decoder = codecs.getincrementaldecoder("utf-8")(errors="surrogateescape")
        self._redacting: StreamRedactor | None = None
        self._head_keep = int(self.limit * HEAD_SHARE)
        self._tail_keep = self.limit - self._head_keep

    def feed(self, data: bytes) -> None:
        """Take the next chunk of output."""
        self._take(data, self._decoder.decode(data))

    def finish(self) -> None:
        """Flush a trailing partial character and close the spill file."""
        rest = self._decoder.decode(b"", final=True)
        if rest:
            self._take(b"", rest)
        if self._file is not None and self._redacting is not None:
            tail = self._file_decoder.decode(b"", final=True)
            self._write_text(self._redacting.feed(tail) + self._redacting.flush())
        if self._file is not None:
            self._file.close()
            self._file = None

    def text(self) -> str:
        """The output for the model: whole, or head + a note with the file path + tail."""
        if not self.spilled:
            return self._text
        omitted = self.total_chars - len(self._text) - len(self._tail)
        where = (
            f"saved to {self.spill_to} (use Read with offset/limit, or Grep, on it)"
            if not self._spill_error
            else f"could not be saved: {self._spill_error}"
        )
        note = f"\n\n... {omitted} chars omitted; full output ({self.total_chars} chars) {where} ...\n\n"
        return self._text + note + self._tail

    def _take(self, data: bytes, text: str) -> None:
        self.total_chars += len(text)
        if not self.spilled:
            self._raw.append(data)
            self._text += text
            if self.total_chars > self.limit:
                self._start_spill()
            return
        if self._file is not None:
            self._write(data)
        self._tail = (self._tail + text)[-self._tail_keep :]

    def _start_spill(self) -> None:
        self.spilled = True
        self._tail = self._text[-self._tail_keep :]
        self._text = self._text[: self._head_keep]
        raw, self._raw = self._raw, []
        try:
            private_dir(self.spill_to.parent)
            fd = open_private(self.spill_to, os.O_WRONLY | os.O_TRUNC)
            self._file = os.fdopen(fd, "wb")  # closed in finish()
        except OSError as exc:
            self._spill_error = exc.strerror or str(exc)
            return
        self._redacting = (self._redactor or Redactor()).stream()
        for chunk in raw:
            self._write(chunk)

    def _write(self, data: bytes) -> None:
        assert self._redacting is not None
        self._write_text(self._redacting.feed(self._file_decoder.decode(data)))

    def _write_text(self, text: str) -> None:
        if not text or self._file is None:
            return
        try:
            self._file.write(text.encode("utf-8", "surrogateescape"))
        except OSError as exc:  # disk full: keep head and tail, say the file is partial
            self._spill_error = f"{exc.strerror or exc} (file is incomplete)"
            self._file.close()
            self._file = None
