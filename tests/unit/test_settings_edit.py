"""Editing settings files never overwrites what the user wrote (docs/configuration.md#settings-files)."""

from __future__ import annotations

import pytest
import yaml

from agent_core.config.settings import append_rule, remove_rule, set_value
from agent_core.errors import ConfigError


def test_rules_and_values_are_added_and_removed_keeping_the_rest(tmp_path) -> None:
    file = tmp_path / "settings.yaml"
    file.write_text("model: m1\npermissions:\n  deny: ['Bash(git push:*)']\n")
    append_rule(file, "allow", "Bash(ls:*)")
    append_rule(file, "allow", "Bash(ls:*)")  # no duplicate
    set_value(file, "theme", "mewcode-light")
    data = yaml.safe_load(file.read_text())
    assert data == {
        "model": "m1",
        "theme": "mewcode-light",
        "permissions": {"deny": ["Bash(git push:*)"], "allow": ["Bash(ls:*)"]},
    }
    assert remove_rule(file, "allow", "Bash(ls:*)") is True
    assert remove_rule(file, "allow", "Bash(ls:*)") is False
    assert remove_rule(tmp_path / "missing.yaml", "allow", "x") is False


@pytest.mark.parametrize("text", ["- a list\n- not a mapping\n", "model: [\n", "permissions: 3\n"])
def test_a_file_that_cannot_be_edited_safely_is_reported_and_left_alone(tmp_path, text) -> None:
    file = tmp_path / "settings.yaml"
    file.write_text(text)
    with pytest.raises(ConfigError, match="settings.yaml.*left unchanged"):
        append_rule(file, "allow", "Read")
    assert file.read_text() == text
