"""Start a real preload server in a test's MEWCODE_HOME and run `mewcode` through it."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

from mewcode_tui.entry import IDLE_ENV
from mewcode_tui.preload.location import use_socket_path

ENTRY = [sys.executable, "-m", "mewcode_tui.entry"]
COLD = [sys.executable, "-m", "mewcode_tui.cli"]


def answering(path: Path) -> bool:
    """A server accepts connections on ``path``."""
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        use_socket_path(str(path), probe.connect)  # as the client does: a deep TMPDIR is long
        return True
    except OSError:
        return False
    finally:
        probe.close()


class PreloadServer:
    """A `python -m mewcode_tui.preload.server` process for one MEWCODE_HOME."""

    def __init__(self, home: Path, env: dict[str, str] | None = None) -> None:
        self.home = home
        self.env = {**os.environ, "MEWCODE_HOME": str(home), **(env or {})}
        self.env.setdefault(IDLE_ENV, "0.5")
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def log(self) -> Path:
        return self.home / "logs" / "preload.log"

    def runs(self) -> int:
        """How many commands the server has run to their end."""
        if not self.log.exists():
            return 0
        return self.log.read_text().count("preload: ran pid")

    def wait_for_runs_started(self, count: int, timeout: float = 60) -> None:
        """Until the server has started ``count`` commands."""
        deadline = time.monotonic() + timeout
        while not (
            self.log.exists() and self.log.read_text().count("preload: started pid") >= count
        ):
            assert time.monotonic() < deadline, f"no command started: {self.log_text()}"
            time.sleep(0.05)

    def start(self, timeout: float = 60) -> PreloadServer:
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "mewcode_tui.preload.server",
                "--home",
                str(self.home),
                "--idle-seconds",
                str(60 * float(self.env[IDLE_ENV])),
            ],
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            cwd="/",  # as the entry starts it: `-m` puts the cwd first on sys.path
        )
        deadline = time.monotonic() + timeout
        while not any(answering(p) for p in (self.home / "run").glob("preload-*.sock")):
            assert self.proc.poll() is None, f"preload server exited: {self.log_text()}"
            assert time.monotonic() < deadline, "preload server did not come up"
            time.sleep(0.05)
        return self

    def log_text(self) -> str:
        return self.log.read_text() if self.log.exists() else "(no log)"

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def run_mewcode(
    command: list[str], args: list[str], env: dict[str, str], cwd: Path, timeout: float = 90
) -> subprocess.CompletedProcess[str]:
    """``command ARGS`` (the entry or the cold cli) in ``cwd`` with ``env`` over os.environ."""
    # A server the entry starts for a cold run exits soon after the test.
    return subprocess.run(
        [*command, *args],
        env={**os.environ, IDLE_ENV: "0.5", **env},
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )
