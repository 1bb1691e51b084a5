"""A client stopped with SIGSTOP stops its command too, as a cold run would stop whole.

The client forwards Ctrl+Z (SIGTSTP) and `kill -TSTP` to the child, but nobody can
catch SIGSTOP: without this, `kill -STOP` would stop the client while the child
went on with tools, edits and requests, and the shell showed the job stopped.
The waiter reads the client's state in ``/proc/PID/stat`` a few times a second
and stops the child with it. Continuing is the client's: it forwards the SIGCONT
that continues it, as it does after Ctrl+Z, so the child gets one SIGCONT (a
UI run takes the terminal back once, and only if it is in the foreground).
"""

from __future__ import annotations

import os
import signal

from mewcode_tui.preload.job_control import process_status

# How often the waiter looks at its client's state while the command runs.
POLL_SECONDS = 0.1


def stopped_by_signal(pid: int) -> bool:
    """Whether process ``pid`` is stopped by a signal (state T; not a debugger's t)."""
    return process_status(pid)[:1] == [b"T"]


class StopFollower:
    """Stops the child while its client is stopped."""

    def __init__(self, client_pid: int, child_pid: int) -> None:
        self.client_pid = client_pid
        self.child_pid = child_pid
        self.holding = False  # the child was stopped because its client is

    def check(self) -> None:
        """Follow the client's current state (call every POLL_SECONDS)."""
        client_stopped = stopped_by_signal(self.client_pid)
        if client_stopped and not self.holding:
            try:
                os.kill(self.child_pid, signal.SIGSTOP)
            except ProcessLookupError:
                pass
        self.holding = client_stopped

    def stop_is_news(self) -> bool:
        """Whether the client should hear that the child stopped (and stop with it).

        Not when the client is stopped itself (the stop followed it), nor when the
        child already runs again (the client was continued and forwarded it): told,
        the client would stop again as soon as it is continued.
        """
        return stopped_by_signal(self.child_pid) and not stopped_by_signal(self.client_pid)
