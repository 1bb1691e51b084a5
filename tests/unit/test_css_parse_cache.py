"""Parsed CSS is shared between stylesheets with the same variables, and only between those."""

from __future__ import annotations

from textual.css import stylesheet as stylesheet_module
from textual.css.stylesheet import Stylesheet

from mewcode_tui import css_parse_cache

CSS = "Label { color: $accent; }"


def test_it_installs_on_the_textual_we_ship() -> None:
    # Where Textual's private method changes, install() declines and first paint is slower:
    # this test is how an upgrade finds out.
    assert css_parse_cache.install() is True
    assert css_parse_cache.install() is True  # idempotent: one wrapper


def colour(variables: dict[str, str], read_from: tuple[str, str]) -> str:
    sheet = Stylesheet(variables=variables)
    sheet.add_source(CSS, read_from=read_from)
    sheet.parse()
    return str(sheet.rules[0].styles.color)


def test_a_second_stylesheet_with_the_same_variables_does_not_parse_again(monkeypatch) -> None:
    css_parse_cache.install()
    calls: list[str] = []
    real_parse = stylesheet_module.parse

    def counting_parse(*args, **kwargs):
        calls.append(args[1])
        return real_parse(*args, **kwargs)

    monkeypatch.setattr(stylesheet_module, "parse", counting_parse)
    where = ("test_css_parse_cache.py", "same-variables")
    first = colour({"accent": "red"}, where)
    second = colour({"accent": "red"}, where)
    assert first == second and len(calls) == 1


def test_other_variables_are_parsed_on_their_own(monkeypatch) -> None:
    css_parse_cache.install()
    where = ("test_css_parse_cache.py", "other-variables")
    red = colour({"accent": "red"}, where)
    blue = colour({"accent": "blue"}, where)
    assert red != blue
    assert colour({"accent": "red"}, where) == red


def test_a_caller_changing_its_rules_list_does_not_change_the_shared_one() -> None:
    css_parse_cache.install()
    where = ("test_css_parse_cache.py", "own-list")
    sheet = Stylesheet(variables={"accent": "red"})
    rules = sheet._parse_rules(CSS, where)
    rules.clear()
    assert len(Stylesheet(variables={"accent": "red"})._parse_rules(CSS, where)) == 1
