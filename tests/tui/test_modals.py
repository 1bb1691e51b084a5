"""Pilot tests of the approval and plan dialogs, the diff viewer and the first-run screen."""

from __future__ import annotations

import stat
from typing import Any

import pytest
import yaml
from textual.app import App
from textual.screen import Screen
from textual.widgets import Input, Markdown, OptionList, Static

from agent_core.errors import ConfigError
from agent_core.events import ApprovalReply, ApprovalRequested
from mewcode_tui.screens.approval import ApprovalScreen, describe_arguments
from mewcode_tui.screens.diff_screen import DiffScreen
from mewcode_tui.screens.plan_approval import PlanApprovalScreen
from mewcode_tui.screens.setup import SetupChoice, SetupMethod, SetupScreen
from mewcode_tui.setup_methods import setup_methods, validate_choice
from mewcode_tui.setup_store import apply_setup, credentials_file
from mewcode_tui.widgets.diff_panel import DiffPanel, unified_diff_of
from tests.tui.conftest import wait_until

EDIT_DIFF = """\
--- a/src/app.py
+++ b/src/app.py
@@ -1,2 +1,2 @@
 def main():
-    return 1
+    return 2
"""


class Host(App[None]):
    """Pushes one screen and records what it dismissed with."""

    def __init__(self, screen: Screen[Any]) -> None:
        super().__init__()
        self.pushed = screen
        self.results: list[Any] = []

    def on_mount(self) -> None:
        self.push_screen(self.pushed, self.results.append)


def edit_request(**overrides: Any) -> ApprovalRequested:
    fields: dict[str, Any] = dict(
        approval_id="ap1",
        call_id="call1",
        tool="Edit",
        input={"file_path": "src/app.py", "old_string": "return 1", "new_string": "return 2"},
        reason="edits need approval in default mode",
        layer="mode",
        suggested_rules=["Edit(src/app.py)"],
        diff=EDIT_DIFF,
    )
    fields.update(overrides)
    return ApprovalRequested(**fields)


def plan_request(plan: str = "# Plan\n\n1. Read the code\n2. Fix the bug") -> ApprovalRequested:
    return ApprovalRequested(
        approval_id="ap2",
        call_id="call2",
        tool="ExitPlanMode",
        input={"plan": plan},
        reason="plan ready",
        layer="mode",
        suggested_rules=[],
        kind="plan",
    )


def text_of(app: App[Any], selector: str) -> str:
    return str(app.screen.query_one(selector).render())


# --- approval dialog -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "answer"),
    [
        ("1", "allow_once"),
        ("y", "allow_once"),
        ("2", "allow_session"),
        ("s", "allow_session"),
        ("3", "allow_always"),
        ("a", "allow_always"),
        ("escape", "deny"),
    ],
)
async def test_each_approval_key_answers(key: str, answer: str) -> None:
    app = Host(ApprovalScreen(edit_request(), key_guard=0))
    async with app.run_test() as pilot:
        await pilot.press(key)
        await pilot.pause()
        assert app.results == [ApprovalReply(answer)]
        assert not isinstance(app.screen, ApprovalScreen)


async def test_keys_during_the_guard_are_ignored() -> None:
    # A long guard: the machine may be slow, the keys must still land inside it.
    app = Host(ApprovalScreen(edit_request(), key_guard=30))
    async with app.run_test() as pilot:
        await pilot.press("y", "1", "a", "4", "escape")
        await pilot.pause()
        assert app.results == []
        assert isinstance(app.screen, ApprovalScreen) and not app.screen.denying


@pytest.mark.parametrize(
    ("keys", "answer"),
    [
        ([], "allow_once"),
        (["down"], "allow_session"),
        (["down", "down"], "allow_always"),
        (["down"] * 5, "allow_session"),  # past the last choice, back to the first
    ],
)
async def test_arrows_move_the_highlighted_choice_and_enter_picks_it(
    keys: list[str], answer: str
) -> None:
    app = Host(ApprovalScreen(edit_request(), key_guard=0))
    async with app.run_test() as pilot:
        await pilot.press(*keys, "enter")
        await pilot.pause()
        assert app.results == [ApprovalReply(answer)]


async def test_up_from_the_first_choice_wraps_to_deny_and_asks_for_feedback() -> None:
    app = Host(ApprovalScreen(edit_request(), key_guard=0))
    async with app.run_test() as pilot:
        await pilot.press("up")
        assert text_of(app, "#options").splitlines()[-1].startswith("❯ 4 Deny")
        await pilot.press("enter")
        await pilot.pause()
        assert app.results == [] and app.screen.query_one("#feedback-input", Input).has_focus


