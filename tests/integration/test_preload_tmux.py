"""The full-screen UI in a real terminal (tmux), in-process and through the preload server (docs/manual.md#warm-start-preload-server)."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.helpers.preload import COLD, ENTRY, PreloadServer

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def wait_for(predicate, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "condition not reached in time"
        time.sleep(0.1)


class Pane:
    """One tmux server with one 100x30 bash window, on its own socket."""

    def __init__(self, tmp_path: Path, env: dict[str, str]) -> None:
        self.tmux = ["tmux", "-S", str(tmp_path / "tmux.sock")]
        subprocess.run(
            [*self.tmux, "new-session", "-d", "-x", "100", "-y", "30", "bash --norc"],
            env={**os.environ, **env, "PS1": "$ "},
            check=True,
        )

    def screen(self) -> str:
        out = subprocess.run([*self.tmux, "capture-pane", "-p"], capture_output=True, text=True)
        return out.stdout

    def send(self, *keys: str) -> None:
        subprocess.run([*self.tmux, "send-keys", *keys], check=True)

    def close(self) -> None:
        subprocess.run([*self.tmux, "kill-server"], check=False)


def pid_running(command: list[str]) -> int:
    """The pid of the process running ``command --demo``, or 0."""
    out = subprocess.run(["pgrep", "-f", f"{command[-1]} --demo"], capture_output=True, text=True)
    pids = [int(p) for p in out.stdout.split()]
    return pids[0] if pids else 0


def state(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


def whole_ui_shown(screen: str) -> bool:
    # The welcome line at the top and the status line at the bottom, not only the prompt.
    return "MewCode · demo" in screen and "Ask MewCode" in screen and "mode default" in screen


def suspend_and_resume(pane: Pane, pid: int) -> None:
    """Ctrl+Z gives the shell back with the job stopped; fg redraws the whole UI."""
    pane.send("C-z")
    wait_for(lambda: "Stopped" in pane.screen() and state(pid) == "T")
    assert "Ask MewCode" not in pane.screen()  # the shell's screen, not the UI's
    pane.send("fg", "Enter")
    wait_for(lambda: state(pid) != "T")
    wait_for(lambda: whole_ui_shown(pane.screen()))


def jobs_say(pane: Pane, word: str) -> bool:
    """Ask the shell for its jobs; True once the one job is ``word`` (Stopped, Running)."""
    pane.send("clear; jobs", "Enter")
    return any(line.startswith("[1]") and word in line for line in pane.screen().splitlines())


def bg_keeps_the_ui_stopped_until_fg(pane: Pane, pids: list[int]) -> None:
    """`bg` after Ctrl+Z: the UI must not take the terminal back from the shell (a cold
    run is stopped again by SIGTTOU); `fg` then brings the whole UI back."""
    pane.send("C-z")
    wait_for(lambda: all(state(pid) == "T" for pid in pids) and jobs_say(pane, "Stopped"))
    pane.send("clear; bg", "Enter")
    wait_for(lambda: "&" in pane.screen())  # bash: "[1]+ <command> &"
    wait_for(lambda: all(state(pid) == "T" for pid in pids) and jobs_say(pane, "Stopped"))
    assert "Ask MewCode" not in pane.screen()  # the shell's screen, never redrawn by the UI
    pane.send("fg", "Enter")
    wait_for(lambda: whole_ui_shown(pane.screen()))


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def test_ctrl_z_suspends_the_in_process_ui_and_fg_redraws_it(
    mewcode_home: Path, project: Path, tmp_path: Path
) -> None:
    pane = Pane(tmp_path, {"MEWCODE_HOME": str(mewcode_home), "MEWCODE_PRELOAD": "0"})
    pid = 0
    try:
        pane.send(f"cd {project}; {' '.join([*COLD, '--demo'])}", "Enter")
        wait_for(lambda: whole_ui_shown(pane.screen()))
        pid = pid_running(COLD)
        assert pid
        suspend_and_resume(pane, pid)
        bg_keeps_the_ui_stopped_until_fg(pane, [pid])
        pane.send("-l", "typed after fg")  # the UI, not the shell, has the keys again
        wait_for(lambda: "│ typed after fg" in pane.screen())
    finally:
        pane.close()  # hangs the UI up
    # A hung-up UI exits: it once spun on its dead terminal's end-of-file for good.
    wait_for(lambda: not _running(pid))


def test_ui_through_the_server_resizes_suspends_and_a_killed_client_restores_the_terminal(
    mewcode_home: Path, project: Path, tmp_path: Path
) -> None:
    server = PreloadServer(mewcode_home).start()
    pane = Pane(tmp_path, {"MEWCODE_HOME": str(mewcode_home)})
    try:
        pane.send(f"cd {project}; {' '.join([*ENTRY, '--demo'])}", "Enter")
        wait_for(lambda: whole_ui_shown(pane.screen()))
        pid = pid_running(ENTRY)
        assert pid and server.log_text().count("ran pid") == 0
        subprocess.run([*pane.tmux, "resize-window", "-x", "70", "-y", "24"], check=True)
        wait_for(
            lambda: any(
                line.rstrip().endswith("╮") and len(line.rstrip()) <= 70
                for line in pane.screen().splitlines()
            )
        )
        suspend_and_resume(pane, pid)
        child = int(re.findall(r"started pid (\d+)", server.log_text())[-1])
        bg_keeps_the_ui_stopped_until_fg(pane, [pid, child])
        pane.send("-l", "typed after fg")
        wait_for(lambda: "│ typed after fg" in pane.screen())
        os.kill(pid, signal.SIGKILL)
        wait_for(lambda: "(client gone)" in server.log_text())
        pane.send("clear; stty -a | grep -o -- '-icanon' || echo $((40+2))COOKED", "Enter")
        wait_for(lambda: "42COOKED" in pane.screen())
    finally:
        pane.close()
        server.stop()
