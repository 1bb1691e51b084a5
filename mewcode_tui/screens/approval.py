"""The approval modal: a human answers an ``approval.requested`` event (docs/security.md#permissions, layer 5).

The screen is pure: it dismisses with an ``ApprovalReply`` and the caller answers
the event's ticket with it. Keys are ignored for a short guard after opening so a
keystroke meant for the prompt cannot approve something by accident. What is asked
about is shown through ``visible_text``: a command hiding an escape sequence or a
right-to-left override shows it, so what you approve is what runs.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.reactive import var
from textual.widgets import Footer, Input, Static

from agent_core.events import ApprovalAnswer, ApprovalReply, ApprovalRequested
from agent_core.terminal_text import visible_text
from mewcode_tui.keymap import key_hint
from mewcode_tui.screens.guarded_modal import DEFAULT_KEY_GUARD, GuardedModal
from mewcode_tui.widgets.choice_list import Choice, ChoiceList

MAX_ARGUMENT_LINES = 14
MAX_ARGUMENT_WIDTH = 200

LAYER_LABELS = {
    "blacklist": "the dangerous-command blacklist",
    "sandbox": "the file sandbox",
    "rules": "a permission rule",
    "mode": "the permission mode",
    "user": "you",
    "hook": "a hook",
    "session": "a session rule",
}
# Inputs the diff preview already shows in full; repeating them is noise.
_DIFF_COVERED_KEYS = {"old_string", "new_string", "content", "edits"}


def describe_arguments(arguments: dict[str, Any], *, has_diff: bool = False) -> str:
    """Tool arguments as readable ``key: value`` lines, bounded in lines and width, with
    control characters shown escaped."""
    import json

    lines: list[str] = []
    for key, value in arguments.items():
        if has_diff and key in _DIFF_COVERED_KEYS:
            continue
        if isinstance(value, str) and "\n" in value:
            lines.append(f"{key}:")
            lines.extend(f"  {part}" for part in value.splitlines())
        elif isinstance(value, str):
            lines.append(f"{key}: {value}")
        else:
            lines.append(f"{key}: {json.dumps(value, ensure_ascii=False)}")
    shown = [visible_text(line, multiline=True) for line in lines[:MAX_ARGUMENT_LINES]]
    clipped = [
        line if len(line) <= MAX_ARGUMENT_WIDTH else line[: MAX_ARGUMENT_WIDTH - 1] + "…"
        for line in shown
    ]
    if len(lines) > MAX_ARGUMENT_LINES:
        clipped.append(f"… {len(lines) - MAX_ARGUMENT_LINES} more lines")
    return "\n".join(clipped) or "(no arguments)"


def edited_path(arguments: dict[str, Any]) -> str:
    """The file an edit-like tool call targets, for the diff title."""
    for key in ("file_path", "path", "notebook_path"):
        if isinstance(arguments.get(key), str):
            return arguments[key]
    return "file"


class AnswerScreen(GuardedModal[ApprovalReply]):
    """A modal that answers with an ``ApprovalReply``: guarded keys, then optional feedback.

    Its choices stay docked at the bottom; what they decide on (diff, plan) scrolls
    above them with PgUp/PgDn, since ↑/↓ move the highlighted choice.
    """

    # Actions that answer the request; blocked during the guard and while typing feedback.
    CHOICE_ACTIONS: ClassVar[frozenset[str]] = frozenset({"choose", "deny"})
    SCROLL_AREA: ClassVar[str] = "#body"  # the part of the dialog PgUp/PgDn scroll
    KEYS: ClassVar[str] = "approval"  # the dialog's binding ids are mewcode.<KEYS>.*

    denying: var[bool] = var(False, toggle_class="-denying")

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#options", ChoiceList).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in self.CHOICE_ACTIONS and self.denying:
            return False
        if action == "escape" and self.guarded:
            return None
        return super().check_action(action, parameters)

    def compose_answer(
        self, choices: list[Choice], feedback_prompt: str, scrolls: str
    ) -> ComposeResult:
        """The docked bottom of the dialog: the choices and how to pick, or the feedback line."""
        with Vertical(id="answer"):
            yield ChoiceList(choices, id="options")
            yield Static(self._keys_hint(scrolls), id="keys-hint")
            with Vertical(id="feedback"):
                yield Static(feedback_prompt, id="feedback-prompt")
                yield Input(placeholder="optional feedback for the model", id="feedback-input")

    def _keys_hint(self, scrolls: str) -> str:
        """How to move, pick and scroll, with the keys in effect."""

        def key(bindings: list[BindingType], name: str) -> str:
            return key_hint(self.app, bindings, f"mewcode.{name}")

        choices = ChoiceList.BINDINGS
        return (
            f"{key(choices, 'choices.previous')}/{key(choices, 'choices.next')} select · "
            f"{key(choices, 'choices.pick')} choose · "
            f"{key(self.BINDINGS, f'{self.KEYS}.scroll_up')}/"
            f"{key(self.BINDINGS, f'{self.KEYS}.scroll_down')} scroll the {scrolls}"
        )

    def action_scroll_body(self, pages: int) -> None:
        """Scroll the diff or plan by a page."""
        area = self.query_one(self.SCROLL_AREA, VerticalScroll)
        if pages < 0:
            area.scroll_page_up()
        else:
            area.scroll_page_down()

    def action_choose(self, answer: ApprovalAnswer) -> None:
        """Answer and close."""
        self.dismiss(ApprovalReply(answer))

    def action_deny(self) -> None:
        """Deny, then ask for optional feedback."""
        self.denying = True
        self.query_one("#feedback-input", Input).focus()
        self.refresh_bindings()

    def action_escape(self) -> None:
        """Esc: deny without feedback (subclasses may ask for feedback first)."""
        self.dismiss(ApprovalReply("deny"))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self.denying:
            self.dismiss(ApprovalReply("deny", event.value.strip()))


class ApprovalScreen(AnswerScreen):
    """Asks the user whether a tool call may run; dismisses with an ``ApprovalReply``."""

    CSS_PATH = "approval.tcss"
    CHOICE_ACTIONS: ClassVar[frozenset[str]] = frozenset({"choose", "deny", "view_diff"})

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "1,y",
            "choose('allow_once')",
            "Allow once",
            key_display="1/y",
            id="mewcode.approval.allow_once",
        ),
        Binding(
            "2,s",
            "choose('allow_session')",
            "Allow for session",
            key_display="2/s",
            id="mewcode.approval.allow_session",
        ),
        Binding(
            "3,a",
            "choose('allow_always')",
            "Always allow",
            key_display="3/a",
            id="mewcode.approval.allow_always",
        ),
        Binding("4,n", "deny", "Deny…", key_display="4/n", id="mewcode.approval.deny"),
        Binding("d", "view_diff", "Full diff", id="mewcode.approval.view_diff"),
        Binding("escape", "escape", "Deny", key_display="esc", id="mewcode.approval.dismiss"),
        Binding(
            "pageup", "scroll_body(-1)", "Scroll up", show=False, id="mewcode.approval.scroll_up"
        ),
        Binding(
            "pagedown",
            "scroll_body(1)",
            "Scroll down",
            show=False,
            id="mewcode.approval.scroll_down",
        ),
    ]

    def __init__(self, request: ApprovalRequested, *, key_guard: float = DEFAULT_KEY_GUARD) -> None:
        super().__init__(key_guard=key_guard)
        self.request = request

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if (
            action == "choose"
            and parameters == ("allow_always",)
            and not self.request.suggested_rules
        ):
            return False  # nothing to save, so "always" would silently mean "session"
        if action == "view_diff" and not self.request.diff:
            return False
        return super().check_action(action, parameters)

    def compose(self) -> ComposeResult:
        request = self.request
        layer = LAYER_LABELS.get(request.layer, request.layer)
        with Vertical(id="dialog"):
            tool = visible_text(request.tool)
            yield Static(Content.from_markup("Allow [b]$tool[/b]?", tool=tool), id="title")
            reason = visible_text(request.reason, multiline=True)
            yield Static(
                Content.from_markup("[dim]Asked by $layer:[/] $reason", layer=layer, reason=reason),
                id="reason",
            )
            with VerticalScroll(id="body", can_focus=False):
                yield Static(
                    Content(describe_arguments(request.input, has_diff=bool(request.diff))),
                    id="arguments",
                )
                if request.diff:
                    from mewcode_tui.widgets.diff_panel import DiffPanel

                    yield DiffPanel(
                        request.diff,
                        edited_path(request.input),
                        wrap=True,
                        max_lines=200,
                        id="diff",
                    )
            yield from self.compose_answer(
                self._choices(),
                "Denied. Tell the model what to do instead (Enter sends, Esc skips):",
                scrolls="diff" if request.diff else "details",
            )
        yield Footer()

    def _choices(self) -> list[Choice]:
        rules = visible_text(", ".join(self.request.suggested_rules))
        keys = {
            name: key_hint(self.app, self.BINDINGS, f"mewcode.approval.{name}")
            for name in ("allow_once", "allow_session", "allow_always", "deny")
        }
        lines = [
            (
                "choose('allow_once')",
                "[@click=screen.choose('allow_once')][b]$allow_once[/b] Allow once"
                " [dim]— this call only[/][/]",
            ),
            ("choose('allow_session')", self._session_choice(rules)),
        ]
        if rules:
            lines.append(
                (
                    "choose('allow_always')",
                    "[@click=screen.choose('allow_always')][b]$allow_always[/b] Always allow"
                    " — saves [b]$rules[/b][/]",
                )
            )
        lines.append(("deny", "[@click=screen.deny][b]$deny[/b] Deny (then optional feedback)[/]"))
        return [
            Choice(action, Content.from_markup(markup, rules=rules, **keys))
            for action, markup in lines
        ]

    def _session_choice(self, rules: str) -> str:
        """The session choice's markup, saying what it covers: for an edit, every edit
        (the acceptEdits mode); otherwise the rules granted until MewCode quits."""
        pick = "[@click=screen.choose('allow_session')][b]$allow_session[/b]"
        if self.request.session_grant == "accept_edits":
            return f"{pick} Allow all edits this session [dim]— switches to acceptEdits[/][/]"
        if rules:
            return f"{pick} Allow for this session — [b]$rules[/b] [dim]until you quit[/][/]"
        return f"{pick} Allow for this session [dim]— no rule fits: this call only[/][/]"

    def action_view_diff(self) -> None:
        """Open the edit's diff in the full-screen viewer."""
        from mewcode_tui.screens.diff_screen import DiffScreen

        if self.request.diff:
            self.app.push_screen(DiffScreen(self.request.diff, edited_path(self.request.input)))
