"""`echo ... | mewcode`: the piped text is the UI's first message, and the keys still work."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.helpers.preload import COLD, ENTRY
from tests.integration.test_preload_tmux import Pane, _running, pid_running, wait_for

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


@pytest.mark.parametrize("command", [COLD, ENTRY], ids=["cold", "entry"])
def test_piped_text_is_the_first_message_and_ctrl_q_quits(
    command: list[str], mewcode_home: Path, project: Path, tmp_path: Path
) -> None:
    pane = Pane(tmp_path, {"MEWCODE_HOME": str(mewcode_home), "MEWCODE_PRELOAD": "0"})
    pid = 0
    try:
        pane.send(
            f"cd {project}; echo hi from the pipe | {' '.join([*command, '--demo'])}", "Enter"
        )
        wait_for(lambda: "hi from the pipe" in pane.screen() and "Ask MewCode" in pane.screen())
        pid = pid_running(command)
        assert pid
        pane.send("C-q")  # read from the terminal: with the pipe as input it was ignored
        wait_for(lambda: not _running(pid))
    finally:
        pane.close()
