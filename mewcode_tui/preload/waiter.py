"""One run through the preload server: a forked waiter that forks the child and reports on it.

The waiter holds the client's connection for the child's whole life: it tells the
client the child's pid, that it stopped (Ctrl+Z) and how it exited, stops the child
while the client is stopped (stop_follower.py), and if the client goes away
(killed, terminal closed) it hangs the child up so the UI restores the terminal
and the commands it started die with it.
"""

from __future__ import annotations

import logging
import os
import select
import signal
import socket

from mewcode_tui.preload.protocol import (
    GO_LINE,
    NoRequest,
    ProtocolError,
    close_descriptors,
    recv_request,
    send_status,
)
from mewcode_tui.preload.stop_follower import POLL_SECONDS, StopFollower

log = logging.getLogger("mewcode.preload")
# After the client vanished, how long the child gets to clean up after SIGHUP.
HANGUP_GRACE_SECONDS = 3.0


def serve_one(conn: socket.socket, key: str, refusal: str | None = None) -> int:
    """Read the request on ``conn``, run it in a child, report until it exits; the exit code.

    With a ``refusal`` (the server cannot make a child the caller's own), the client is
    told it and runs the command cold.
    """
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    conn.settimeout(10)
    try:
        header, fds = recv_request(conn)
    except NoRequest:
        return 0  # a liveness probe
    except (OSError, ProtocolError) as exc:
        log.info("preload: bad request: %s", exc)
        return 1
    if header.get("key") != key or len(fds) != 3:
        _send_quietly(conn, error="this server serves other code")
        close_descriptors(fds)
        return 1
    if refusal is not None:
        _send_quietly(conn, error=refusal)
        close_descriptors(fds)
        return 0
    if not _client_says_go(conn):  # it gave up waiting (and runs it itself), or died
        close_descriptors(fds)
        log.info("preload: the client left before the command started")
        return 0
    pid = os.fork()
    if pid == 0:
        conn.close()
        from mewcode_tui.preload.child import run_as_caller

        os._exit(run_as_caller(header, fds) & 0xFF)
    close_descriptors(fds)  # the child has them now
    log.info("preload: started pid %d", pid)
    client_pid = header.get("pid")
    follower = StopFollower(client_pid, pid) if isinstance(client_pid, int) else None
    return _report(conn, pid, follower)


def _report(conn: socket.socket, pid: int, follower: StopFollower | None) -> int:
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    conn.settimeout(None)
    client_gone = not _send_quietly(conn, pid=pid)
    if client_gone:  # killed between "go" and its pid: nobody would ever hang the child up
        _hang_up(pid)
    while True:
        watched: list[socket.socket | int] = [wake_r] if client_gone else [conn, wake_r]
        following = follower if not client_gone else None
        ready, _, _ = select.select(watched, [], [], POLL_SECONDS if following else None)
        if following is not None:
            following.check()
        if wake_r in ready:
            os.read(wake_r, 512)
        if conn in ready and not client_gone:
            if not _recv_or_eof(conn):
                client_gone = True
                _hang_up(pid)
        done, status = os.waitpid(pid, os.WNOHANG | os.WUNTRACED)
        if done == 0:
            continue
        if os.WIFSTOPPED(status):
            if not client_gone and (follower is None or follower.stop_is_news()):
                _send_quietly(conn, stopped=True)
            continue
        code = os.waitstatus_to_exitcode(status)
        code = 128 - code if code < 0 else code  # killed by a signal: the shell's convention
        # Logged before the client hears it: once a client has its exit, the log has the run.
        log.info("preload: ran pid %d, exit %d%s", pid, code, " (client gone)" * client_gone)
        if not client_gone:
            _send_quietly(conn, exit=code)
        return code


def _recv_or_eof(conn: socket.socket) -> bool:
    try:
        return bool(conn.recv(4096))
    except OSError:
        return False


def _send_quietly(conn: socket.socket, **fields: object) -> bool:
    try:
        send_status(conn, **fields)
    except OSError:
        return False
    return True


def _client_says_go(conn: socket.socket) -> bool:
    """Tell the client we are ready; True once it answers ``go`` (within the timeout)."""
    if not _send_quietly(conn, ready=True):
        return False
    answer = b""
    try:
        while len(answer) < len(GO_LINE):
            chunk = conn.recv(len(GO_LINE) - len(answer))
            if not chunk:
                return False
            answer += chunk
    except OSError:
        return False
    return answer == GO_LINE


def _hang_up(pid: int) -> None:
    """The client is gone: SIGHUP (and SIGCONT, if stopped) now, SIGKILL after a grace period."""
    for sig in (signal.SIGHUP, signal.SIGCONT):
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            return

    def kill_now(*_: object) -> None:
        try:
            os.killpg(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    signal.signal(signal.SIGALRM, kill_now)
    signal.setitimer(signal.ITIMER_REAL, HANGUP_GRACE_SECONDS)
