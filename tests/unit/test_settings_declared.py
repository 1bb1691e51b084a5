"""A new top-level setting is handled for an untrusted project: applied only where it is
stricter, or named to the user as waiting for trust or as ignored (docs/architecture.md#a-setting)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from agent_core.config.settings import load_settings
from agent_core.config.settings_model import (
    SETTINGS_KEYS,
    PermissionSettings,
    RawSettings,
    SandboxSettings,
    Settings,
)

# One sample value per top-level key of a settings file. A key added to RawSettings without a
# sample here fails the first test: decide how an untrusted project's value is treated.
SAMPLES: dict[str, object] = {
    "provider": "openai",
    "model": "some-model",
    "base_url": "http://example.invalid/v1",
    "api_key_env": "SOME_KEY",
    "theme": "mewcode-light",
    "keys": {"cycle_mode": "ctrl+t"},
    "permissions": {"allow": ["Bash"]},
    "hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "true"}]}]},
    "lsp": {"python": {"command": "pylsp"}},
    "snapshots": {"enabled": True},
    "preload": False,
    "preload_idle_minutes": 90.0,
    "limits": {"max_iterations": 3},
    "sandbox": {"network": False},
    "env": {"FOO": "bar"},
    "trustedProjects": ["/"],
}

# Keys whose stricter part applies at once; their other parts are checked by test_trust.py.
APPLIED_WHEN_STRICTER = {"sandbox"}


def test_every_settings_key_has_a_sample() -> None:
    assert set(SETTINGS_KEYS) == set(SAMPLES)


@pytest.mark.parametrize("key", sorted(set(SAMPLES) - APPLIED_WHEN_STRICTER))
def test_an_untrusted_project_key_is_named_to_the_user(paths, key: str) -> None:
    paths.project_settings.parent.mkdir(parents=True, exist_ok=True)
    paths.project_settings.write_text(yaml.safe_dump({key: SAMPLES[key]}))
    settings = load_settings(paths)
    assert settings.project_trusted is False
    told = [p for p in settings.problems if str(paths.project_settings) in p]
    assert len(told) == 1 and key in told[0], settings.problems


# --- the file model is the one declaration: the merged view and the readers follow it ---

# A value per key that changes every merged field it feeds (SAMPLES sets only a part of some).
PERMISSIONS_SAMPLE = {
    "allow": ["Bash"],
    "deny": ["Read(./secret)"],
    "ask": ["Edit"],
    "additionalDirectories": ["/srv/shared"],
    "defaultMode": "plan",
}
SANDBOX_SAMPLE = {
    "network": False,
    "allowUnsandboxed": True,
    "hiddenPaths": ["~/.secrets"],
    "allowUnixSockets": ["/run/app.sock"],
}
FULL_SAMPLES = {**SAMPLES, "permissions": PERMISSIONS_SAMPLE, "sandbox": SANDBOX_SAMPLE}
# Merged fields no file key feeds, and why.
NOT_FROM_A_KEY = {
    "problems": "what the files got wrong, for the user",
    "skipped_until_trust": "what an untrusted project set, for the trust dialog",
    "trusted_programs": "the project programs the user trusted (config/program_trust.py)",
}


def test_every_field_of_the_file_model_is_a_declared_key() -> None:
    assert list(SETTINGS_KEYS) == [f for f in RawSettings.__struct_fields__ if f != "problems"]


def test_every_merged_field_is_fed_by_a_declared_key_or_says_why_not() -> None:
    fed = [name for key in SETTINGS_KEYS.values() for name in key.merged_as]
    assert set(fed) <= set(Settings.__struct_fields__), "merged_as names a field Settings lacks"
    assert set(Settings.__struct_fields__) - set(fed) == set(NOT_FROM_A_KEY)


def test_the_full_samples_set_every_part_of_a_section() -> None:
    assert set(PERMISSIONS_SAMPLE) == set(PermissionSettings.__struct_fields__)
    assert set(SANDBOX_SAMPLE) == set(SandboxSettings.__struct_fields__)


@pytest.mark.parametrize("key", list(SETTINGS_KEYS))
def test_a_key_in_the_users_file_reaches_every_merged_field_it_feeds(paths, key: str) -> None:
    value = [str(paths.project)] if key == "trustedProjects" else FULL_SAMPLES[key]
    paths.user_settings.write_text(yaml.safe_dump({key: value}))
    settings = load_settings(paths)
    assert settings.problems == []
    unchanged = [
        name
        for name in SETTINGS_KEYS[key].merged_as
        if getattr(settings, name) == getattr(Settings(), name)
    ]
    assert unchanged == [], f"{key} is declared but never merged into {unchanged}"


@pytest.mark.parametrize("key", list(SETTINGS_KEYS))
def test_a_claude_code_file_reads_exactly_the_keys_declared_for_it(paths, key: str) -> None:
    file = Path.home() / ".claude" / "settings.json"  # the test's own HOME (tests/conftest.py)
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(json.dumps({key: FULL_SAMPLES[key]}))
    settings = load_settings(paths)
    unused = [p for p in settings.problems if "not used by MewCode" in p]
    assert bool(unused) != SETTINGS_KEYS[key].claude, settings.problems


def test_the_configuration_page_lists_every_key() -> None:
    page = (Path(__file__).parents[2] / "docs" / "configuration.md").read_text()
    table = page.split("## Top-level keys", 1)[1].split("\n## ", 1)[0]
    listed = re.findall(r"^\| `(\w+)` \|", table, re.M)
    assert listed == list(SETTINGS_KEYS)
