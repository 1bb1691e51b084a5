"""keys: in the user's settings remaps bindings by id; /help and the dialogs show the new keys."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from agent_core.config.settings import load_settings
from mewcode_tui.app import MewCodeApp
from mewcode_tui.keymap import (
    binding_groups,
    display_key,
    key_clashes,
    key_problem,
    resolve_keymap,
)
from mewcode_tui.session_start import TuiOptions
from tests.tui.conftest import ask_until_approval, past_key_guard, wait_until
from tests.tui.fakes import FakeRuntime, opener_for
from tests.tui.test_main_approval import approval_script
from tests.tui.test_main_commands import notices, run, start


def app_with_user_keys(paths, project, runtime: FakeRuntime, keys_yaml: str) -> MewCodeApp:
    """An app whose settings come from a user settings file holding ``keys_yaml``."""
    paths.user_settings.parent.mkdir(parents=True, exist_ok=True)
    paths.user_settings.write_text("keys:\n" + keys_yaml)
    options = TuiOptions(
        cwd=project, paths=paths, settings=load_settings(paths), provider_name="fake"
    )
    return MewCodeApp(
        options,
        provider=SimpleNamespace(name="fake", model="fake-model"),
        opener=opener_for(runtime),
        clock=lambda: 1000.0,
    )


async def test_a_remapped_key_runs_the_action_and_the_old_one_does_not(paths, project):
    runtime = FakeRuntime(project)
    app = app_with_user_keys(paths, project, runtime, "  cycle_mode: ctrl+t\n")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start(pilot, app)
        await pilot.press("shift+tab")
        await pilot.pause()
        assert runtime.mode == "default" and screen.status.mode == "default"
        await pilot.press("ctrl+t")
        await wait_until(pilot, lambda: screen.status.mode == "acceptEdits")
        assert runtime.mode == "acceptEdits"

        await run(pilot, screen, "/help")
        help_text = notices(screen)[-1]
        assert "Ctrl+T mode [cycle_mode]" in help_text
        assert "Shift+Tab" not in help_text
        assert "Esc cancel turn [cancel_turn]" in help_text  # not remapped: as before


async def test_bad_entries_warn_once_each_naming_the_file_and_the_rest_applies(paths, project):
    runtime = FakeRuntime(project)
    keys = "  cycle_mode: ctrl+t\n  cycle_moed: ctrl+y\n  toggle_calls: ctrl+nope\n"
    app = app_with_user_keys(paths, project, runtime, keys)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start(pilot, app)
        await wait_until(pilot, lambda: len([n for n in notices(screen) if "keys." in n]) == 2)
        warned = [n for n in notices(screen) if "keys." in n]
        assert all("\n" not in n and str(paths.user_settings) in n for n in warned)
        assert "keys.cycle_moed: no key binding has this name" in warned[0]
        assert "keys.toggle_calls: 'ctrl+nope' is not a key name" in warned[1]
        await pilot.press("ctrl+t")
        await wait_until(pilot, lambda: screen.status.mode == "acceptEdits")


async def test_a_dialog_shows_and_answers_to_its_remapped_key(paths, project):
    runtime = FakeRuntime(project)
    runtime.scripts.append(approval_script(runtime))
    app = app_with_user_keys(paths, project, runtime, "  approval.allow_once: o\n")
    async with app.run_test(size=(100, 34)) as pilot:
        screen = await ask_until_approval(pilot, app, "edit it")
        dialog = app.screen
        options = str(dialog.query_one("#options").render())
        assert "o Allow once" in options and "2 Allow for this session" in options
        await past_key_guard(pilot, app)
        await pilot.press("1", "y")  # the old keys no longer answer
        await pilot.pause()
        assert app.screen is dialog and not runtime.replies
        await pilot.press("o")
        await wait_until(pilot, lambda: not screen.turn_active)
        assert [r.answer for r in runtime.replies] == ["allow_once"]


def test_every_binding_of_every_screen_and_widget_is_remappable() -> None:
    # A binding without an id, or on a screen binding_groups() leaves out, cannot be remapped
    # and is missing from /help.
    import importlib
    import inspect
    import pkgutil

    from textual.binding import Binding

    import mewcode_tui.screens
    import mewcode_tui.widgets

    listed = {b.id for _, bindings in binding_groups() for b in bindings}
    missing = []
    for package in (mewcode_tui.screens, mewcode_tui.widgets):
        for info in pkgutil.iter_modules(package.__path__):
            module = importlib.import_module(f"{package.__name__}.{info.name}")
            for _, cls in inspect.getmembers(module, inspect.isclass):
                if cls.__module__ != module.__name__:
                    continue
                for binding in cls.__dict__.get("BINDINGS", []):
                    if isinstance(binding, Binding) and binding.id not in listed:
                        missing.append(f"{cls.__name__}: {binding.key} ({binding.id})")
    assert not missing


def test_every_binding_has_a_unique_id_under_the_mewcode_prefix() -> None:
    ids = [b.id for _, bindings in binding_groups() for b in bindings]
    assert len(ids) == len(set(ids)) and all(i.startswith("mewcode.") for i in ids)
    assert {"mewcode.cancel_turn", "mewcode.cycle_mode", "mewcode.approval.deny"} <= set(ids)


@pytest.mark.parametrize(
    "value", ["ctrl+t", "f5", "escape", "?", "question_mark", "x,ctrl+shift+up", "pagedown"]
)
def test_key_strings_textual_knows_are_accepted(value: str) -> None:
    assert key_problem(value) is None


@pytest.mark.parametrize("value", ["", "ctrl+", "cmd+t", "ctrl+nope", "t t", 5, None, True])
def test_key_strings_textual_does_not_know_are_refused(value: object) -> None:
    assert key_problem(value) is not None


def test_resolve_takes_short_or_full_ids_and_keeps_good_entries() -> None:
    known = {"mewcode.cycle_mode", "mewcode.cancel_turn"}
    keymap, warnings = resolve_keymap(
        {"cycle_mode": "ctrl+t, f2", "mewcode.cancel_turn": "ctrl+g", "nope": "x"}, known, "s.yaml"
    )
    assert keymap == {"mewcode.cycle_mode": "ctrl+t,f2", "mewcode.cancel_turn": "ctrl+g"}
    assert warnings == ["s.yaml: keys.nope: no key binding has this name (see /help)"]


def test_a_remapped_key_already_used_in_the_same_place_is_reported() -> None:
    groups = binding_groups()
    keymap = {"mewcode.cycle_mode": "escape", "mewcode.diff.close": "s"}
    assert key_clashes(groups, keymap, "s.yaml") == [
        "s.yaml: keys.cycle_mode: Esc is also cancel_turn in the chat; only one of them will run",
        "s.yaml: keys.diff.close: s is also diff.side_by_side in the diff viewer;"
        " only one of them will run",
    ]
    assert key_clashes(groups, {"mewcode.cycle_mode": "ctrl+t"}, "s.yaml") == []
    assert key_clashes(groups, {}, "s.yaml") == []  # the defaults never clash


def test_keys_read_as_in_the_footer_family() -> None:
    assert [display_key(k) for k in ("ctrl+o", "shift+tab", "escape", "y", "question_mark")] == [
        "Ctrl+O",
        "Shift+Tab",
        "Esc",
        "y",
        "?",
    ]
