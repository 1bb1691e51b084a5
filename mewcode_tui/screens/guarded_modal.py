"""A modal whose answer keys are ignored for a moment after it opens.

Typing ahead into the prompt must not answer a dialog that appears under the
cursor: the approval dialog and the trust dialog share this guard.
"""

from __future__ import annotations

from typing import ClassVar, TypeVar

from textual.reactive import var
from textual.screen import ModalScreen

DEFAULT_KEY_GUARD = 0.4  # seconds
AnswerT = TypeVar("AnswerT")


class GuardedModal(ModalScreen[AnswerT]):
    """``CHOICE_ACTIONS`` are shown dimmed, and do nothing, until ``key_guard`` has passed."""

    CHOICE_ACTIONS: ClassVar[frozenset[str]] = frozenset({"choose"})

    guarded: var[bool] = var(True, toggle_class="-guarded")

    def __init__(self, *, key_guard: float = DEFAULT_KEY_GUARD) -> None:
        super().__init__()
        self.key_guard = key_guard

    def on_mount(self) -> None:
        if self.key_guard > 0:
            self.set_timer(self.key_guard, self._end_guard)
        else:
            self._end_guard()

    def _end_guard(self) -> None:
        self.guarded = False
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in self.CHOICE_ACTIONS and self.guarded:
            return None  # shown dimmed in the footer, not run
        return True
