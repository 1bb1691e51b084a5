"""Textual's Linux driver, stopped again by a `bg` when run through the preload server."""

from __future__ import annotations

import os
import signal

from textual.drivers.linux_driver import LinuxDriver

from mewcode_tui.preload.job_control import in_background


class ForegroundLinuxDriver(LinuxDriver):
    """Takes the terminal only while its command is in the terminal's foreground."""

    def start_application_mode(self) -> None:
        if in_background():
            # What SIGTTOU does to a cold run: stop, and try again on the next SIGCONT
            # (Textual's SIGCONT handler resumes application mode, as after its own stop).
            os.kill(os.getpid(), signal.SIGSTOP)
            return
        super().start_application_mode()
