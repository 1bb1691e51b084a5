"""The preload server waits a working day by default; the user's settings or the
environment change that, and a bad value never stops a run."""

from __future__ import annotations

from pathlib import Path

import pytest

from mewcode_tui.entry import IDLE_ENV, idle_arguments
from mewcode_tui.preload.server import idle_setting


def test_by_default_the_server_waits_twelve_hours(tmp_path: Path) -> None:
    assert idle_setting(tmp_path) == 12 * 3600


def test_the_user_settings_set_the_limit(tmp_path: Path) -> None:
    (tmp_path / "settings.yaml").write_text("preload_idle_minutes: 90\n")
    assert idle_setting(tmp_path) == 90 * 60


@pytest.mark.parametrize("text", ["preload_idle_minutes: -5\n", "preload_idle_minutes: [\n"])
def test_a_bad_setting_keeps_the_default(tmp_path: Path, text: str) -> None:
    (tmp_path / "settings.yaml").write_text(text)
    assert idle_setting(tmp_path) == 12 * 3600


def test_the_environment_wins_when_it_is_a_number() -> None:
    assert idle_arguments({IDLE_ENV: "0.5"}) == ["--idle-seconds", "30.0"]
    assert idle_arguments({}) == []  # the server reads the settings
    assert idle_arguments({IDLE_ENV: "abc"}) == []
    assert idle_arguments({IDLE_ENV: "-1"}) == []
