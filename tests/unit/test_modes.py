"""The one list of permission modes and the orders derived from it."""

from __future__ import annotations

from typing import get_args

import msgspec
import pytest

from agent_core.config.settings_model import PermissionSettings
from agent_core.config.trust import stricter_mode
from agent_core.modes import MODE_CYCLE, MODE_STRICTNESS, MODES, Mode
from mewcode_tui.cli import build_parser


def test_the_orders_use_only_known_modes() -> None:
    assert sorted(MODE_STRICTNESS) == sorted(MODES)  # every mode has a strictness
    assert set(MODE_CYCLE) <= set(MODES)
    assert "bypassPermissions" not in MODE_CYCLE  # never one Shift+Tab away


def test_settings_and_the_cli_accept_exactly_these_modes() -> None:
    assert MODES == get_args(Mode)
    for mode in MODES:
        assert msgspec.convert({"defaultMode": mode}, PermissionSettings).defaultMode == mode
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"defaultMode": "yolo"}, PermissionSettings)
    flag = next(a for a in build_parser()._actions if "--permission-mode" in a.option_strings)
    assert tuple(flag.choices or ()) == MODES


def test_an_untrusted_project_can_only_make_the_mode_stricter() -> None:
    assert stricter_mode("default", "bypassPermissions") == "default"
    assert stricter_mode("acceptEdits", "plan") == "plan"