async def test_enter_during_the_guard_is_ignored() -> None:
    app = Host(ApprovalScreen(edit_request(), key_guard=30))
    async with app.run_test() as pilot:
        await pilot.press("down", "enter")
        await pilot.pause()
        assert app.results == [] and isinstance(app.screen, ApprovalScreen)


async def test_the_keys_hint_shows_remapped_choice_and_scroll_keys() -> None:
    app = Host(ApprovalScreen(edit_request(), key_guard=0))
    app.set_keymap({"mewcode.choices.next": "j", "mewcode.approval.scroll_down": "ctrl+d"})
    async with app.run_test() as pilot:
        hint = text_of(app, "#keys-hint")
        assert hint == "↑/j select · Enter choose · PgUp/Ctrl+D scroll the diff"
        await pilot.press("j", "enter")
        await pilot.pause()
        assert app.results == [ApprovalReply("allow_session")]


async def test_keys_work_once_the_guard_is_over() -> None:
    app = Host(ApprovalScreen(edit_request(), key_guard=0.2))
    async with app.run_test() as pilot:
        screen = app.screen
        await wait_until(pilot, lambda: not screen.guarded)
        await pilot.press("y")
        await pilot.pause()
        assert app.results == [ApprovalReply("allow_once")]


async def test_deny_then_feedback_goes_to_the_model() -> None:
    app = Host(ApprovalScreen(edit_request(), key_guard=0))
    async with app.run_test() as pilot:
        await pilot.press("n")
        await pilot.pause()
        feedback = app.screen.query_one("#feedback-input", Input)
        assert feedback.has_focus and feedback.display
        # Letters that are approval keys elsewhere are just text here.
        await pilot.press(*"say yes", "enter")
        await pilot.pause()
        assert app.results == [ApprovalReply("deny", "say yes")]


async def test_deny_then_escape_sends_no_feedback() -> None:
    app = Host(ApprovalScreen(edit_request(), key_guard=0))
    async with app.run_test() as pilot:
        await pilot.press("4")
        await pilot.press("escape")
        await pilot.pause()
        assert app.results == [ApprovalReply("deny", "")]


async def test_dialog_shows_tool_layer_reason_rule_and_diff() -> None:
    app = Host(ApprovalScreen(edit_request(), key_guard=0))
    async with app.run_test(size=(100, 40)):
        assert "Edit" in text_of(app, "#title")
        reason = text_of(app, "#reason")
        assert "permission mode" in reason and "edits need approval" in reason
        assert "Edit(src/app.py)" in text_of(app, "#options")
        assert app.screen.query_one(DiffPanel).added == 1
        # The diff already shows old/new strings; the argument list does not repeat them.
        arguments = text_of(app, "#arguments")
        assert "file_path: src/app.py" in arguments and "old_string" not in arguments


async def test_always_is_unavailable_without_a_rule_to_save() -> None:
    request = edit_request(tool="Bash", input={"command": "make"}, suggested_rules=[], diff=None)
    app = Host(ApprovalScreen(request, key_guard=0))
    async with app.run_test() as pilot:
        assert "Always" not in text_of(app, "#options")
        await pilot.press("3")
        await pilot.pause()
        assert app.results == [] and isinstance(app.screen, ApprovalScreen)


async def test_d_opens_the_full_diff_and_escape_returns() -> None:
    app = Host(ApprovalScreen(edit_request(), key_guard=0))
    async with app.run_test() as pilot:
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, DiffScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ApprovalScreen) and app.results == []


def test_long_arguments_are_bounded() -> None:
    text = describe_arguments(
        {"command": "\n".join(f"echo {i}" for i in range(100)), "x": "y" * 500}
    )
    lines = text.splitlines()
    assert len(lines) <= 15
    assert lines[-1].startswith("…") and "more lines" in lines[-1]
    assert all(len(line) <= 200 for line in lines)


# --- plan dialog ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "answer"),
    [("1", "allow_once"), ("y", "allow_once"), ("2", "allow_session"), ("a", "allow_session")],
)
async def test_plan_approval_keys(key: str, answer: str) -> None:
    app = Host(PlanApprovalScreen(plan_request(), key_guard=0))
    async with app.run_test() as pilot:
        await pilot.press(key)
        await pilot.pause()
        assert app.results == [ApprovalReply(answer)]


async def test_plan_is_rendered_as_markdown() -> None:
    app = Host(PlanApprovalScreen(plan_request(), key_guard=0))
    async with app.run_test() as pilot:
        await pilot.pause()
        markdown = app.screen.query_one(Markdown)
        assert [title for _, title, _ in markdown.table_of_contents] == ["Plan"]


