"""Copying to the clipboard: the system's copy command where there is one, else OSC 52.

OSC 52 asks the terminal to set the clipboard; it works over SSH but some
terminals ignore it (macOS Terminal) or ask first. A local desktop has a
command that always works, so that is tried first.
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Callable, Mapping

Which = Callable[[str], str | None]


def clipboard_command(platform: str, env: Mapping[str, str], which: Which) -> list[str] | None:
    """The command that copies its standard input to the system clipboard, if any."""
    if platform == "darwin":
        candidates = [["pbcopy"]]
    elif platform in ("win32", "cygwin"):
        candidates = [["clip"]]
    else:
        candidates = []
        if env.get("WAYLAND_DISPLAY"):
            candidates.append(["wl-copy"])
        if env.get("DISPLAY"):
            candidates += [["xclip", "-selection", "clipboard"], ["xsel", "--clipboard", "--input"]]
        if env.get("WSL_DISTRO_NAME"):
            candidates.append(["clip.exe"])
    for command in candidates:
        if which(command[0]) is not None:
            return command
    return None


async def copy_with(command: list[str], text: str, timeout: float = 2.0) -> bool:
    """Run ``command`` with ``text`` on its standard input; True when it succeeded."""
    try:
        process = await asyncio.create_subprocess_exec(
            *command,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )
    except OSError:
        return False
    try:
        await asyncio.wait_for(process.communicate(text.encode()), timeout)
    except (TimeoutError, OSError):
        if process.returncode is None:
            process.kill()
            await process.wait()
        return False
    return process.returncode == 0


def default_which(name: str) -> str | None:
    return shutil.which(name)
