"""The trust dialog: "Do you trust the files in this folder?" on first open (docs/configuration.md#project-trust).

Until the user trusts a folder, its ``.mewcode/`` settings only make things
stricter. The screen is pure: it dismisses with ``"trust"``, ``"restricted"``
or ``"quit"``; the main screen records the answer. Keys are ignored for a short
guard after opening so typing ahead into the prompt cannot trust a folder.
The folder's name and what its files set (an MCP server's command) are shown
through ``visible_text``: the dialog is the first thing a cloned folder's files
reach.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar, Literal

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Footer, Static

from agent_core.config.paths import MewcodePaths
from agent_core.config.settings import Settings
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


def skipped_lines(skipped: list[tuple[str, list[str]]]) -> str:
    """What trusting would turn on, one line per file."""
    if not skipped:
        return "Nothing yet: no settings here wait for trust (ones added later would)."
    return "\n".join(visible_text(f"• {file}: {', '.join(keys)}") for file, keys in skipped)


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

    def __init__(
        self,
        project: str,
        skipped: list[tuple[str, list[str]]],
        remembered_in: str,
        *,
        key_guard: float = DEFAULT_KEY_GUARD,
        changed: list[str] | None = None,
    ) -> None:
        super().__init__(key_guard=key_guard)
        self.project = project
        self.skipped = skipped
        self.remembered_in = remembered_in
        self.changed = changed  # a trusted folder whose programs changed: ask again

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            if self.changed is None:
                yield Static("Do you trust the files in this folder?", id="title")
                yield Static(Content(visible_text(self.project)), id="project")
                yield Static(EXPLANATION, id="explanation")
                yield Static("Trusting it turns on:", id="skipped-title")
                listed = skipped_lines(self.skipped)
            else:
                yield Static(RETRUST_TITLE, id="title")
                yield Static(Content(visible_text(self.project)), id="project")
                yield Static(RETRUST_EXPLANATION, id="explanation")
                listed = "\n".join(f"• {visible_text(line)}" for line in self.changed)
            with VerticalScroll(id="skipped"):
                yield Static(Content(listed))
            yield Static(self._options(), id="options")
        yield Footer()

    def _options(self) -> Content:
        keys = {
            name: key_hint(self.app, self.BINDINGS, f"mewcode.trust.{name}")
            for name in ("trust", "not_now", "quit")
        }
        yes = "Yes, trust this folder" if self.changed is None else "Yes, trust them"
        later = "continue restricted" if self.changed is None else "continue without them"
        return Content.assemble(
            Content.from_markup(
                "[@click=screen.choose('trust')][b]$trust[/b] $yes[/]", yes=yes, **keys
            ),
            Content(f" (remembered in {visible_text(self.remembered_in)})\n"),
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


def trust_screen(
    paths: MewcodePaths, settings: Settings, *, home: Path | None = None
) -> TrustScreen:
    """The dialog for this project: what its files set that waits for trust, or, for a
    trusted project, which of its programs changed since."""
    from mewcode_tui.widgets.status_bar import short_path

    if settings.project_trusted:
        from agent_core.config.program_trust import RECORD_FILE, pending_changes

        return TrustScreen(
            short_path(paths.project, home),
            [],
            short_path(paths.home / RECORD_FILE, home),
            changed=pending_changes(paths, settings),
        )

    skipped = []
    for entry in settings.skipped_until_trust:
        file = Path(entry.file)
        label = (
            str(file.relative_to(paths.project))
            if file.is_relative_to(paths.project)
            else entry.file
        )
        skipped.append((label, list(entry.keys)))
    skipped.extend(_waiting_mcp_servers(paths, settings))
    return TrustScreen(
        short_path(paths.project, home), skipped, short_path(paths.user_settings, home)
    )


def _waiting_mcp_servers(paths: MewcodePaths, settings: Settings) -> list[tuple[str, list[str]]]:
    """The project's MCP servers trust would start, each with the command it runs."""
    import os

    from agent_core.mcp.config import target_text
    from agent_core.mcp.session_servers import session_mcp_config

    waiting = session_mcp_config(paths, settings, os.environ).untrusted
    if not waiting:
        return []
    return [(".mcp.json", [f"MCP server {s.name} ({target_text(s)})" for s in waiting])]
