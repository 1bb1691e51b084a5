"""How tests describe and run the test servers: stdio specs, an HTTP server process."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from agent_core.mcp.model import McpServerSpec

EVERYTHING = Path(__file__).with_name("everything_server.py")
HOSTILE = Path(__file__).with_name("hostile_server.py")


def stdio_spec(name: str = "everything", **env: str) -> McpServerSpec:
    """The everything server over stdio, with ``env`` added to its environment."""
    return McpServerSpec(
        name=name,
        transport="stdio",
        source="test",
        scope="user",
        command=sys.executable,
        args=(str(EVERYTHING),),
        env=env,
    )


def http_spec(url: str, name: str = "everything") -> McpServerSpec:
    return McpServerSpec(name=name, transport="http", source="test", scope="user", url=url)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def http_server(log: Path, timeout: float = 20.0, **env: str) -> Iterator[str]:
    """Run the everything server over Streamable HTTP; yields its URL once it accepts."""
    port = free_port()
    with log.open("ab") as err:
        proc = subprocess.Popen(
            [sys.executable, str(EVERYTHING), "--http", str(port)],
            env={**os.environ, **env},
            stdout=subprocess.DEVNULL,
            stderr=err,
        )
    try:
        deadline = time.monotonic() + timeout
        while True:  # wait for the condition "it accepts", polling
            if proc.poll() is not None:
                raise AssertionError(f"HTTP test server exited: {log.read_text()[-500:]}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise AssertionError("HTTP test server did not accept in time") from None
                time.sleep(0.05)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.kill()
        proc.wait()
