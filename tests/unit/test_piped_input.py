"""Text piped on stdin: joined after the prompt, bounded, binary refused, bad UTF-8 kept."""

from __future__ import annotations

import os

import pytest

from agent_core.errors import MewCodeError
from mewcode_tui.piped_input import decode_piped, joined_prompt, read_piped


@pytest.mark.parametrize(
    ("prompt", "piped", "joined"),
    [
        ("explain this", "log line\n", "explain this\n\nlog line\n"),
        (None, "log line\n", "log line\n"),
        ("", "log line\n", "log line\n"),
        ("explain this", "", "explain this"),
        ("explain this", " \n", "explain this"),
        (None, "", None),
    ],
)
def test_the_prompt_comes_first_then_the_piped_text(
    prompt: str | None, piped: str, joined: str | None
) -> None:
    assert joined_prompt(prompt, piped) == joined


def test_binary_data_is_refused_naming_where() -> None:
    with pytest.raises(MewCodeError, match="stdin: binary data .*offset 3"):
        decode_piped(b"abc\0def")


def test_bytes_that_are_not_utf8_are_replaced_and_said() -> None:
    piped = decode_piped(b"caf\xe9 ok")
    assert piped.text == "caf\ufffd ok"
    assert piped.notice is not None and "offset 3" in piped.notice


def _pipe_with(data: bytes) -> int:
    r, w = os.pipe()
    os.write(w, data)
    os.close(w)
    return r


def test_more_than_the_limit_is_a_clear_error() -> None:
    fd = _pipe_with(b"x" * 3000)
    try:
        with pytest.raises(MewCodeError, match="stdin: more than"):
            read_piped(fd, limit=2048)
    finally:
        os.close(fd)


def test_reads_to_the_end() -> None:
    fd = _pipe_with(b"line 1\nline 2\n")
    try:
        assert read_piped(fd).text == "line 1\nline 2\n"
    finally:
        os.close(fd)


def test_a_silent_open_pipe_is_announced_once_then_read() -> None:
    r, w = os.pipe()
    said: list[str] = []

    def on_wait() -> None:  # the "script" writes and closes only once it was told
        said.append("waiting")
        os.write(w, b"late text")
        os.close(w)

    try:
        assert read_piped(r, on_wait=on_wait, wait_s=0.01).text == "late text"
    finally:
        os.close(r)
    assert said == ["waiting"]
