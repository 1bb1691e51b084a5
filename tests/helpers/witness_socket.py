"""A throwaway Unix socket server of a test's own: every connection from another process
leaves a witness file, as a tmux or docker server would run what it was asked to."""

from __future__ import annotations

import os
import socket
import struct
import threading
from pathlib import Path

_PEERCRED = struct.Struct("3i")  # struct ucred: pid, uid, gid


class WitnessSocketServer:
    """Listens on ``path``; touches ``witness`` for each peer that is not this process.

    ``stop`` connects from this process: connections are accepted in the order they came,
    so once the server has seen its own, every earlier one has been counted. No sleeps.
    """

    def __init__(self, path: Path, witness: Path) -> None:
        self.path = path
        self.witness = witness
        self.peers: list[int] = []
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._thread = threading.Thread(target=self._serve, name="witness-socket", daemon=True)

    def start(self) -> WitnessSocketServer:
        self._sock.bind(str(self.path))
        self._sock.listen(16)
        self._thread.start()
        return self

    def _serve(self) -> None:
        while True:
            conn, _ = self._sock.accept()
            with conn:
                raw = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, _PEERCRED.size)
                pid = _PEERCRED.unpack(raw)[0]
            if pid == os.getpid():
                return
            self.peers.append(pid)
            self.witness.write_text(f"connected from pid {pid}\n")

    def stop(self) -> list[int]:
        """Stop serving; the pids of the other processes that connected."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as own:
            own.connect(str(self.path))
        self._thread.join(timeout=30)
        self._sock.close()
        return self.peers
