"""Turn a freshly forked child of the preload server into the caller's own process.

Nothing the server read at import time may leak into a run: the environment,
the working directory, stdio, signal dispositions, random state and the few
module-level values libraries read from the environment are all replaced here.
"""

from __future__ import annotations

import atexit
import importlib
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
    _refresh_textual_constants()
    _forget_process_caches()
    _reset_logging()


# Per-process memos of what the environment said (PATH lookups, the sandbox probe),
# and the subreaper, which a forked process is not: none may carry over from the server.
_PROCESS_CACHES = (
    ("agent_core.tools.ripgrep", "_locate_rg"),
    ("agent_core.sandbox.selection", "_backend_for"),
)


def _forget_process_caches() -> None:
    for module_name, name in _PROCESS_CACHES:
        module = sys.modules.get(module_name)
        if module is not None:
            getattr(module, name).cache_clear()
    orphans = sys.modules.get("agent_core.sandbox.orphans")
    if orphans is not None:
        orphans._SWEEPER = None


def _reset_logging() -> None:
    """No handlers, WARNING: as a cold start has (the server's log must not reach the caller)."""
    import logging

    for handler in list(logging.root.handlers):
        logging.root.removeHandler(handler)
    logging.root.setLevel(logging.WARNING)
    for name in _SDK_LOGGERS:
        logging.getLogger(name).setLevel(logging.NOTSET)


# The SDKs read ANTHROPIC_LOG / OPENAI_LOG when imported (in the server): read again.
_SDK_LOGGERS = ("anthropic", "openai", "httpx2")
_SDK_LOG_SETUP = ("anthropic._utils._logs", "openai._utils._logs")


def _sdk_logging() -> None:
    """After stderr is the caller's: the SDKs' logging as the caller's variables ask."""
    for module_name in _SDK_LOG_SETUP:
        module = sys.modules.get(module_name)
        if module is not None:
            module.setup_logging()


def _refresh_textual_constants() -> None:
    """textual.constants reads TEXTUAL_*, ESCDELAY... at import: read them again."""
    constants = sys.modules.get("textual.constants")
    if constants is None:
        return
    importlib.reload(constants)
    # Modules that copied a constant by name at import (`from textual.constants import X`).
    for module_name, names in (
        ("textual._styles_cache", ("DEBUG",)),
        ("textual.filter", ("DIM_FACTOR",)),
        ("textual.message_pump", ("SLOW_THRESHOLD",)),
    ):
        module = sys.modules.get(module_name)
        for name in names:
            if module is not None and hasattr(module, name):
                setattr(module, name, getattr(constants, name))


def run_as_caller(header: dict[str, Any], fds: list[int]) -> int:
    """Become the caller (new session, its env, cwd, stdio) and run ``mewcode`` with its argv."""
    os.setsid()
    job_control.remember_client(header["pid"])
    reset_signals()
    env = dict(header["env"])
    replace_environment(env, str(header["cwd"]))
    adopt_stdio(fds, env)
    adopt_caller_settings(header.get("process") or {})
    _sdk_logging()
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
