"""Which system command copies to the clipboard, and running it."""

from __future__ import annotations

import sys

import pytest

from mewcode_tui.clipboard import clipboard_command, copy_with


def which_of(*present: str):
    return lambda name: f"/usr/bin/{name}" if name in present else None


@pytest.mark.parametrize(
    ("platform", "env", "present", "expected"),
    [
        ("darwin", {}, ["pbcopy"], ["pbcopy"]),
        ("win32", {}, ["clip"], ["clip"]),
        ("linux", {"WAYLAND_DISPLAY": "wayland-0"}, ["wl-copy", "xclip"], ["wl-copy"]),
        ("linux", {"DISPLAY": ":0"}, ["xclip", "xsel"], ["xclip", "-selection", "clipboard"]),
        ("linux", {"DISPLAY": ":0"}, ["xsel"], ["xsel", "--clipboard", "--input"]),
        # Wayland without wl-copy falls back to X11 tools through XWayland.
        (
            "linux",
            {"WAYLAND_DISPLAY": "w", "DISPLAY": ":0"},
            ["xsel"],
            ["xsel", "--clipboard", "--input"],
        ),
        ("linux", {"WSL_DISTRO_NAME": "Ubuntu"}, ["clip.exe"], ["clip.exe"]),
        # Over SSH there is no display: the terminal's OSC 52 is the way.
        ("linux", {"SSH_TTY": "/dev/pts/0"}, ["xclip", "xsel", "wl-copy"], None),
        ("linux", {"DISPLAY": ":0"}, [], None),
        ("darwin", {}, [], None),
    ],
)
def test_the_copy_command_fits_the_platform(platform, env, present, expected):
    assert clipboard_command(platform, env, which_of(*present)) == expected


@pytest.mark.slow
async def test_copy_with_feeds_the_text_to_the_command(tmp_path):
    out = tmp_path / "clip.txt"
    script = f"import sys; open({str(out)!r}, 'w', encoding='utf-8').write(sys.stdin.read())"
    assert await copy_with([sys.executable, "-c", script], "héllo\nworld") is True
    assert out.read_text(encoding="utf-8") == "héllo\nworld"


@pytest.mark.slow
async def test_copy_with_reports_a_failing_or_missing_command():
    assert await copy_with([sys.executable, "-c", "raise SystemExit(1)"], "x") is False
    assert await copy_with(["/nonexistent/mewcode-copy"], "x") is False


@pytest.mark.slow
async def test_copy_with_gives_up_on_a_command_that_hangs():
    hang = [sys.executable, "-c", "import time; time.sleep(30)"]
    assert await copy_with(hang, "x", timeout=0.3) is False
