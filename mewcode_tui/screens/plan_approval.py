"""The plan dialog for ``ExitPlanMode``: approve the plan or keep planning (docs/manual.md#the-full-screen-ui).

The dialog shares the approval dialog's keys and answers; ``plan_answer`` reads its
answer as the plan's own: "default" (approve, ask before edits), "accept_edits"
(approve, auto-accept edits) or "keep_planning" (with optional feedback).
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Footer, Markdown, Static

from agent_core.events import (
    ApprovalAnswer,
    ApprovalReply,
    ApprovalRequested,
    PlanAnswer,
    PlanChoice,
)
from agent_core.terminal_text import visible_text
from mewcode_tui.keymap import key_hint
from mewcode_tui.screens.approval import AnswerScreen
from mewcode_tui.screens.guarded_modal import DEFAULT_KEY_GUARD
from mewcode_tui.widgets.choice_list import Choice

# The dialog's choices (its bindings below) as the plan's answers.
PLAN_CHOICES: dict[ApprovalAnswer, PlanChoice] = {
    "allow_once": "default",
    "allow_session": "accept_edits",
    "allow_always": "default",  # never offered for a plan: the stricter reading
    "deny": "keep_planning",
}


def plan_answer(reply: ApprovalReply) -> PlanAnswer:
    """The plan's answer for what the dialog dismissed with."""
    return PlanAnswer(PLAN_CHOICES[reply.answer], reply.feedback)


def plan_text(request: ApprovalRequested) -> str:
    """The Markdown plan carried by an ``ExitPlanMode`` request."""
    plan = request.input.get("plan")
    if not isinstance(plan, str) or not plan.strip():
        return "_The model sent an empty plan._"
    return visible_text(plan, multiline=True)  # shown escaped, never run by the terminal


class PlanApprovalScreen(AnswerScreen):
    """Shows the model's plan; dismisses with an ``ApprovalReply``."""

    CSS_PATH = "plan_approval.tcss"
    SCROLL_AREA: ClassVar[str] = "#plan"
    KEYS: ClassVar[str] = "plan"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "1,y", "choose('allow_once')", "Approve", key_display="1/y", id="mewcode.plan.approve"
        ),
        Binding(
            "2,a",
            "choose('allow_session')",
            "Approve, auto-accept edits",
            key_display="2/a",
            id="mewcode.plan.approve_accept_edits",
        ),
        Binding("n", "deny", "Keep planning…", id="mewcode.plan.keep_planning"),
        Binding(
            "escape",
            "escape",
            "Keep planning…",
            key_display="esc",
            show=False,
            id="mewcode.plan.dismiss",
        ),
        Binding("pageup", "scroll_body(-1)", "Scroll up", show=False, id="mewcode.plan.scroll_up"),
        Binding(
            "pagedown", "scroll_body(1)", "Scroll down", show=False, id="mewcode.plan.scroll_down"
        ),
    ]

    def __init__(self, request: ApprovalRequested, *, key_guard: float = DEFAULT_KEY_GUARD) -> None:
        super().__init__(key_guard=key_guard)
        self.request = request

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static("Ready to code? Here is the plan:", id="title")
            with VerticalScroll(id="plan", can_focus=False):
                yield Markdown(plan_text(self.request))
            yield from self.compose_answer(
                self._choices(),
                "Keep planning. Tell the model what to change (Enter sends, Esc skips):",
                scrolls="plan",
            )
        yield Footer()

    def _choices(self) -> list[Choice]:
        keys = {
            name: key_hint(self.app, self.BINDINGS, f"mewcode.plan.{name}")
            for name in ("approve", "approve_accept_edits", "keep_planning")
        }
        lines = [
            (
                "choose('allow_once')",
                "[@click=screen.choose('allow_once')][b]$approve[/b] Yes, start coding"
                " (ask before edits)[/]",
            ),
            (
                "choose('allow_session')",
                "[@click=screen.choose('allow_session')][b]$approve_accept_edits[/b] Yes, and"
                " auto-accept edits[/]",
            ),
            (
                "deny",
                "[@click=screen.deny][b]$keep_planning[/b] No, keep planning"
                " (then optional feedback)[/]",
            ),
        ]
        return [Choice(action, Content.from_markup(markup, **keys)) for action, markup in lines]

    def action_escape(self) -> None:
        """Esc keeps planning; a second Esc (in the feedback line) sends no feedback."""
        if self.denying:
            super().action_escape()
        else:
            self.action_deny()
