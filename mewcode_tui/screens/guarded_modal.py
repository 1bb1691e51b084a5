"""A modal whose answer keys are ignored for a moment after it is first painted.

Typing ahead into the prompt must not answer a dialog that appears under the
cursor: the approval, plan and trust dialogs share this guard. It counts from the
first frame that shows the dialog, not from mount: on a busy machine that frame can
come later than the guard would last, and a key sent the moment the dialog shows
would otherwise answer it.
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
        self._guard_timer_started = False

    def on_mount(self) -> None:
        if self.key_guard <= 0:
            self._end_guard()

    def on_screen_resume(self) -> None:
        # The dialog is on top now and a repaint is pending; callbacks after a
        # refresh run once the screen on top has nothing left to lay out or paint.
        if self.guarded and not self._guard_timer_started:
            self.call_after_refresh(self._start_guard_once_painted)

    def _start_guard_once_painted(self) -> None:
        if self._guard_timer_started or not self.is_current:
            return  # covered before it was drawn: the next resume tries again
        self._guard_timer_started = True
        self.set_timer(self.key_guard, self._end_guard)

    def _end_guard(self) -> None:
        self.guarded = False
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in self.CHOICE_ACTIONS and self.guarded:
            return None  # shown dimmed in the footer, not run
        return True
