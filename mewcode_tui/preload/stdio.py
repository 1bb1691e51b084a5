"""The caller's stdin, stdout and stderr, rebuilt as a cold CPython start builds them.

The encoding: ``PYTHONIOENCODING`` first, else UTF-8 in UTF-8 mode (the server has the
caller's mode: it is part of the key), else the caller's locale. Errors: the
handler ``PYTHONIOENCODING`` names for stdin and stdout, ``surrogateescape`` in UTF-8
mode, else strict; stderr always ``backslashreplace``. ``PYTHONUNBUFFERED`` writes
through; otherwise output is line-buffered on a terminal, stderr always.
"""

from __future__ import annotations

import io
import locale
import os
import sys


def adopt_stdio(fds: list[int], env: dict[str, str]) -> None:
    """The caller's descriptors on 0, 1, 2, and Python's streams rebuilt on them."""
    for target, fd in enumerate(fds[:3]):
        os.dup2(fd, target)
    for fd in set(fds):
        if fd > 2:
            os.close(fd)
    encoding, errors = stdio_encoding(env)
    unbuffered = bool(env.get("PYTHONUNBUFFERED"))
    # Textual's driver reads and writes sys.__stdin__ / sys.__stderr__ (typeshed: Final).
    for name, fd, mode, stream_errors in (
        ("stdin", 0, "r", errors),
        ("stdout", 1, "w", errors),
        ("stderr", 2, "w", "backslashreplace"),
    ):
        stream = _stream(fd, mode, encoding, stream_errors, unbuffered)
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)


def stdio_encoding(env: dict[str, str]) -> tuple[str, str]:
    """(encoding, errors) for stdin and stdout, as CPython chooses them at start-up."""
    named, _, named_errors = env.get("PYTHONIOENCODING", "").partition(":")
    if sys.flags.utf8_mode:
        encoding, errors = "utf-8", "surrogateescape"
    else:
        encoding, errors = locale.getpreferredencoding(False), "strict"
    return named or encoding, named_errors or errors


def _stream(fd: int, mode: str, encoding: str, errors: str, unbuffered: bool) -> io.TextIOWrapper:
    line_buffered = mode == "w" and (fd == 2 or os.isatty(fd))
    raw = open(fd, mode + "b", closefd=False)  # noqa: SIM115 - lives as long as the process
    return io.TextIOWrapper(
        raw,
        encoding=encoding,
        errors=errors,
        line_buffering=line_buffered,
        write_through=unbuffered and mode == "w",
    )
