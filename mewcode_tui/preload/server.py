"""The preload server: imports everything once, then forks a waiter (and child) per command.

Run as ``python -m mewcode_tui.preload.server --home MEWCODE_HOME``; the ``mewcode``
entry starts it detached after a cold run. It never reads the caller's
environment, cwd or settings: each child replaces them (see child.py).
"""

from __future__ import annotations

import argparse
import fcntl
import gc
import importlib
import logging
import os
import select
import signal
import socket
import struct
import sys
import threading
import time
from pathlib import Path

from mewcode_tui.preload.confinement import confinement, same_confinement
from mewcode_tui.preload.key import server_key
from mewcode_tui.preload.location import run_dir, use_socket_path

log = logging.getLogger("mewcode.preload")
# Everything a run imports that is slow: the UI, the runtime, both SDKs (through
# their providers, the only modules allowed to import them) and MCP.
WARM_MODULES = (
    "textual.app",
    "mewcode_tui.cli",
    "mewcode_tui.app",
    "mewcode_tui.app_runner",
    "mewcode_tui.headless",
    "mewcode_tui.session_start",
    "mewcode_tui.screens.main",
    "mewcode_tui.widgets.assistant_view",
    "mewcode_tui.warmup",
    "agent_core.agent.runtime",
    "agent_core.llm.factory",
    "agent_core.llm.anthropic_provider",
    "agent_core.llm.openai_provider",
    "agent_core.mcp.hub",
    "agent_core.mcp.connection",
    "agent_core.permissions.cli_rules",
    "agent_core.config.settings",
    "mewcode_tui.debug_log",
    "openai.resources.chat",
    "html.parser",
    # What the SDKs' HTTP clients import on their first request.
    "anyio._backends._asyncio",
    "httpcore2",
    "h11",
    "truststore",
    # The providers import their SDK on first use; by name here, as only agent_core.llm
    # may import them in code (the import contract guards first paint, not this server).
    "anthropic",
    "openai",
    "mcp",
)


# Packages whose modules the tools, skills and session machinery import on first use.
WARM_PACKAGES = ("agent_core.tools", "agent_core.skills", "agent_core.memory", "agent_core.mcp",
                 "agent_core.sandbox")  # fmt: skip


def peer_credentials(conn: socket.socket) -> tuple[int, int]:
    """The connecting process's (pid, uid) (SO_PEERCRED: pid, uid, gid)."""
    creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    pid, uid, _gid = struct.unpack("3i", creds)
    return pid, uid


def peer_allowed(uid: int) -> bool:
    """Only our own user may run commands through us."""
    return uid == os.getuid()


def warm_up() -> None:
    """Import what every run needs; a module that fails is imported (and fails) in the run."""
    import pkgutil

    started = time.monotonic()
    names = list(WARM_MODULES)
    for package in WARM_PACKAGES:
        path = importlib.import_module(package).__path__
        names += [f"{package}.{m.name}" for m in pkgutil.iter_modules(path)]
    for name in names:
        try:
            importlib.import_module(name)
        except Exception as exc:  # the child will report it the way a cold start does
            log.warning("preload: could not pre-import %s: %s", name, exc)
    log.info("preload: imported %d modules in %.2fs", len(sys.modules), time.monotonic() - started)
    started = time.monotonic()
    try:
        from mewcode_tui.preload.warm_ui import warm_the_ui

        warm_the_ui()
    except Exception:  # only a head start: each child does the work itself instead
        log.warning("preload: the warm-up run of the UI failed", exc_info=True)
    log.info("preload: ran the UI once in %.2fs", time.monotonic() - started)
    # What is loaded now lives as long as the server: keep it out of every child's
    # collections (a full pass over it costs tens of ms) and its pages shared.
    gc.collect()
    gc.freeze()


def cold_start_reason() -> str | None:
    """Why no child of ours could be the caller's own (dependency_state.py), or None.

    A server that has a reason still listens, and answers every run with it: the run
    starts cold, and later runs do not start server after server.
    """
    from mewcode_tui.preload.dependency_state import problems

    found = problems()
    if not found:
        return None
    reason = "warm start is off: " + "; ".join(found)
    log.warning("preload: %s (every run starts cold until that is fixed)", reason)
    return reason


def remove_dead_sockets(directory: Path, keep: Path) -> None:
    """Sockets no server answers on any more (an old key whose server exited)."""
    for path in directory.glob("preload-*.sock"):
        if path == keep:
            continue
        probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            use_socket_path(str(path), probe.connect)
        except ConnectionRefusedError:
            path.unlink(missing_ok=True)
        except OSError:
            pass
        finally:
            probe.close()


def listen(path: Path) -> socket.socket:
    """Bind ``path`` (0600; we hold the key's lock, so a file there is stale) and listen."""
    path.unlink(missing_ok=True)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old_umask = os.umask(0o177)
    try:
        use_socket_path(str(path), sock.bind)
    finally:
        os.umask(old_umask)
    sock.listen(64)
    return sock


