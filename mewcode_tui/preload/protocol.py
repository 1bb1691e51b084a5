"""The preload wire format: one request with the caller's descriptors, then status lines.

The client imports this on every start, so it uses built-in modules only: the
``_socket`` C module (``socket.py`` would load enum and selectors) and ``marshal``
(``json`` would load ``re``). Both ends are the same interpreter: the socket's
name carries the key, which covers ``sys.version``.

Request (client → server): a 4-byte big-endian length, then that many bytes of
``marshal`` data, ``{"version", "key", "argv", "cwd", "env", "pid", "process"}``, with the caller's
stdin, stdout and stderr attached to the first byte as SCM_RIGHTS descriptors.
The server reads it only from a peer with its own uid (SO_PEERCRED), and checks
every field's type before using it.

Then two steps, so that a command runs at most once: the server answers ``ready``
(one ASCII line) and the client says ``go`` (GO_LINE); only then does the server
fork the command. A client that gave up waiting for ``ready`` has closed the
connection and runs the command itself; the server then sees no ``go``.
Replies after ``go``, one line each: ``pid N`` once the child runs, ``stopped``
whenever it stops (Ctrl+Z), last ``exit CODE``; ``error TEXT`` instead of ``ready``
when the server will not run the command.
"""

from __future__ import annotations

import _socket
import marshal
import sys

PROTOCOL_VERSION = 4
GO_LINE = b"go\n"
MAX_REQUEST_BYTES = 4 * 1024 * 1024
MAX_STATUS_BYTES = 64 * 1024
STDIO_FDS = (0, 1, 2)
_INT_BYTES = 4  # a C int, as SCM_RIGHTS carries descriptors


class ProtocolError(Exception):
    """The other end sent something this side cannot read."""


class NoRequest(ProtocolError):
    """The peer closed without sending anything: `mewcode preload status` probing."""


def send_request(sock: _socket.socket, header: dict, fds: tuple[int, ...]) -> None:
    """Send the request header with ``fds`` attached to its first byte."""
    body = marshal.dumps(header)
    data = len(body).to_bytes(4, "big") + body
    rights = b"".join(fd.to_bytes(_INT_BYTES, sys.byteorder, signed=True) for fd in fds)
    sent = sock.sendmsg([data], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, rights)])
    if sent < len(data):  # a socket with a timeout may take a large request in parts
        sock.sendall(data[sent:])


def recv_request(sock: _socket.socket) -> tuple[dict, list[int]]:
    """Read one request; (header, the descriptors that came with it)."""
    import socket  # the server side: its import costs nothing there

    data, fds, _flags, _addr = socket.recv_fds(sock, 65536, 8)
    try:
        if not data and not fds:
            raise NoRequest("the peer sent nothing")
        if len(data) < 4:
            raise ProtocolError("request shorter than its length prefix")
        size = int.from_bytes(data[:4], "big")
        if size > MAX_REQUEST_BYTES:
            raise ProtocolError(f"request of {size} bytes is over the limit")
        body = data[4:]
        while len(body) < size:
            chunk = sock.recv(size - len(body))
            if not chunk:
                raise ProtocolError("connection closed inside the request")
            body += chunk
        return _checked_header(body), fds
    except BaseException:
        close_descriptors(fds)
        raise


def _checked_header(body: bytes) -> dict:
    try:
        header = marshal.loads(body)
    except (EOFError, ValueError, TypeError) as exc:
        raise ProtocolError(f"unreadable request: {exc}") from None
    if not isinstance(header, dict) or header.get("version") != PROTOCOL_VERSION:
        raise ProtocolError("request of another protocol version")
    argv, env = header.get("argv"), header.get("env")
    if not (
        isinstance(header.get("key"), str)
        and isinstance(header.get("cwd"), str)
        and isinstance(argv, list)
        and all(isinstance(arg, str) for arg in argv)
        and isinstance(env, dict)
        and all(isinstance(k, str) and isinstance(v, str) for k, v in env.items())
        and isinstance(header.get("pid"), int)
        and isinstance(header.get("process"), dict)
    ):
        raise ProtocolError("request fields of the wrong type")
    return header


def send_status(sock: _socket.socket, **fields: object) -> None:
    """One status line to the client: ``pid=N``, ``stopped=True``, ``exit=N`` or ``error=TEXT``."""
    ((name, value),) = fields.items()
    line = name if value is True else f"{name} {value}"
    sock.sendall(line.replace("\n", " ").encode("utf-8", "replace") + b"\n")


class StatusReader:
    """Splits the server's replies into {name: value}, one a line."""

    def __init__(self, sock: _socket.socket) -> None:
        self._sock = sock
        self._pending = b""

    def read(self) -> dict | None:
        """The next status; None when the server closed the connection."""
        while b"\n" not in self._pending:
            if len(self._pending) > MAX_STATUS_BYTES:
                raise ProtocolError("status line over the limit")
            chunk = self._sock.recv(4096)
            if not chunk:
                return None
            self._pending += chunk
        line, self._pending = self._pending.split(b"\n", 1)
        name, _, value = line.decode("utf-8", "replace").partition(" ")
        if name in ("pid", "exit"):
            try:
                return {name: int(value)}
            except ValueError:
                raise ProtocolError(f"unreadable status line: {line[:80]!r}") from None
        if name in ("ready", "stopped") and not value:
            return {name: True}
        if name == "error":
            return {"error": value}
        raise ProtocolError(f"unknown status line: {line[:80]!r}")


def close_descriptors(fds: list[int]) -> None:
    """Close the descriptors a request brought, whatever state they are in."""
    import os

    for fd in fds:
        try:
            os.close(fd)
        except OSError:
            pass
