"""Text piped to `mewcode` on stdin: read whole, bounded, and joined to the prompt.

``cat log | mewcode -p "explain this"`` sends the prompt, a blank line, then the log,
as Claude Code does; with no prompt argument the piped text is the prompt. The UI
takes it as its first message and then reads its keys from ``/dev/tty``.
"""

from __future__ import annotations

import os
import select
import sys
from collections.abc import Callable
from typing import NamedTuple

from agent_core.errors import MewCodeError

PIPED_LIMIT = 10 * 1024 * 1024  # bytes; a prompt over the spill limit is spilled, not sent whole
WAIT_NOTICE_S = 3.0  # silence on stdin before saying that mewcode waits for it
_CHUNK = 64 * 1024


class PipedText(NamedTuple):
    text: str
    notice: str | None  # what the user should know about it (bytes that were not UTF-8)


def piped_stdin_fd() -> int | None:
    """Descriptor 0 when it is something piped or redirected in, not a terminal; else None."""
    try:
        fd = sys.stdin.fileno()
    except (AttributeError, OSError, ValueError):
        return None  # replaced by something with no descriptor (a test's capture)
    try:
        return None if os.isatty(fd) else fd
    except OSError:
        return None


def read_piped(
    fd: int,
    *,
    limit: int = PIPED_LIMIT,
    on_wait: Callable[[], None] | None = None,
    wait_s: float = WAIT_NOTICE_S,
) -> PipedText:
    """Everything on ``fd`` up to its end; ``on_wait`` is called once if it stays silent
    for ``wait_s`` (a script that left stdin open). MewCodeError past ``limit`` bytes."""
    if on_wait is not None and not _readable_within(fd, wait_s):
        on_wait()
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = os.read(fd, _CHUNK)
        if not chunk:
            break
        size += len(chunk)
        if size > limit:
            raise MewCodeError(
                f"stdin: more than {limit // (1024 * 1024)} MiB piped in; pipe a part of it "
                "(for example tail -c 1000000), or name the file with @path in the prompt"
            )
        chunks.append(chunk)
    return decode_piped(b"".join(chunks))


def _readable_within(fd: int, seconds: float) -> bool:
    try:
        ready, _, _ = select.select([fd], [], [], seconds)
    except (OSError, ValueError):
        return True  # cannot wait on it: read it as it is
    return bool(ready)


def decode_piped(data: bytes) -> PipedText:
    """The piped bytes as text: binary data is refused, bytes that are not UTF-8 replaced."""
    nul = data.find(b"\0")
    if nul >= 0:
        raise MewCodeError(
            f"stdin: binary data (a NUL byte at offset {nul}); pipe text, "
            "or name the file with @path in the prompt"
        )
    data = data.removeprefix(b"\xef\xbb\xbf")
    try:
        return PipedText(data.decode("utf-8"), None)
    except UnicodeDecodeError as exc:
        return PipedText(
            data.decode("utf-8", errors="replace"),
            f"stdin is not valid UTF-8 (first bad byte at offset {exc.start}): "
            "those bytes are sent as U+FFFD",
        )


def joined_prompt(prompt: str | None, piped: str) -> str | None:
    """The prompt, a blank line, then the piped text; either alone when the other is empty."""
    has_prompt = bool(prompt and prompt.strip())
    if not piped.strip():
        return prompt
    if not has_prompt:
        return piped
    return f"{prompt}\n\n{piped}"


def keys_from_terminal() -> None:
    """Put the controlling terminal on descriptor 0 once the pipe is read: the UI's keys."""
    try:
        tty = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY)
    except OSError:
        raise MewCodeError(
            "stdin is piped and there is no terminal (/dev/tty) for the UI's keys: "
            'use mewcode -p "..." to run the piped text without the UI'
        ) from None
    try:
        os.dup2(tty, 0)
    finally:
        os.close(tty)
