"""The `mewcode` console script: a warm preload server when there is one, else a cold start.

A cold start runs in this process exactly as `python -m mewcode_tui.cli` does,
then starts a server in the background for the next command (SPEC §22). The
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
    if argv[:1] == ["preload"]:  # managing the server never goes through it
        return _in_process(argv)
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


def _log_fallback(reason: str) -> None:
    import logging

    logging.getLogger("mewcode.preload").info("cold start: %s", reason)


def start_server() -> None:
    """A detached server for the current code; it exits at once if one is already starting."""
    import subprocess

    from mewcode_tui.preload.location import mewcode_home

    try:
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "mewcode_tui.preload.server",
                "--home",
                str(mewcode_home(os.environ)),
                "--idle-seconds",
                str(60 * float(os.environ.get(IDLE_ENV) or 30)),
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
