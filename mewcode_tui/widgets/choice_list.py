"""A dialog's choices, one per line: ↑/↓ move the highlight, Enter picks it (as in Claude Code).

Each choice names a screen action, so picking one by Enter, by its own key or by a
click runs the same action through ``Screen.check_action`` — a dialog's key guard
applies to all three.
"""

from __future__ import annotations

from typing import ClassVar, NamedTuple

from textual.binding import Binding, BindingType
from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget

POINTER = "❯ "


class Choice(NamedTuple):
    """One line of the list: the screen action it runs and its label (with its key)."""

    action: str
    label: Content


class ChoiceList(Widget, can_focus=True):
    """Choices with a highlighted one; Enter runs ``screen.<action>`` of the highlighted one."""

    DEFAULT_CSS = """
    ChoiceList {
        height: auto;
    }
    ChoiceList > .choice-list--highlight {
        color: $text-accent;
        text-style: bold;
    }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {"choice-list--highlight"}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move(-1)", "Previous choice", show=False, id="mewcode.choices.previous"),
        Binding("down", "move(1)", "Next choice", show=False, id="mewcode.choices.next"),
        Binding(
            "enter", "pick", "Pick the highlighted choice", show=False, id="mewcode.choices.pick"
        ),
    ]

    highlighted: reactive[int] = reactive(0)

    def __init__(self, choices: list[Choice], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.choices = choices

    def render(self) -> Content:
        style = self.get_visual_style("choice-list--highlight", partial=True)
        lines = []
        for index, choice in enumerate(self.choices):
            if index == self.highlighted:
                lines.append(Content.assemble(POINTER, choice.label).stylize_before(style))
            else:
                lines.append(Content.assemble(" " * len(POINTER), choice.label))
        return Content("\n").join(lines)

    def action_move(self, step: int) -> None:
        """Move the highlight, wrapping around at either end."""
        if self.choices:
            self.highlighted = (self.highlighted + step) % len(self.choices)

    async def action_pick(self) -> None:
        """Run the highlighted choice's action on the screen (which may refuse it)."""
        if self.choices:
            await self.run_action(f"screen.{self.choices[self.highlighted].action}")
