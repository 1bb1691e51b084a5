"""MewCode's own writes to files that sandboxed commands may not change.

The sandbox's guard (sandbox/guarded_files.py) undoes what a command changed in
settings, hooks and the like while it ran. MewCode itself writes some of those files
meanwhile (an "always allow" rule, a trust record, an approved edit), so every such
write is noted here, and the guard takes it as the new "before".
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

_LISTENERS: list[Callable[[str], None]] = []


def listen(listener: Callable[[str], None]) -> None:
    """Call ``listener`` with the resolved path of each write noted from now on."""
    _LISTENERS.append(listener)


def note(path: Path | str) -> None:
    """MewCode (not a command) has just written ``path``."""
    resolved = os.path.realpath(path)
    for listener in list(_LISTENERS):
        listener(resolved)
