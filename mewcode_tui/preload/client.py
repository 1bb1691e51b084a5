"""The `mewcode` client path: hand the command to a warm preload server.

It sends argv, cwd, the environment and its stdin/stdout/stderr descriptors,
forwards the signals a terminal sends to the child, and returns the child's
exit status. ``run`` raises Fallback (with the reason) when no server took the
command, so the caller runs it in-process: nothing was started in that case.

Built-in modules only (``_socket``, ``_signal``, ``marshal``): importing
``socket`` and ``signal`` would load enum and selectors, and the client's whole
start, interpreter included, is meant to cost about as much as ``python -c pass``.
"""

from __future__ import annotations

import _signal
import _socket
import os
import sys

from mewcode_tui.preload.caller_process import caller_settings
from mewcode_tui.preload.key import server_key
from mewcode_tui.preload.location import (
    UnsafeRunDir,
    mewcode_home,
    preload_disabled,
    socket_path,
    use_socket_path,
)
from mewcode_tui.preload.protocol import (
    GO_LINE,
    PROTOCOL_VERSION,
    STDIO_FDS,
    ProtocolError,
    StatusReader,
    send_request,
)

FORWARDED = (
    _signal.SIGINT,
    _signal.SIGTERM,
    _signal.SIGHUP,
    _signal.SIGQUIT,
    _signal.SIGWINCH,
    _signal.SIGTSTP,
    _signal.SIGCONT,
    _signal.SIGUSR1,
    _signal.SIGUSR2,
)
CONNECT_TIMEOUT = 0.5
HANDSHAKE_TIMEOUT = 10.0


class ServerLost(Exception):
    """The server took the command and then failed: it may have run, so it is not re-run."""


class Fallback(Exception):
    """No server ran the command; the reason goes to the debug log."""

    def __init__(self, reason: str, *, start_server: bool = False) -> None:
        super().__init__(reason)
        self.start_server = start_server


def connect(argv: list[str], relay: SignalRelay) -> tuple[_socket.socket, StatusReader, int]:
    """Hand the command to the server for the current code; (connection, replies, child pid).

    ``relay`` is installed as soon as the server is told to go.
    """
    env = dict(os.environ)
    home = mewcode_home(env)
    if preload_disabled(env, home):
        raise Fallback("preload is disabled")
    key = server_key()
    try:
        path = socket_path(home, key)
    except FileNotFoundError:
        raise Fallback("no preload server yet", start_server=True) from None
    except (OSError, UnsafeRunDir) as exc:
        raise Fallback(f"preload socket directory: {exc}") from None
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    sock.settimeout(CONNECT_TIMEOUT)
    try:
        use_socket_path(path, sock.connect)
    except OSError as exc:
        sock.close()
        raise Fallback(f"no preload server for this code ({exc})", start_server=True) from None
    try:
        sock.settimeout(HANDSHAKE_TIMEOUT)
        header = {
            "version": PROTOCOL_VERSION,
            "key": key,
            "argv": list(argv),
            "cwd": os.getcwd(),
            "env": env,
            "pid": os.getpid(),  # the child's stand-in for job control (job_control.py)
            "process": caller_settings(),  # umask, niceness, resource limits
        }
        send_request(sock, header, STDIO_FDS)
        reader = StatusReader(sock)
        first = reader.read()
        if first is None or "ready" not in first:
            raise Fallback(f"preload server did not take the command: {first}")
        # From here on the server runs it: no fallback may run it a second time.
        sock.sendall(GO_LINE)
        relay.install()
    except (OSError, ProtocolError) as exc:
        sock.close()
        raise Fallback(f"preload server failed: {exc}") from None
    except Fallback:
        sock.close()
        raise
    sock.settimeout(None)
    try:
        started = reader.read()
    except (OSError, ProtocolError):
        started = None
    if started is None or "pid" not in started:
        sock.close()
        raise ServerLost(f"the preload server did not start the command ({started})")
    return sock, reader, started["pid"]


class SignalRelay:
    """Sends the signals the terminal and the shell send us on to the child.

    In place from the moment the server is told to go: a signal that comes before
    the child's pid (a resize, Ctrl+Z, Ctrl+C while the child starts) is held and
    sent once the pid is known, instead of being lost or acted on by the client.
    """

    def __init__(self) -> None:
        self.pid: int | None = None
        self.held: list[int] = []
        self.previous: dict[int, object] = {}

    def install(self) -> None:
        self.previous = {sig: _signal.signal(sig, self.relay) for sig in FORWARDED}

    def relay(self, signum: int, _frame: object) -> None:
        if self.pid is None:
            self.held.append(signum)
        else:
            self._send(signum)

    def start(self, pid: int) -> None:
        """The child is ``pid``: send it what came before, then everything as it comes."""
        self.pid = pid
        while self.held:
            self._send(self.held.pop(0))

    def uninstall(self) -> None:
        for sig, handler in self.previous.items():
            _signal.signal(sig, handler)
        self.previous = {}

    def _send(self, signum: int) -> None:
        assert self.pid is not None
        try:
            os.kill(self.pid, signum)
        except ProcessLookupError:
            pass


def wait_for_exit(reader: StatusReader) -> int:
    """Follow the child until it exits: stop with it (Ctrl+Z), return its exit code."""
    while True:
        try:
            status = reader.read()
        except (OSError, ProtocolError):
            status = None
        if status is None:
            sys.stderr.write("mewcode: the preload server went away while running the command\n")
            return 1
        if status.get("stopped"):
            # The child stopped itself (its terminal is restored); the shell sees us stop.
            os.kill(os.getpid(), _signal.SIGSTOP)
        elif "exit" in status:
            return status["exit"]


def run(argv: list[str]) -> int:
    """Run ``mewcode ARGV`` through the preload server; raises Fallback if none took it."""
    saved = _terminal_state()
    relay = SignalRelay()
    try:
        sock, reader, pid = connect(argv, relay)
    except ServerLost as lost:
        relay.uninstall()
        sys.stderr.write(f"mewcode: {lost}\n")
        return 1
    relay.start(pid)
    try:
        return wait_for_exit(reader)
    finally:
        sock.close()
        relay.uninstall()
        _restore_terminal(saved)


def _terminal_state() -> list | None:
    if not os.isatty(0):
        return None
    import termios

    try:
        return termios.tcgetattr(0)
    except termios.error:
        return None


def _restore_terminal(saved: list | None) -> None:
    """The child restores the terminal itself; this covers a child that died without doing so."""
    if saved is None:
        return
    import termios

    # In a background job tcsetattr would stop us with SIGTTOU instead.
    previous = _signal.signal(_signal.SIGTTOU, _signal.SIG_IGN)
    try:
        termios.tcsetattr(0, termios.TCSADRAIN, saved)
    except termios.error:
        pass
    finally:
        _signal.signal(_signal.SIGTTOU, previous)
