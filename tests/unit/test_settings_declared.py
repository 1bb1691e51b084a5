"""A new top-level setting is handled for an untrusted project: applied only where it is
stricter, or named to the user as waiting for trust or as ignored (docs/architecture.md#a-setting)."""

from __future__ import annotations

import pytest
import yaml

from agent_core.config.settings import load_settings
from agent_core.config.settings_model import RawSettings

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
    "limits": {"max_iterations": 3},
    "sandbox": {"network": False},
    "env": {"FOO": "bar"},
    "trustedProjects": ["/"],
}

# Keys whose stricter part applies at once; their other parts are checked by test_trust.py.
APPLIED_WHEN_STRICTER = {"sandbox"}


def test_every_settings_key_has_a_sample() -> None:
    fields = set(RawSettings.__struct_fields__) - {"problems"}
    assert fields == set(SAMPLES)


@pytest.mark.parametrize("key", sorted(set(SAMPLES) - APPLIED_WHEN_STRICTER))
def test_an_untrusted_project_key_is_named_to_the_user(paths, key: str) -> None:
    paths.project_settings.parent.mkdir(parents=True, exist_ok=True)
    paths.project_settings.write_text(yaml.safe_dump({key: SAMPLES[key]}))
    settings = load_settings(paths)
    assert settings.project_trusted is False
    told = [p for p in settings.problems if str(paths.project_settings) in p]
    assert len(told) == 1 and key in told[0], settings.problems
