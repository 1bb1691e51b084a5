"""The waiter stops a warm command while its client is stopped, and continues it with it."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable, Iterator

import pytest

from mewcode_tui.preload.stop_follower import StopFollower, stopped_by_signal


def state_of(pid: int) -> str:
    with open(f"/proc/{pid}/stat", "rb") as stat:
        return stat.read().rsplit(b")", 1)[1].split()[0].decode()


def wait_for_state(pid: int, wanted: str) -> None:
    deadline = time.monotonic() + 15
    while state_of(pid) != wanted:
        assert time.monotonic() < deadline, f"pid {pid} never reached state {wanted}"
        time.sleep(0.01)


@pytest.fixture
def sleeper() -> Iterator[Callable[[], subprocess.Popen[bytes]]]:
    """Starts `sleep 60` processes, killed after the test."""
    procs: list[subprocess.Popen[bytes]] = []

    def start() -> subprocess.Popen[bytes]:
        procs.append(subprocess.Popen(["sleep", "60"]))
        return procs[-1]

    yield start
    for proc in procs:
        proc.kill()
        proc.wait()


@pytest.mark.slow
def test_a_stopped_process_is_told_from_a_running_one_and_a_missing_one(sleeper) -> None:
    proc = sleeper()
    wait_for_state(proc.pid, "S")
    assert not stopped_by_signal(proc.pid)
    os.kill(proc.pid, signal.SIGSTOP)
    wait_for_state(proc.pid, "T")
    assert stopped_by_signal(proc.pid)
    os.kill(proc.pid, signal.SIGCONT)
    wait_for_state(proc.pid, "S")
    assert not stopped_by_signal(proc.pid)
    proc.kill()
    proc.wait()
    assert not stopped_by_signal(proc.pid)  # gone: nothing to follow


@pytest.mark.slow
def test_the_child_stops_with_its_client_and_is_left_for_the_client_to_continue(sleeper) -> None:
    client, child = sleeper(), sleeper()
    follower = StopFollower(client.pid, child.pid)
    wait_for_state(client.pid, "S")
    follower.check()
    assert not follower.holding
    wait_for_state(child.pid, "S")
    os.kill(client.pid, signal.SIGSTOP)
    wait_for_state(client.pid, "T")
    follower.check()
    wait_for_state(child.pid, "T")
    assert follower.holding and not follower.stop_is_news()  # the client stopped first
    os.kill(client.pid, signal.SIGCONT)
    wait_for_state(client.pid, "S")
    follower.check()
    assert not follower.holding
    # A real client forwards the SIGCONT that continued it; a second one from here
    # would make a UI take the terminal twice.
    assert state_of(child.pid) == "T"
    assert follower.stop_is_news()  # stopped while its client runs: e.g. after `bg`
    os.kill(child.pid, signal.SIGCONT)
    wait_for_state(child.pid, "S")
    assert not follower.stop_is_news()  # already continued: nothing to tell


@pytest.mark.slow
def test_a_child_gone_first_is_no_error(sleeper) -> None:
    client, child = sleeper(), sleeper()
    child.kill()
    child.wait()
    os.kill(client.pid, signal.SIGSTOP)
    wait_for_state(client.pid, "T")
    StopFollower(client.pid, child.pid).check()
