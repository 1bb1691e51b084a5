"""The one list of permission modes and the orders derived from it."""

from __future__ import annotations

from typing import get_args

import msgspec
import pytest

from agent_core.config.settings_model import PermissionSettings
from agent_core.config.trust import stricter_mode
from agent_core.errors import MewCodeError
from agent_core.modes import MODE_CYCLE, MODE_STRICTNESS, MODES, Mode, as_mode, mode_named
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


def test_a_mode_named_from_outside_is_checked_once_where_it_enters() -> None:
    assert [mode_named(m) for m in MODES] == list(MODES)
    assert mode_named("Plan") is None and mode_named(None) is None and mode_named(3) is None
    assert as_mode("plan", "--permission-mode") == "plan"
    with pytest.raises(MewCodeError) as caught:
        as_mode("yolo", "--permission-mode")
    assert str(caught.value) == (
        "--permission-mode: 'yolo' is not a mode (default, acceptEdits, plan, bypassPermissions)"
    )


def test_the_cli_refuses_an_unknown_mode_in_one_line() -> None:
    from mewcode_tui.cli import start_flags

    args = build_parser().parse_args(["-p", "hi"])
    args.permission_mode = "yolo"  # what argparse's choices keep out, were they ever dropped
    with pytest.raises(MewCodeError, match=r"^--permission-mode: 'yolo' is not a mode"):
        start_flags(args)
