"""The permission modes: one list, and the orders the UI and the trust rules need.

A new mode is one name here (plus its meaning in ``permissions/modes.py``);
settings, the CLI, the checker, ``/mode`` and Shift+Tab read these tuples.
"""

from __future__ import annotations

from typing import Literal, get_args

Mode = Literal["default", "acceptEdits", "plan", "bypassPermissions"]
MODES: tuple[Mode, ...] = get_args(Mode)
# What Shift+Tab steps through; bypassPermissions is only ever chosen on purpose.
MODE_CYCLE: tuple[Mode, ...] = ("default", "acceptEdits", "plan")
# Strictest first: an untrusted project may move the mode left, never right.
MODE_STRICTNESS: tuple[Mode, ...] = ("plan", "default", "acceptEdits", "bypassPermissions")
