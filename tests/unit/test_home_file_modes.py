"""Everything MewCode writes into MEWCODE_HOME outside sessions is 0600 in 0700 directories."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from agent_core.config.settings import append_rule
from agent_core.config.trust import record_trust
from mewcode_tui.prompt_history import PromptHistoryFile
from mewcode_tui.screens.setup import SetupChoice
from mewcode_tui.setup_store import apply_setup
from mewcode_tui.themes import save_theme


def _modes(root: Path) -> dict[str, int]:
    found = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = Path(dirpath, name)
            found[str(path.relative_to(root))] = stat.S_IMODE(path.stat().st_mode)
    return found


def test_setup_theme_trust_and_rules_are_private(paths, mewcode_home: Path) -> None:
    mewcode_home.chmod(0o755)
    apply_setup(SetupChoice("anthropic", api_key="sk-ant-test-1234567890"), paths)
    save_theme(paths, "mewcode-dark")
    record_trust(paths)
    append_rule(paths.user_settings, "allow", "Bash(ls:*)")
    PromptHistoryFile.for_project(paths).add("a prompt")
    modes = _modes(mewcode_home)
    assert {"credentials.yaml", "settings.yaml", "history"} <= set(modes)
    loose = {
        name: oct(mode)
        for name, mode in modes.items()
        if mode != (0o700 if (mewcode_home / name).is_dir() else 0o600)
    }
    assert loose == {}
    assert stat.S_IMODE(mewcode_home.stat().st_mode) == 0o700
