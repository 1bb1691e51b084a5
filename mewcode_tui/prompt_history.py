"""The prompts typed in a project, kept across runs for ↑/↓ and Ctrl+R.

One JSONL file a project, ``MEWCODE_HOME/history/<project key>.jsonl``: a line
``{"text": ...}`` a prompt, oldest first, 0600 in a 0700 folder like every home
file. Secrets are redacted before a prompt is written (the same redactor as
sessions), so what comes back after a restart is the redacted text; within one
run the prompt input keeps what was typed. The file keeps the newest
``MAX_ENTRIES``: it is cut back when it has grown a tenth past that.

Composition level, like session_start.py: the UI proper gets a ``PromptHistory``
(widgets/prompt_input.py) and never this module, which imports the core's
redactor.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agent_core.config.paths import MewcodePaths
    from agent_core.session.redact import Redactor

log = logging.getLogger("mewcode.tui")

MAX_ENTRIES = 1000
HISTORY_DIR = "history"


class PromptHistoryFile:
    """A project's prompt history on disk, read once when first asked."""

    def __init__(
        self,
        path: Path,
        *,
        home: Path | None = None,
        cap: int = MAX_ENTRIES,
        redactor: Redactor | None = None,
    ) -> None:
        self.path = path
        self._home = home  # MEWCODE_HOME: tightened to 0700 down to the file's folder
        self.cap = cap
        self._redactor = redactor
        self._entries: list[str] | None = None
        self._lines = 0  # lines in the file, to know when to cut it back

    @classmethod
    def for_project(cls, paths: MewcodePaths, cap: int = MAX_ENTRIES) -> PromptHistoryFile:
        path = paths.home / HISTORY_DIR / f"{paths.project_key}.jsonl"
        return cls(path, home=paths.home, cap=cap)

    def entries(self) -> list[str]:
        """The prompts, oldest first (the newest ``cap``)."""
        if self._entries is None:
            self._entries = self._read()
        return self._entries

    def add(self, text: str) -> None:
        """Remember ``text`` (redacted on disk); a repeat of the last prompt is not added."""
        entries = self.entries()
        if entries and entries[-1] == text:
            return
        entries.append(text)
        del entries[: -self.cap]
        try:
            self._append(self._redact(text))
        except OSError as exc:  # a full disk or a read-only home: ↑ still works this run
            log.warning("%s: prompt history not saved: %s", self.path, exc)

    def _redact(self, text: str) -> str:
        if self._redactor is None:
            from agent_core.session.redact import Redactor

            self._redactor = Redactor()
        return self._redactor.text(text)

    def _read(self) -> list[str]:
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return []
        except OSError as exc:
            log.warning("%s: prompt history not read: %s", self.path, exc)
            return []
        entries: list[str] = []
        bad = 0
        lines = raw.splitlines()
        for line in lines:
            try:
                record = json.loads(line)
                text = record["text"]
            except (ValueError, TypeError, KeyError):
                bad += 1
                continue
            if isinstance(text, str) and text:
                entries.append(text)
            else:
                bad += 1
        if bad:
            log.warning("%s: %d unreadable line(s) of prompt history skipped", self.path, bad)
        self._lines = len(lines)
        return entries[-self.cap :]

    def _append(self, text: str) -> None:
        from agent_core.fsutil import open_private, private_dir

        private_dir(self.path.parent, root=self._home)
        line = json.dumps({"text": text}, ensure_ascii=False) + "\n"
        fd = open_private(self.path, os.O_WRONLY | os.O_APPEND)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(line)
        self._lines += 1
        if self._lines > self.cap + self.cap // 10:
            self._cut_back()

    def _cut_back(self) -> None:
        """Keep the newest ``cap`` lines (as another run may have appended, read them again)."""
        from agent_core.fsutil import atomic_write_text

        lines = self.path.read_text(encoding="utf-8", errors="replace").splitlines()
        kept = lines[-self.cap :]
        atomic_write_text(self.path, "".join(f"{line}\n" for line in kept), private=True)
        self._lines = len(kept)
