"""Alt+Enter, sent by most terminals as ESC CR, reaches the prompt as its own key."""

from __future__ import annotations

from textual._xterm_parser import XTermParser

from mewcode_tui import terminal_keys


def keys(sequence: str) -> list[str]:
    parser = XTermParser()
    tokens = [*parser.feed(sequence), *parser.feed("")]
    return [t.key for t in tokens if hasattr(t, "key")]


def test_esc_cr_is_alt_enter_and_the_other_keys_are_as_textual_reads_them():
    assert terminal_keys.install()
    assert keys("\x1b\r") == ["alt+enter"]
    assert keys("\r") == ["enter"]
    assert keys("\x1bx") == ["alt+x"]
    assert keys("\x1b[13;2u") == ["shift+enter"]  # kitty protocol
    assert keys("\n") == ["ctrl+j"]


def test_installing_twice_wraps_once():
    assert terminal_keys.install() and terminal_keys.install()
    method = XTermParser._sequence_to_key_events
    assert not getattr(method.__wrapped__, "reports_alt_enter", False)
