"""The client relays the terminal's signals to the warm child, also those that come before its pid."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mewcode_tui.preload.client import FORWARDED, SignalRelay

RECORDER = """
import signal, sys, time
from pathlib import Path
log = Path(sys.argv[1])
for sig in (signal.SIGWINCH, signal.SIGUSR1):
    signal.signal(sig, lambda n, _f: log.open("a").write(f"{n}\\n"))
Path(sys.argv[2]).touch()
time.sleep(60)
"""


def received(log: Path, count: int) -> list[int]:
    deadline = time.monotonic() + 15
    while True:
        lines = log.read_text().split() if log.exists() else []
        if len(lines) >= count or time.monotonic() > deadline:
            return [int(n) for n in lines]
        time.sleep(0.01)


@pytest.mark.slow
def test_signals_before_the_pid_are_held_then_sent(tmp_path: Path) -> None:
    log, ready = tmp_path / "log", tmp_path / "ready"
    child = subprocess.Popen([sys.executable, "-c", RECORDER, str(log), str(ready)])
    relay = SignalRelay()
    before = {sig: signal.getsignal(sig) for sig in FORWARDED}
    try:
        deadline = time.monotonic() + 15
        while not ready.exists():
            assert time.monotonic() < deadline
            time.sleep(0.01)
        relay.install()  # as the client does once it has told the server to go
        os.kill(os.getpid(), signal.SIGWINCH)  # a resize while the child starts
        os.kill(os.getpid(), signal.SIGUSR1)
        assert relay.held == [signal.SIGWINCH, signal.SIGUSR1]
        relay.start(child.pid)
        # (The kernel delivers two pending signals lowest number first.)
        assert sorted(received(log, 2)) == [signal.SIGUSR1, signal.SIGWINCH]
        assert relay.held == []
        os.kill(os.getpid(), signal.SIGWINCH)  # and afterwards, as they come
        assert received(log, 3)[-1] == signal.SIGWINCH
    finally:
        relay.uninstall()
        child.kill()
        child.wait()
    assert {sig: signal.getsignal(sig) for sig in FORWARDED} == before


@pytest.mark.slow
def test_a_child_that_is_gone_is_no_error() -> None:
    child = subprocess.Popen(["true"])
    child.wait()
    relay = SignalRelay()
    relay.held.append(signal.SIGWINCH)
    relay.start(child.pid)
    assert relay.held == []
