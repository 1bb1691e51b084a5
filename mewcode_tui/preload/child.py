"""Turn a freshly forked child of the preload server into the caller's own process.

Nothing the server read at import time may leak into a run: the environment,
the working directory, stdio, signal dispositions, random state and logging are
replaced here. Our own per-process caches reset themselves after a fork
(``os.register_at_fork`` beside each); what the libraries fix for a process's
life is dealt with in dependency_state.py.
"""

from __future__ import annotations

import atexit
import locale
import os
import random
import signal
import sys
import tempfile
import time
import traceback
from typing import Any

from mewcode_tui.preload import job_control
from mewcode_tui.preload.caller_process import adopt_caller_settings
from mewcode_tui.preload.dependency_state import caller_sdk_logging
from mewcode_tui.preload.stdio import adopt_stdio

# Dispositions a cold CPython start has; every other catchable signal is SIG_DFL.
_PYTHON_START_DISPOSITIONS: dict[int, Any] = {
    signal.SIGINT: signal.default_int_handler,
    signal.SIGPIPE: signal.SIG_IGN,
    signal.SIGXFSZ: signal.SIG_IGN,
}


def reset_signals() -> None:
    """Every handler back to what a cold start has, then SIGTSTP made to stop us."""
    signal.set_wakeup_fd(-1)
    for sig in signal.valid_signals():
        if sig in (signal.SIGKILL, signal.SIGSTOP):
            continue
        try:
            signal.signal(sig, _PYTHON_START_DISPOSITIONS.get(sig, signal.SIG_DFL))
        except (OSError, ValueError):
            pass  # signals the kernel reserves (e.g. the RT ones glibc uses)
    # The child leads its own session, an orphaned process group, where the kernel
    # drops SIGTSTP's default stop: stop on it explicitly (Textual installs its own).
    signal.signal(signal.SIGTSTP, lambda *_: os.kill(os.getpid(), signal.SIGSTOP))


def replace_environment(env: dict[str, str], cwd: str) -> None:
    """The caller's environment wholesale, its cwd, and module state derived from either."""
    os.environ.clear()
    os.environ.update(env)
    os.chdir(cwd)
    time.tzset()  # TZ: time.localtime() and the prompt's date are the caller's
    tempfile.tempdir = None  # re-read TMPDIR on next use
    try:
        locale.setlocale(locale.LC_CTYPE, "")
    except locale.Error:
        pass
    random.seed()
    _reset_logging()


def _reset_logging() -> None:
    """No handlers, WARNING: as a cold start has (the server's log must not reach the caller).

    The libraries' own loggers keep their levels: the variables that set them are part
    of the server's key (dependency_state.py), so they are the caller's already.
    """
    import logging

    for handler in list(logging.root.handlers):
        logging.root.removeHandler(handler)
    logging.root.setLevel(logging.WARNING)


def run_as_caller(header: dict[str, Any], fds: list[int]) -> int:
    """Become the caller (new session, its env, cwd, stdio) and run ``mewcode`` with its argv."""
    os.setsid()
    job_control.remember_client(header["pid"])
    reset_signals()
    env = dict(header["env"])
    replace_environment(env, str(header["cwd"]))
    adopt_stdio(fds, env)
    adopt_caller_settings(header.get("process") or {})
    caller_sdk_logging()
    argv = [str(arg) for arg in header["argv"]]
    sys.argv = ["mewcode", *argv]
    try:
        from mewcode_tui.cli import main

        code = main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:
        traceback.print_exc()
        code = 1
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    return code
