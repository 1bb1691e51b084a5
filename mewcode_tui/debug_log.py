"""Tracebacks go to a debug log file, never to the screen or stdout (STYLE.md)."""

from __future__ import annotations

import logging
from pathlib import Path


def setup_debug_log(home: Path) -> Path | None:
    """Send the ``mewcode`` loggers to ``MEWCODE_HOME/logs/mewcode.log``."""
    logger = logging.getLogger("mewcode")
    if any(getattr(h, "_mewcode", False) for h in logger.handlers):
        return None
    path = home / "logs" / "mewcode.log"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handler = logging.FileHandler(path, encoding="utf-8", delay=True)
    except OSError:
        handler = logging.NullHandler()  # an unwritable home must not stop the app
    handler._mewcode = True  # type: ignore[attr-defined]
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    return path