async def test_keep_planning_with_feedback() -> None:
    app = Host(PlanApprovalScreen(plan_request(), key_guard=0))
    async with app.run_test() as pilot:
        await pilot.press("n")
        await pilot.press(*"add tests", "enter")
        await pilot.pause()
        assert app.results == [ApprovalReply("deny", "add tests")]


async def test_escape_keeps_planning_and_second_escape_skips_feedback() -> None:
    app = Host(PlanApprovalScreen(plan_request(), key_guard=0))
    async with app.run_test() as pilot:
        await pilot.press("escape")
        await pilot.pause()
        assert app.results == [] and app.screen.query_one("#feedback-input", Input).has_focus
        await pilot.press("escape")
        await pilot.pause()
        assert app.results == [ApprovalReply("deny", "")]


async def test_plan_keys_are_guarded_too() -> None:
    app = Host(PlanApprovalScreen(plan_request(), key_guard=30))
    async with app.run_test() as pilot:
        await pilot.press("1")
        await pilot.pause()
        assert app.results == []


# --- diff viewer ---------------------------------------------------------------------


async def test_diff_viewer_switches_between_unified_and_split() -> None:
    from textual_diff_view import DiffView

    app = Host(DiffScreen(EDIT_DIFF, "src/app.py"))
    async with app.run_test(size=(100, 30)) as pilot:
        view = app.screen.query_one(DiffView)
        assert view.split is False
        await pilot.press("s")
        await pilot.pause()
        assert app.screen.query_one(DiffView).split is True
        # Side by side: two code columns per hunk.
        assert len(app.screen.query("DiffCode")) == 2
        await pilot.press("u")
        await pilot.pause()
        assert app.screen.query_one(DiffView).split is False
        assert len(app.screen.query("DiffCode")) == 1
        await pilot.press("q")
        await pilot.pause()
        assert app.results == [None]


async def test_huge_diff_shows_a_note_instead_of_everything() -> None:
    big = unified_diff_of("", "\n".join(f"x = {i}" for i in range(3000)), "big.py")
    panel = DiffPanel(big, "big.py", max_lines=100)

    class PanelApp(App[None]):
        def compose(self):
            yield panel

    async with PanelApp().run_test() as pilot:
        await pilot.pause()
        note = str(pilot.app.query_one(".diff-panel--note", Static).render())
        assert "2,900 more diff lines not shown" in note


# --- first-run setup -----------------------------------------------------------------


async def test_setup_with_an_anthropic_key() -> None:
    app = Host(SetupScreen(setup_methods(), validate_choice))
    async with app.run_test(size=(100, 34)) as pilot:
        app.screen.query_one("#api-key", Input).focus()
        await pilot.press(*"sk-ant-123", "enter")
        await pilot.pause()
        assert app.results == [SetupChoice("anthropic", api_key="sk-ant-123")]


async def test_setup_refuses_an_empty_key() -> None:
    app = Host(SetupScreen(setup_methods(), validate_choice))
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.results == []
        assert "Paste an API key" in text_of(app, "#error")


async def test_setup_with_an_openai_compatible_server() -> None:
    app = Host(SetupScreen(setup_methods(), validate_choice))
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.press("down", "down", "enter")  # third method, then into the form
        await pilot.pause()
        assert app.screen.query_one("#base-url", Input).has_focus
        await pilot.press(*"http://localhost:11434/v1", "tab", *"llama3.1", "ctrl+s")
        await pilot.pause()
        assert app.results == [
            SetupChoice("openai", base_url="http://localhost:11434/v1", model="llama3.1")
        ]


async def test_setup_compatible_server_needs_a_real_url() -> None:
    app = Host(SetupScreen(setup_methods(), validate_choice))
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.press("down", "down", "enter", *"localhost", "ctrl+s")
        await pilot.pause()
        assert app.results == [] and "http://" in text_of(app, "#error")


async def test_setup_offline_demo() -> None:
    app = Host(SetupScreen(setup_methods(), validate_choice))
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.press("down", "down", "down", "enter")
        await pilot.pause()
        assert app.results == [SetupChoice("demo")]


