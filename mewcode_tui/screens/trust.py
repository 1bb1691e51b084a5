"""The trust dialog: "Do you trust the files in this folder?" on first open (docs/configuration.md#project-trust).

Until the user trusts a folder, its ``.mewcode/`` settings only make things
stricter. The screen is pure: it shows a ``TrustQuestion`` (built from the settings
by mewcode_tui/trust_question.py) and dismisses with ``"trust"``, ``"restricted"``
or ``"quit"``; the main screen records the answer. Keys are ignored for a short
guard after opening so typing ahead into the prompt cannot trust a folder.
The folder's name and what its files set (an MCP server's command) are shown
through ``visible_text``: the dialog is the first thing a cloned folder's files
reach.
"""

from __future__ import annotations

from typing import ClassVar, Literal

import msgspec
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Footer, Static

from agent_core.terminal_text import visible_text
from mewcode_tui.keymap import key_hint
from mewcode_tui.screens.guarded_modal import DEFAULT_KEY_GUARD, GuardedModal

TrustAnswer = Literal["trust", "restricted", "quit"]

EXPLANATION = (
    "Settings in a folder's .mewcode/ and .claude/ come from whoever wrote it. Until you "
    "trust it they can only make MewCode stricter: deny and ask rules and a stricter mode "
    "apply; allow rules, looser modes, extra directories, env, model, hooks and MCP "
    "servers wait. Where your API key is sent is never read from a folder."
)
RETRUST_TITLE = "Programs in this folder changed since you trusted it"
RETRUST_EXPLANATION = (
    "MewCode runs a trusted folder's hooks and MCP servers only as they were when you "
    "trusted it. These are new or changed (by a session, a git pull or anyone) and wait "
    "until you trust them:"
)


class WaitingSettings(msgspec.Struct, frozen=True):
    """What one of the folder's files sets that waits for trust."""

    file: str  # as shown: relative to the folder when inside it
    keys: tuple[str, ...]  # e.g. "permissions.allow (1 rule)", "MCP server git (uvx …)"


class TrustQuestion(msgspec.Struct, frozen=True):
    """What the dialog shows: the folder, what trusting turns on, where it is remembered."""

    folder: str  # as shown, e.g. "~/code/shop"
    remembered_in: str  # the file that records the answer, as shown
    waiting: tuple[WaitingSettings, ...] = ()  # first trust: what each file sets that waits
    # A trusted folder whose hooks or MCP servers changed since: ask again about these.
    retrust: bool = False
    changed: tuple[str, ...] = ()  # one line per new or changed program


def waiting_lines(waiting: tuple[WaitingSettings, ...]) -> str:
    """What trusting would turn on, one line per file."""
    if not waiting:
        return "Nothing yet: no settings here wait for trust (ones added later would)."
    return "\n".join(visible_text(f"• {w.file}: {', '.join(w.keys)}") for w in waiting)


class TrustScreen(GuardedModal[TrustAnswer]):
    """Asks whether to trust the project folder."""

    CSS_PATH = "trust.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "1,y",
            "choose('trust')",
            "Trust this folder",
            key_display="1/y",
            id="mewcode.trust.trust",
        ),
        Binding(
            "2,n,escape",
            "choose('restricted')",
            "Not now",
            key_display="2/n",
            id="mewcode.trust.not_now",
        ),
        Binding("q", "choose('quit')", "Quit", id="mewcode.trust.quit"),
    ]

    def __init__(self, question: TrustQuestion, *, key_guard: float = DEFAULT_KEY_GUARD) -> None:
        super().__init__(key_guard=key_guard)
        self.question = question

    def compose(self) -> ComposeResult:
        question = self.question
        with Vertical(id="dialog"):
            if not question.retrust:
                yield Static("Do you trust the files in this folder?", id="title")
                yield Static(Content(visible_text(question.folder)), id="project")
                yield Static(EXPLANATION, id="explanation")
                yield Static("Trusting it turns on:", id="skipped-title")
                listed = waiting_lines(question.waiting)
            else:
                yield Static(RETRUST_TITLE, id="title")
                yield Static(Content(visible_text(question.folder)), id="project")
                yield Static(RETRUST_EXPLANATION, id="explanation")
                listed = "\n".join(f"• {visible_text(line)}" for line in question.changed)
            with VerticalScroll(id="skipped"):
                yield Static(Content(listed))
            yield Static(self._options(), id="options")
        yield Footer()

    def _options(self) -> Content:
        keys = {
            name: key_hint(self.app, self.BINDINGS, f"mewcode.trust.{name}")
            for name in ("trust", "not_now", "quit")
        }
        retrust = self.question.retrust
        yes = "Yes, trust them" if retrust else "Yes, trust this folder"
        later = "continue without them" if retrust else "continue restricted"
        return Content.assemble(
            Content.from_markup(
                "[@click=screen.choose('trust')][b]$trust[/b] $yes[/]", yes=yes, **keys
            ),
            Content(f" (remembered in {visible_text(self.question.remembered_in)})\n"),
            Content.from_markup(
                "[@click=screen.choose('restricted')][b]$not_now[/b] Not now: $later "
                "(asked again next time)[/]\n"
                "[@click=screen.choose('quit')][b]$quit[/b] Quit[/]",
                later=later,
                **keys,
            ),
        )

    def action_choose(self, answer: TrustAnswer) -> None:
        """Answer and close."""
        self.dismiss(answer)
