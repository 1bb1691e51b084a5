"""The preload wire format: one request with the caller's descriptors, then status lines.

Standard library only: the client imports it on every start.

Request (client → server), one ``sendmsg``: a 4-byte big-endian length, then that
many bytes of JSON ``{"version", "key", "argv", "cwd", "env"}``, with the
caller's stdin, stdout and stderr attached as SCM_RIGHTS descriptors.
Replies (server → client), one JSON object a line: ``{"pid": N}`` once the child
runs, ``{"stopped": true}`` whenever it stops (Ctrl+Z), and last ``{"exit": CODE}``.
"""

from __future__ import annotations

import json
import socket
import struct
from typing import Any

PROTOCOL_VERSION = 1
MAX_REQUEST_BYTES = 4 * 1024 * 1024
STDIO_FDS = (0, 1, 2)


class ProtocolError(Exception):
    """The other end sent something this side cannot read."""


def send_request(sock: socket.socket, header: dict[str, Any], fds: tuple[int, ...]) -> None:
    """Send the request header with ``fds`` attached to its first byte."""
    body = json.dumps(header).encode()
    socket.send_fds(sock, [struct.pack("!I", len(body)) + body], list(fds))


def recv_request(sock: socket.socket) -> tuple[dict[str, Any], list[int]]:
    """Read one request; (header, the descriptors that came with it)."""
    data, fds, _flags, _addr = socket.recv_fds(sock, 65536, 8)
    try:
        if len(data) < 4:
            raise ProtocolError("request shorter than its length prefix")
        (size,) = struct.unpack("!I", data[:4])
        if size > MAX_REQUEST_BYTES:
            raise ProtocolError(f"request of {size} bytes is over the limit")
        body = data[4:]
        while len(body) < size:
            chunk = sock.recv(size - len(body))
            if not chunk:
                raise ProtocolError("connection closed inside the request")
            body += chunk
        header = json.loads(body)
        if not isinstance(header, dict) or header.get("version") != PROTOCOL_VERSION:
            raise ProtocolError("request of another protocol version")
        return header, fds
    except BaseException:
        for fd in fds:
            _close_quietly(fd)
        raise


def send_status(sock: socket.socket, **fields: Any) -> None:
    """One status line to the client."""
    sock.sendall(json.dumps(fields).encode() + b"\n")


class StatusReader:
    """Splits the server's replies into JSON objects, one a line."""

    def __init__(self, sock: socket.socket) -> None:
        self._sock = sock
        self._pending = b""

    def read(self) -> dict[str, Any] | None:
        """The next status; None when the server closed the connection."""
        while b"\n" not in self._pending:
            chunk = self._sock.recv(4096)
            if not chunk:
                return None
            self._pending += chunk
        line, self._pending = self._pending.split(b"\n", 1)
        try:
            status = json.loads(line)
        except ValueError as exc:
            raise ProtocolError(f"unreadable status line: {exc}") from None
        if not isinstance(status, dict):
            raise ProtocolError("status line is not an object")
        return status


def _close_quietly(fd: int) -> None:
    import os

    try:
        os.close(fd)
    except OSError:
        pass
