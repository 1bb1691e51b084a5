"""visible_text: controls and invisible characters are shown escaped, all else unchanged."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent_core.terminal_text import is_hidden, visible_text

OSC52 = "\x1b]52;c;SGVsbG8=\x07"
ERASE = "\x1b[2J"


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        (f"npx {OSC52}{ERASE}server", "npx \\x1b]52;c;SGVsbG8=\\x07\\x1b[2Jserver"),
        ("bell\x07 nul\x00 bs\x08 del\x7f", "bell\\x07 nul\\x00 bs\\x08 del\\x7f"),
        ("csi\x9b2J nel\x85", "csi\\x9b2J nel\\x85"),  # C1 controls
        ("two\nlines\tand a tab", "two\\nlines\\tand a tab"),
        ("carriage\rreturn", "carriage\\rreturn"),
        ("evil\u202egnp.exe", "evil\\u202egnp.exe"),  # right-to-left override
        ("\u2066isolate\u2069 \u2065", "\\u2066isolate\\u2069 \\u2065"),
        ("zero\u200bwidth\u200c\u200e\u200f", "zero\\u200bwidth\\u200c\\u200e\\u200f"),
        ("\ufeffbom \u00adsoft", "\\ufeffbom \\xadsoft"),
        ("line\u2028sep\u2029", "line\\u2028sep\\u2029"),
        ("tag\U000e0041\U000e0042", "tag\\U000e0041\\U000e0042"),  # invisible ASCII copies
        ("filler\u3164name", "filler\\u3164name"),
        ("not utf-8 \udcff", "not utf-8 \\udcff"),  # a surrogate-escaped file name byte
        ("a\u200db", "a\\u200db"),  # a joiner between letters hides nothing useful
        ("café 中文 ½ → ✓ 🐱 é", "café 中文 ½ → ✓ 🐱 é"),
        ("👩‍💻 👩🏽‍💻 🏳️‍🌈", "👩‍💻 👩🏽‍💻 🏳️‍🌈"),  # emoji joined by ZWJ stay one picture
        ("plain ascii ~!@#$%^&*()", "plain ascii ~!@#$%^&*()"),
        ("", ""),
    ],
)
def test_each_kind_of_character_is_shown_as_the_table_says(raw: str, shown: str) -> None:
    assert visible_text(raw) == shown


def test_multiline_keeps_newlines_and_tabs_and_folds_crlf() -> None:
    raw = f"line one\r\n\tline two{ERASE}\rover"
    assert visible_text(raw, multiline=True) == "line one\n\tline two\\x1b[2J\\rover"


def _raw_controls(text: str, *, multiline: bool) -> list[str]:
    """Characters a terminal would act on or hide (a joiner between emoji excepted)."""
    found = []
    for at, char in enumerate(text):
        if multiline and char in "\n\t":
            continue
        category = unicodedata.category(char)
        if char == "\u200d" and 0 < at < len(text) - 1:
            if unicodedata.category(text[at + 1]) == "So":
                continue
        if category in ("Cc", "Cf", "Cs", "Zl", "Zp") or char == "\x1b":
            found.append(char)
    return found


# Any text, lone surrogates included (hypothesis leaves them out by default).
ANY_TEXT = st.text(st.characters(exclude_categories=()))


@given(ANY_TEXT, st.booleans())
def test_no_output_holds_a_raw_control_character(text: str, multiline: bool) -> None:
    assert _raw_controls(visible_text(text, multiline=multiline), multiline=multiline) == []


# What str.isprintable() accepts (letters, marks, digits, punctuation, symbols, space):
# an oracle independent of the module.
PRINTABLE = st.characters(categories=["L", "M", "N", "P", "S"], include_characters=" ")


@given(st.text(PRINTABLE), st.booleans())
def test_printable_text_is_unchanged(text: str, multiline: bool) -> None:
    text = "".join(c for c in text if not is_hidden(c))  # the few invisible letters listed
    assert text.isprintable()
    assert visible_text(text, multiline=multiline) == text


@given(st.text(PRINTABLE | st.sampled_from("\n\t")))
def test_multiline_printable_text_is_unchanged(text: str) -> None:
    text = "".join(c for c in text if not is_hidden(c))
    assert visible_text(text, multiline=True) == text


@given(ANY_TEXT)
def test_escaping_is_stable_and_the_result_can_be_written_as_utf8(text: str) -> None:
    once = visible_text(text)
    assert visible_text(once) == once
    once.encode("utf-8")  # no lone surrogate left to raise in a terminal write
