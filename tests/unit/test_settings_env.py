"""The settings' ``env`` reaches tool commands, never MewCode's own environment or API keys."""

from __future__ import annotations

import os
from types import SimpleNamespace

import pytest

from agent_core.config.settings_env import env_entry_problem
from agent_core.tools.bash import shell_env
from agent_core.tools.session_state import SessionToolState


def ctx(**state: object):
    return SimpleNamespace(state=SessionToolState(**state))  # type: ignore[arg-type]


def test_commands_get_the_settings_env(monkeypatch) -> None:
    monkeypatch.setenv("ALREADY", "user")
    env = shell_env(ctx(command_env={"FOO": "bar", "ALREADY": "settings"}))  # type: ignore[arg-type]
    assert env["FOO"] == "bar" and env["ALREADY"] == "settings"
    assert "FOO" not in os.environ  # never MewCode's own


def test_the_settings_env_cannot_hand_commands_an_api_key(monkeypatch) -> None:
    state = {"command_env": {"ANTHROPIC_API_KEY": "x", "MY_KEY": "y", "PAGER": "less"},
             "withheld_env": ("MY_KEY",)}  # fmt: skip
    env = shell_env(ctx(**state))  # type: ignore[arg-type]
    assert "ANTHROPIC_API_KEY" not in env and "MY_KEY" not in env
    assert env["PAGER"] == "cat"  # what would hang a command stays off


@pytest.mark.parametrize(
    ("name", "value", "ok"),
    [("FOO", "1", True), ("NODE_OPTIONS", "--x", True), ("LD_AUDIT", "x", False),
     ("ld_preload", "x", False), ("PYTHONSTARTUP", "x", False), ("1X", "x", False),
     ("A=B", "x", False), ("FOO", "a\0b", False), ("FOO", 3, False)],
)  # fmt: skip
def test_env_entry_problem(name: str, value: object, ok: bool) -> None:
    assert (env_entry_problem(name, value) is None) is ok
