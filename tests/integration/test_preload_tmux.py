"""The full-screen UI through the preload server, in a real terminal (tmux): SPEC §22."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.helpers.preload import ENTRY, PreloadServer

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def wait_for(predicate, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "condition not reached in time"
        time.sleep(0.1)


def test_ui_opens_resizes_suspends_and_the_terminal_survives_a_killed_client(
    mewcode_home: Path, project: Path, tmp_path: Path
) -> None:
    server = PreloadServer(mewcode_home).start()
    sock = ["tmux", "-S", str(tmp_path / "tmux.sock")]
    env = {**os.environ, "MEWCODE_HOME": str(mewcode_home), "PS1": "$ "}
    subprocess.run(
        [*sock, "new-session", "-d", "-x", "100", "-y", "30", "bash --norc"], env=env, check=True
    )

    def screen() -> str:
        return subprocess.run([*sock, "capture-pane", "-p"], capture_output=True, text=True).stdout

    def client_pid() -> int:
        out = subprocess.run(["pgrep", "-f", f"{ENTRY[-1]} --demo"], capture_output=True, text=True)
        pids = [int(p) for p in out.stdout.split()]
        return pids[0] if pids else 0

    try:
        command = " ".join([*ENTRY, "--demo", "--cwd", str(project)])
        subprocess.run([*sock, "send-keys", f"cd {project}; {command}", "Enter"], check=True)
        wait_for(lambda: "Ask MewCode" in screen())
        assert client_pid() and server.log_text().count("ran pid") == 0
        subprocess.run([*sock, "resize-window", "-x", "70", "-y", "24"], check=True)
        wait_for(
            lambda: any(
                line.rstrip().endswith("╮") and len(line.rstrip()) <= 70
                for line in screen().splitlines()
            )
        )
        pid = client_pid()
        os.kill(pid, signal.SIGTSTP)  # as the shell's job control would
        wait_for(lambda: "Stopped" in screen())
        subprocess.run([*sock, "send-keys", "fg", "Enter"], check=True)
        wait_for(lambda: open(f"/proc/{pid}/stat").read().split()[2] != "T")
        wait_for(lambda: "Ask MewCode" in screen() or "╭" in screen())
        os.kill(pid, signal.SIGKILL)
        wait_for(lambda: "(client gone)" in server.log_text())
        subprocess.run(
            [
                *sock,
                "send-keys",
                "clear; stty -a | grep -o -- '-icanon' || echo $((40+2))COOKED",
                "Enter",
            ],
            check=True,
        )
        wait_for(lambda: "42COOKED" in screen())
    finally:
        subprocess.run([*sock, "kill-server"], check=False)
        server.stop()
