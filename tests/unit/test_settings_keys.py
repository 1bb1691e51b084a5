"""``keys:`` (key remapping) and ``preload:`` (warm start) are read from the user's settings file only."""

from __future__ import annotations

import pytest

from agent_core.config.settings import load_settings
from mewcode_tui.preload.location import preload_disabled


def write(path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_user_keys_are_kept_as_written(paths) -> None:
    write(paths.user_settings, "keys:\n  cycle_mode: ctrl+t\n  approval.deny: x\n")
    settings = load_settings(paths)
    assert settings.keys == {"cycle_mode": "ctrl+t", "approval.deny": "x"}
    assert settings.problems == []


def test_a_project_file_cannot_remap_keys_even_when_trusted(paths) -> None:
    write(paths.user_settings, "keys:\n  cycle_mode: ctrl+t\n")
    write(paths.project_settings, "keys:\n  cycle_mode: y\n  cancel_turn: enter\n")
    for trusted in (False, True):
        settings = load_settings(paths, trust_project=trusted)
        assert settings.keys == {"cycle_mode": "ctrl+t"}
        assert [p for p in settings.problems if "keys ignored" in p] == [
            f"{paths.project_settings}: keys ignored: only {paths.user_settings} remaps keys"
        ]


def test_keys_that_are_not_a_mapping_are_dropped_with_the_line(paths) -> None:
    write(paths.user_settings, "model: m\nkeys: ctrl+t\n")
    settings = load_settings(paths)
    assert settings.keys == {} and settings.model == "m"
    assert len(settings.problems) == 1 and "line 2: keys" in settings.problems[0]


@pytest.mark.parametrize("value", ["false", "no", "off", "False"])
def test_preload_false_in_the_user_file_turns_warm_start_off(paths, value) -> None:
    write(paths.user_settings, f"preload: {value}  # cold starts only\n")
    settings = load_settings(paths)
    assert settings.preload is False and settings.problems == []
    # The `mewcode` client reads the same line without YAML: both must agree.
    assert preload_disabled({}, paths.home) is True


def test_a_project_file_cannot_turn_warm_start_off(paths) -> None:
    write(paths.project_settings, "preload: false\n")
    for trusted in (False, True):
        settings = load_settings(paths, trust_project=trusted)
        assert settings.preload is True
        assert f"{paths.project_settings}: preload ignored" in " ".join(settings.problems)
    assert preload_disabled({}, paths.home) is False