async def test_setup_offers_the_ways_it_is_given_and_shows_what_the_validator_says() -> None:
    methods = (
        SetupMethod("acme", "Paste an Acme key", "Keys are on acme.example.", "key"),
        SetupMethod("local", "Run the local model", "No key needed.", "offline"),
    )
    asked: list[tuple[str, str]] = []

    def validate(method: SetupMethod, api_key: str, base_url: str, model: str) -> SetupChoice:
        asked.append((method.key, api_key))
        if api_key != "good":
            raise ConfigError("Acme keys start with good.")
        return SetupChoice(method.key, api_key=api_key)

    app = Host(SetupScreen(methods, validate))
    async with app.run_test(size=(100, 34)) as pilot:
        options = app.screen.query_one("#methods", OptionList).options
        assert [str(o.prompt) for o in options] == ["Paste an Acme key", "Run the local model"]
        assert text_of(app, "#hint") == "Keys are on acme.example."
        app.screen.query_one("#api-key", Input).focus()
        await pilot.press(*"bad", "enter")
        await pilot.pause()
        assert app.results == [] and text_of(app, "#error") == "Acme keys start with good."
        app.screen.query_one("#api-key", Input).value = "good"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert asked == [("acme", "bad"), ("acme", "good")]
        assert app.results == [SetupChoice("acme", api_key="good")]


def test_apply_setup_keeps_the_key_out_of_settings(paths) -> None:
    paths.user_settings.parent.mkdir(parents=True, exist_ok=True)
    paths.user_settings.write_text("theme: mewcode-light\nbase_url: http://old/v1\n")
    apply_setup(SetupChoice("anthropic", api_key="sk-ant-secret"), paths)

    settings = yaml.safe_load(paths.user_settings.read_text())
    assert settings == {"theme": "mewcode-light", "provider": "anthropic"}
    assert "sk-ant-secret" not in paths.user_settings.read_text()
    creds = credentials_file(paths)
    assert yaml.safe_load(creds.read_text()) == {"anthropic": {"api_key": "sk-ant-secret"}}
    assert stat.S_IMODE(creds.stat().st_mode) == 0o600


def test_apply_setup_compatible_server_and_second_key(paths) -> None:
    apply_setup(SetupChoice("anthropic", api_key="sk-a"), paths)
    apply_setup(SetupChoice("openai", api_key="sk-o", base_url="http://h/v1", model="m"), paths)
    settings = yaml.safe_load(paths.user_settings.read_text())
    assert settings == {"provider": "openai", "model": "m", "base_url": "http://h/v1"}
    creds = yaml.safe_load(credentials_file(paths).read_text())
    assert creds == {"anthropic": {"api_key": "sk-a"}, "openai": {"api_key": "sk-o"}}


def test_apply_setup_demo_saves_nothing(paths) -> None:
    apply_setup(SetupChoice("demo"), paths)
    assert not paths.user_settings.exists() and not credentials_file(paths).exists()


async def test_far_away_hunk_keeps_its_line_numbers_and_stays_fast() -> None:
    import time

    diff = "@@ -200000,3 +200000,3 @@\n a = 1\n-b = 2\n+b = 3\n c = 4\n"

    class PanelApp(App[None]):
        def compose(self):
            yield DiffPanel(diff, "far.py")

    started = time.perf_counter()
    async with PanelApp().run_test(size=(80, 12)) as pilot:
        await pilot.pause()
        numbers = [
            content.plain.strip("▎ ")
            for widget in pilot.app.query("LineAnnotations")
            for content in widget.numbers
        ]
        assert "200001" in numbers and "200002" in numbers
    # Highlighting only the hunk, not 200 000 filler lines (that took ~14 s).
    assert time.perf_counter() - started < 5


async def test_each_choice_says_what_it_covers_and_an_edit_offers_all_edits() -> None:
    app = Host(ApprovalScreen(edit_request(session_grant="accept_edits"), key_guard=0))
    async with app.run_test(size=(100, 40)) as pilot:
        options = text_of(app, "#options").splitlines()
        assert [line[2:] for line in options] == [
            "1 Allow once — this call only",
            "2 Allow all edits this session — switches to acceptEdits",
            "3 Always allow — saves Edit(src/app.py)",
            "4 Deny (then optional feedback)",
        ]
        await pilot.press("2")
        await pilot.pause()
        assert app.results == [ApprovalReply("allow_session")]  # the runtime switches the mode


async def test_bash_keeps_its_per_rule_session_choice() -> None:
    request = edit_request(
        tool="Bash", input={"command": "git status"}, suggested_rules=["Bash(git status:*)"]
    )
    app = Host(ApprovalScreen(request, key_guard=0))
    async with app.run_test(size=(100, 40)):
        options = text_of(app, "#options")
        assert "2 Allow for this session — Bash(git status:*) until you quit" in options
        assert "all edits" not in options
