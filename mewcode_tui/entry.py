"""The `mewcode` console script: a warm preload server when there is one, else a cold start.

A cold start runs in this process exactly as `python -m mewcode_tui.cli` does,
then starts a server in the background for the next command (docs/manual.md#warm-start-preload-server). The
preload path never shows up in the user's output: why it was not taken goes to
the debug log only.
"""

from __future__ import annotations

import os
import sys

from mewcode_tui.preload.client import Fallback, run

IDLE_ENV = "MEWCODE_PRELOAD_IDLE_MIN"  # minutes a server waits for its next command


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv in (["--version"], ["-v"]):  # answered at once: no server, no runtime
        from mewcode_tui.version import version_line

        print(version_line())
        return 0
    if argv[:1] == ["preload"]:  # managing the server never goes through it
        return _in_process(argv)
    if _piped_to_ui(argv):
        # The UI reads its keys from /dev/tty then, which the server's child cannot open.
        code = _in_process(argv)
        _log_fallback("stdin is not a terminal and the UI was asked for")
        return code
    try:
        return run(argv)
    except Fallback as fallback:
        reason = fallback
    code = _in_process(argv)
    _log_fallback(str(reason))
    if reason.start_server:
        start_server()
    return code


def _in_process(argv: list[str]) -> int:
    from mewcode_tui.cli import main as cli_main

    return cli_main(argv)


def _piped_to_ui(argv: list[str]) -> bool:
    """Text is piped in and no ``-p``: the UI runs here, with keys from /dev/tty."""
    if (
        "-p" in argv
        or "--print" in argv
        or "--input-format" in argv
        or argv[:1] in (["mcp"], ["sandbox"], ["permissions"])
    ):
        return False
    try:
        return not os.isatty(0)
    except OSError:
        return False


def _log_fallback(reason: str) -> None:
    import logging

    logging.getLogger("mewcode.preload").info("cold start: %s", reason)


def idle_arguments(env: dict[str, str] | os._Environ[str]) -> list[str]:
    """``--idle-seconds`` from MEWCODE_PRELOAD_IDLE_MIN when it is set and a positive number;
    else none, and the server reads ``preload_idle_minutes`` from the user settings."""
    raw = env.get(IDLE_ENV)
    if not raw:
        return []
    try:
        minutes = float(raw)
    except ValueError:
        minutes = -1.0
    if not 0 < minutes < float("inf"):
        _log_fallback(f"{IDLE_ENV}={raw!r} is not a number of minutes: the settings' limit holds")
        return []
    return ["--idle-seconds", str(60 * minutes)]


def start_server() -> None:
    """A detached server for the current code; it exits at once if one is already starting."""
    import subprocess

    from mewcode_tui.preload.location import mewcode_home

    try:
        subprocess.Popen(
            [
                sys.executable,
                # The client's own -X/-O/... flags: they are part of the server's key.
                *subprocess._args_from_interpreter_flags(),  # type: ignore[attr-defined]
                "-m",
                "mewcode_tui.preload.server",
                "--home",
                str(mewcode_home(os.environ)),
                *idle_arguments(os.environ),
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd="/",
            start_new_session=True,
        )
    except OSError as exc:
        _log_fallback(f"could not start the preload server: {exc}")


if __name__ == "__main__":
    raise SystemExit(main())
