"""`mewcode preload status|stop`: the warm-start servers of this MEWCODE_HOME."""

from __future__ import annotations

import fcntl
import os
import signal
import socket
import struct
import sys
from pathlib import Path

from mewcode_tui.preload.key import server_key
from mewcode_tui.preload.location import (
    UnsafeRunDir,
    mewcode_home,
    preload_disabled,
    run_dir,
    use_socket_path,
)

USAGE = "usage: mewcode preload status|stop"


def server_pid(path: Path) -> int | None:
    """The pid of the server listening on ``path`` (SO_PEERCRED), or None if none answers."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(1)
    try:
        use_socket_path(str(path), sock.connect)
        creds = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
        return struct.unpack("3i", creds)[0]
    except OSError:
        return None
    finally:
        sock.close()


def live_servers(home: str) -> list[tuple[str, int]]:
    """(key, pid) of every server answering in MEWCODE_HOME/run."""
    try:
        directory = Path(run_dir(home, create=False))
    except FileNotFoundError:
        return []
    found = []
    for path in sorted(directory.glob("preload-*.sock")):
        pid = server_pid(path)
        if pid is not None:
            found.append((path.stem.removeprefix("preload-"), pid))
    return found


def starting(home: str, key: str) -> bool:
    """A server for ``key`` holds its lock: it is loading (or serving) right now."""
    try:
        lock = os.open(Path(run_dir(home, create=False)) / f"preload-{key}.lock", os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(lock, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(lock)
    return False


def preload_command(argv: list[str]) -> int:
    """Print the servers (status) or stop them all (stop)."""
    if argv not in (["status"], ["stop"]):
        sys.stderr.write(f"mewcode: {USAGE}\n")
        return 2
    home = mewcode_home(os.environ)
    try:
        servers = live_servers(home)
    except (OSError, UnsafeRunDir) as exc:
        sys.stderr.write(f"mewcode: preload: {exc}\n")
        return 1
    if argv == ["stop"]:
        for _key, pid in servers:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        print(f"stopped {len(servers)} preload server(s)")
        return 0
    current = server_key()
    if preload_disabled(os.environ, home):
        print("preload: disabled (MEWCODE_PRELOAD=0 or preload: false in settings.yaml)")
    if current not in {key for key, _pid in servers} and starting(home, current):
        # A cold run starts its server as it exits; the server loads for a few seconds.
        print("a preload server for the current code is starting")
    elif not servers:
        print("no preload server running (the next `mewcode` starts one)")
    for key, pid in servers:
        which = "current code" if key == current else "other code (exits when idle for its limit)"
        print(f"pid {pid}  key {key}  {which}")
    return 0
