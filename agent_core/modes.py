"""The permission modes: one list, and the orders the UI and the trust rules need.

A new mode is one name here (plus its meaning in ``permissions/modes.py``);
settings, the CLI, the checker, ``/mode`` and Shift+Tab read these tuples.
A mode named from outside (a flag, a file, a control request, a command) becomes
a ``Mode`` once, where it enters, through ``as_mode`` or ``mode_named``.
"""

from __future__ import annotations

from typing import Literal, get_args

from agent_core.errors import MewCodeError

Mode = Literal["default", "acceptEdits", "plan", "bypassPermissions"]
MODES: tuple[Mode, ...] = get_args(Mode)
# What Shift+Tab steps through; bypassPermissions is only ever chosen on purpose.
MODE_CYCLE: tuple[Mode, ...] = ("default", "acceptEdits", "plan")
# Strictest first: an untrusted project may move the mode left, never right.
MODE_STRICTNESS: tuple[Mode, ...] = ("plan", "default", "acceptEdits", "bypassPermissions")


def mode_named(value: object) -> Mode | None:
    """The mode spelt exactly ``value``, or None when it names none."""
    return next((mode for mode in MODES if mode == value), None)


def as_mode(value: object, where: str) -> Mode:
    """``value`` as a mode; raises MewCodeError naming ``where`` it came from and the modes."""
    mode = mode_named(value)
    if mode is None:
        raise MewCodeError(f"{where}: {value!r} is not a mode ({', '.join(MODES)})")
    return mode
