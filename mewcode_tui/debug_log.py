"""Tracebacks go to a debug log file, never to the screen or stdout (STYLE.md).

The log is private (0600 in a 0700 folder) and redacted line by line, like
everything else MewCode writes under its home.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any


class RedactingFormatter(logging.Formatter):
    """Formats a record (traceback included), then redacts secrets from the text."""

    def __init__(self, fmt: str) -> None:
        super().__init__(fmt)
        self._redactor: Any = None

    def format(self, record: logging.LogRecord) -> str:
        if self._redactor is None:  # built on the first line logged, not at start-up
            from agent_core.session.redact import Redactor

            self._redactor = Redactor()
        return self._redactor.text(super().format(record))


class PrivateFileHandler(logging.FileHandler):
    """A FileHandler whose file is created 0600 (or tightened to it) and never followed."""

    def _open(self):  # type: ignore[no-untyped-def]
        from agent_core.fsutil import open_private

        fd = open_private(Path(self.baseFilename), os.O_WRONLY | os.O_APPEND)
        return os.fdopen(fd, "a", encoding=self.encoding, errors=self.errors)


def setup_debug_log(home: Path) -> Path | None:
    """Send the ``mewcode`` loggers to ``MEWCODE_HOME/logs/mewcode.log``."""
    logger = logging.getLogger("mewcode")
    if any(getattr(h, "_mewcode", False) for h in logger.handlers):
        return None
    path = home / "logs" / "mewcode.log"
    handler: logging.Handler
    try:
        from agent_core.fsutil import private_dir

        private_dir(path.parent, root=home)
        handler = PrivateFileHandler(path, encoding="utf-8", delay=True)
    except OSError:
        handler = logging.NullHandler()  # an unwritable home must not stop the app
    handler._mewcode = True  # type: ignore[attr-defined]
    handler.setFormatter(RedactingFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    return path