def serve(
    sock: socket.socket, key: str, idle_seconds: float, lock: int, refusal: str | None = None
) -> None:
    """Accept until idle or told to stop: check the peer, fork a waiter, accept again.

    ``lock`` is the descriptor holding the key's lock: waiters and the commands they
    run must not hold it, or a long UI session would keep the next server from
    starting after this one exits. With a ``refusal``, each run is told it and goes cold.
    """
    from mewcode_tui.preload.waiter import serve_one

    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # waiters are reaped by the kernel
    # SIGTERM/SIGINT only wake the loop: an exception raised from a handler can land in
    # logging's fork hook, where Python ignores it and the server would live on.
    ours = confinement()
    stop_r, stop_w = os.pipe()
    os.set_blocking(stop_w, False)
    signal.set_wakeup_fd(stop_w)
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: None)
    inherited = (lock, stop_r, stop_w)
    while True:
        ready, _, _ = select.select([sock, stop_r], [], [], idle_seconds)
        if stop_r in ready:
            log.info("preload: stopped by a signal")
            return
        if not ready:
            log.info("preload: idle for %ds, exiting", idle_seconds)
            return
        conn, _ = sock.accept()
        pid, uid = peer_credentials(conn)
        if not peer_allowed(uid):
            log.warning("preload: refused a peer with uid %d", uid)
            conn.close()
            continue
        if not same_confinement(pid, ours):
            log.warning("preload: refused pid %d: in another sandbox or namespace", pid)
            conn.close()
            continue
        # fork() copies only this thread: a lock held by another would stay held forever.
        assert threading.active_count() == 1, "the preload server must fork single-threaded"
        if os.fork() == 0:
            signal.set_wakeup_fd(-1)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            sock.close()
            for fd in inherited:
                os.close(fd)
            code = 1
            try:
                code = serve_one(conn, key, refusal)
            finally:
                os._exit(code & 0xFF)
        conn.close()


def _log_to(home: Path) -> None:
    """``MEWCODE_HOME/logs/preload.log``: redacted like every file there (docs/security.md#secrets-at-rest).

    Records, warnings and the server's own tracebacks (see ``main``) pass the
    redactor; fd 2 points there too, for what the interpreter itself prints.
    """
    from mewcode_tui.debug_log import RedactingFormatter

    logs = home / "logs"
    logs.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd = os.open(logs / "preload.log", os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    os.dup2(fd, 2)
    os.close(fd)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(RedactingFormatter("%(asctime)s %(process)d %(message)s"))
    logging.basicConfig(level=logging.INFO, handlers=[handler])
    logging.captureWarnings(True)


def idle_setting(home: Path) -> float:
    """Seconds to wait for a next run: ``preload_idle_minutes`` in the user settings file
    (a working day by default); a file that cannot be read gives the default."""
    from agent_core.config.settings_file import load_settings_file
    from agent_core.config.settings_model import PRELOAD_IDLE_MINUTES
    from agent_core.errors import MewCodeError

    try:
        raw = load_settings_file(home / "settings.yaml")
    except MewCodeError as exc:
        log.info("preload: %s: idle limit %g min", exc, PRELOAD_IDLE_MINUTES)
        raw = None
    minutes = raw.preload_idle_minutes if raw is not None else None
    return 60 * (minutes if minutes is not None else PRELOAD_IDLE_MINUTES)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mewcode_tui.preload.server")
    parser.add_argument("--home", required=True, help="MEWCODE_HOME")
    # Without it (MEWCODE_PRELOAD_IDLE_MIN unset): the user settings' preload_idle_minutes.
    parser.add_argument("--idle-seconds", type=float, default=None)
    args = parser.parse_args(argv)
    home = Path(args.home)
    idle_seconds = args.idle_seconds if args.idle_seconds is not None else idle_setting(home)
    key = server_key()  # before importing: the code we are about to load
    directory = Path(run_dir(home, create=True))
    _log_to(home)
    try:
        return _serve_key(home, key, directory, idle_seconds)
    except Exception:  # through the log's redactor, not raw onto fd 2
        log.exception("preload: the server failed")
        return 1


def _serve_key(home: Path, key: str, directory: Path, idle_seconds: float) -> int:
    lock = os.open(directory / f"preload-{key}.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return 0  # a server for this key is already up (or starting)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    path = directory / f"preload-{key}.sock"
    warm_up()
    refusal = cold_start_reason()
    remove_dead_sockets(directory, keep=path)
    sock = listen(path)
    log.info("preload: serving key %s on %s", key, path)
    try:
        serve(sock, key, idle_seconds, lock, refusal)
    finally:
        if os.getpid() == _server_pid:
            path.unlink(missing_ok=True)
    return 0


_server_pid = os.getpid()

if __name__ == "__main__":
    raise SystemExit(main())
