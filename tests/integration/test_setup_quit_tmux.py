"""Esc on the first-run screen is the user's quit: `mewcode` (and so `make run`) exits 0."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.helpers.preload import COLD
from tests.integration.test_preload_tmux import Pane, wait_for

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def test_escape_on_the_setup_screen_exits_0(
    mewcode_home: Path, project: Path, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    env = {
        "MEWCODE_HOME": str(mewcode_home),
        "HOME": str(home),
        "MEWCODE_PRELOAD": "0",
        "ANTHROPIC_API_KEY": "",
        "OPENAI_API_KEY": "",
    }
    pane = Pane(tmp_path, env)
    try:
        unset = "unset ANTHROPIC_API_KEY OPENAI_API_KEY ANTHROPIC_AUTH_TOKEN"
        pane.send(f"cd {project}; {unset}; {' '.join(COLD)}; echo quit-status=$?", "Enter")
        wait_for(lambda: "Do you trust" in pane.screen())
        # Not now (the dialog ignores keys for a moment after it opens: press until it
        # goes), then the first-run screen, as no key is configured.
        wait_for(lambda: "Do you trust" not in pane.screen() or pane.send("2") or False)
        wait_for(lambda: "offline demo" in pane.screen().lower())
        wait_for(lambda: "esc Quit" in pane.screen())
        pane.send("Escape")
        wait_for(lambda: re.search(r"quit-status=\d", pane.screen()) is not None)
        assert re.search(r"quit-status=0\b", pane.screen()), pane.screen()
    finally:
        pane.close()
