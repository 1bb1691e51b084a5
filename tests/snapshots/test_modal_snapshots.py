"""SVG snapshots of the modals, the diff viewer, the setup screen and each theme.

Update after an intended visual change with ``pytest tests/snapshots --snapshot-update``.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Input, Markdown, Static

from agent_core.events import ApprovalRequested
from mewcode_tui.screens.approval import ApprovalScreen
from mewcode_tui.screens.diff_screen import DiffScreen
from mewcode_tui.screens.plan_approval import PlanApprovalScreen
from mewcode_tui.screens.setup import SetupScreen
from mewcode_tui.setup_methods import setup_methods, validate_choice
from mewcode_tui.themes import load_themes
from mewcode_tui.widgets.diff_panel import DiffPanel

SIZE = (100, 30)


@pytest.fixture(autouse=True)
def colors_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """Themes are the point of these snapshots, so undo the suite-wide NO_COLOR."""
    monkeypatch.delenv("NO_COLOR", raising=False)


EDIT_DIFF = """\
--- a/src/app.py
+++ b/src/app.py
@@ -10,7 +10,8 @@ def main():
     parser = make_parser()
     args = parser.parse_args()
-    run(args.path)
+    if args.verbose:
+        print("starting", args.path)
+    run(args.path, verbose=args.verbose)
     return 0
@@ -40,3 +41,3 @@ class Runner:
     def stop(self):
-        self.running = False
+        self.running = None
         return self
"""

PLAN = """\
# Add a `--verbose` flag

1. Read `src/app.py` and find where arguments are parsed.
2. Add `--verbose` to the parser.
3. Print progress when it is set.
4. Run `pytest tests/test_app.py`.

Risks: none; the flag is off by default.
"""


class ScreenHost(App[None]):
    """A themed app that opens one of our screens over a plain background."""

    def __init__(self, paths: Any, screen: Screen[Any] | None = None, theme: str = "mewcode-dark"):
        super().__init__()
        self.paths = paths
        self.opening = screen
        self.theme_name = theme

    def compose(self) -> ComposeResult:
        yield Static("previous chat content stays visible behind the dialog")

    def on_mount(self) -> None:
        load_themes(self, self.paths)
        self.theme = self.theme_name
        if self.opening is not None:
            self.push_screen(self.opening)


class SampleChat(ScreenHost):
    """Main-screen-like content: messages, a tool line, a diff, the prompt and footer."""

    CSS = """
    .user { background: $panel; color: $text-primary; padding: 0 1; margin-bottom: 1; }
    .tool { color: $text-success; padding: 0 1; }
    .warn { color: $text-warning; padding: 0 1; }
    .err { color: $text-error; padding: 0 1; }
    """

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static("› add a --verbose flag to the CLI", classes="user")
            yield Markdown("I'll read **src/app.py** first, then add the flag with `argparse`.")
            yield Static("✓ Read src/app.py · 12 ms", classes="tool")
            yield Static("⚠ context 81% full, compacting soon", classes="warn")
            yield Static("✗ Bash pytest · exit 1", classes="err")
            yield DiffPanel(EDIT_DIFF, "src/app.py")
        prompt = Input(placeholder="Ask MewCode…  (/ for commands, @ for files)")
        prompt.cursor_blink = False  # a blinking cursor would make the snapshot flaky
        yield prompt
        yield Footer()


def edit_request() -> ApprovalRequested:
    return ApprovalRequested(
        approval_id="ap1",
        call_id="call1",
        tool="Edit",
        input={"file_path": "src/app.py", "old_string": "run(args.path)", "new_string": "..."},
        reason="file edits need approval in default mode",
        layer="mode",
        suggested_rules=["Edit(src/app.py)"],
        session_grant="accept_edits",  # as the runtime offers it for an edit in default mode
        diff=EDIT_DIFF,
    )


def test_approval_modal_with_diff(snap_compare, paths) -> None:
    app = ScreenHost(paths, ApprovalScreen(edit_request(), key_guard=0))
    assert snap_compare(app, terminal_size=SIZE)


def test_approval_modal_feedback_after_deny(snap_compare, paths) -> None:
    request = ApprovalRequested(
        approval_id="ap3",
        call_id="call3",
        tool="Bash",
        input={"command": "npm run test -- --watch=false", "description": "Run the tests"},
        reason="Bash commands need approval in default mode",
        layer="mode",
        suggested_rules=["Bash(npm run test:*)"],
    )
    app = ScreenHost(paths, ApprovalScreen(request, key_guard=0))

    def steady_cursor(pilot: Any) -> None:
        pilot.app.screen.query_one("#feedback-input", Input).cursor_blink = False

    assert snap_compare(app, press=["n", *"use yarn"], terminal_size=SIZE, run_before=steady_cursor)


def test_diff_viewer_unified(snap_compare, paths) -> None:
    app = ScreenHost(paths, DiffScreen(EDIT_DIFF, "src/app.py"))
    assert snap_compare(app, terminal_size=SIZE)


def test_diff_viewer_split(snap_compare, paths) -> None:
    app = ScreenHost(paths, DiffScreen(EDIT_DIFF, "src/app.py"))
    assert snap_compare(app, press=["s"], terminal_size=SIZE)


def test_plan_dialog(snap_compare, paths) -> None:
    request = ApprovalRequested(
        approval_id="ap2",
        call_id="call2",
        tool="ExitPlanMode",
        input={"plan": PLAN},
        reason="plan ready",
        layer="mode",
        suggested_rules=[],
    )
    app = ScreenHost(paths, PlanApprovalScreen(request, key_guard=0))
    assert snap_compare(app, terminal_size=SIZE)


def test_setup_screen(snap_compare, paths) -> None:
    app = ScreenHost(paths, SetupScreen(setup_methods(), validate_choice))
    assert snap_compare(app, terminal_size=SIZE)


def test_setup_screen_compatible_server(snap_compare, paths) -> None:
    app = ScreenHost(paths, SetupScreen(setup_methods(), validate_choice))
    assert snap_compare(app, press=["down", "down"], terminal_size=SIZE)


@pytest.mark.parametrize("theme", ["mewcode-dark", "mewcode-light", "mewcode-high-contrast"])
def test_sample_content_under_each_theme(snap_compare, paths, theme: str) -> None:
    assert snap_compare(SampleChat(paths, theme=theme), terminal_size=SIZE)
