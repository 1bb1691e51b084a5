"""Job control for a UI run through the preload server: `bg` must not give it the terminal.

A cold `mewcode` belongs to its terminal's session. After Ctrl+Z and `bg`, the kernel
stops it again (SIGTTOU) as soon as it tries to take the terminal back, and Textual
relies on that. A preload child leads a session of its own without a controlling
terminal: nothing would stop it, and it would redraw over the shell. It cannot ask
the terminal either (tcgetpgrp answers only a process of the terminal's session),
so it asks the kernel about its client, which is in that session: the client's
``/proc/PID/stat`` holds its process group and the terminal's foreground group.
Standard library only.
"""

from __future__ import annotations

_client_pid: int | None = None


def remember_client(pid: int | None) -> None:
    """This process runs a command for the preload client ``pid``."""
    global _client_pid
    _client_pid = pid


def in_background() -> bool:
    """True when the client's terminal has another foreground process group than the client's.

    Always False for a cold run (its own terminal's job control applies), and where
    it cannot be told (no /proc, no terminal).
    """
    if _client_pid is None:
        return False
    fields = process_status(_client_pid)
    try:
        process_group, foreground = int(fields[2]), int(fields[5])
    except (IndexError, ValueError):
        return False
    return foreground > 0 and foreground != process_group


def process_status(pid: int) -> list[bytes]:
    """``/proc/PID/stat`` after "pid (command)": state, ppid, pgrp, session, tty_nr, tpgid...

    Empty when the process is gone or /proc cannot be read.
    """
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return []
