"""Alt+Enter as its own key, where Textual reads it as a plain Enter.

A terminal without an extended keyboard protocol (tmux, by default) sends Alt+Enter
as ESC then CR. Textual's parser knows the ESC meant Alt, but keeps the Alt only for
printable keys: the prompt would see Enter and send the message. This wraps one
private method of Textual's parser so ESC CR becomes ``alt+enter`` (a new line in the
prompt). Where that method's signature is not the one this was written against,
nothing is installed and Alt+Enter stays an Enter.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterable
from typing import Any

_EXPECTED_PARAMETERS = ["self", "sequence", "alt"]


def install() -> bool:
    """Report ESC CR as ``alt+enter`` from now on; False when Textual's parser differs."""
    from textual._xterm_parser import XTermParser

    original = XTermParser._sequence_to_key_events
    if getattr(original, "reports_alt_enter", False):
        return True
    if list(inspect.signature(original).parameters) != _EXPECTED_PARAMETERS:
        return False
    XTermParser._sequence_to_key_events = _with_alt_enter(original)  # type: ignore[method-assign]
    return True


def _with_alt_enter(original: Callable[..., Iterable[Any]]) -> Callable[..., Iterable[Any]]:
    from textual import events

    @functools.wraps(original)
    def sequence_to_key_events(self: Any, sequence: str, alt: bool = False) -> Iterable[Any]:
        if alt and sequence == "\r":
            return [events.Key("alt+enter", None)]
        return original(self, sequence, alt)

    sequence_to_key_events.reports_alt_enter = True  # type: ignore[attr-defined]
    return sequence_to_key_events
