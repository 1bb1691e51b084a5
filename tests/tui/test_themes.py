"""Theme files: loading, validation, persistence and contrast."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from textual.app import App
from textual.color import Color

from agent_core.errors import ConfigError
from mewcode_tui.themes import (
    BUILTIN_THEME_DIR,
    DEFAULT_THEME,
    load_themes,
    parse_theme_file,
    restore_theme,
    save_theme,
    saved_theme,
)

BUILTIN = ("mewcode-dark", "mewcode-light", "mewcode-high-contrast")
REPO_THEMES = Path(__file__).resolve().parents[2] / "themes"


def user_theme_dir(paths) -> Path:
    folder = paths.home / "themes"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two colors."""

    def luminance(color: str) -> float:
        def channel(value: int) -> float:
            c = value / 255
            return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

        r, g, b = Color.parse(color).rgb
        return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


async def test_builtin_themes_register_without_warnings(paths) -> None:
    app = App()
    async with app.run_test():
        assert load_themes(app, paths) == []
        for name in BUILTIN:
            app.theme = name
            assert app.current_theme.name == name
        assert app.get_theme("mewcode-light").dark is False


async def test_broken_theme_files_are_skipped_with_one_line_each(paths) -> None:
    folder = user_theme_dir(paths)
    (folder / "bad-yaml.yaml").write_text("name: x\n- stray item\nprimary: '#fff'\n")
    (folder / "bad-color.yaml").write_text("name: x\nprimary: not-a-color\n")
    (folder / "typo.yaml").write_text("name: x\nprimary: '#fff'\nbackgrond: '#000'\n")
    (folder / "no-primary.yaml").write_text("name: x\n")
    (folder / "good.yaml").write_text("name: my-theme\nprimary: '#ff8800'\ndark: false\n")
    app = App()
    async with app.run_test():
        warnings = load_themes(app, paths)
        assert len(warnings) == 4
        assert all("\n" not in w for w in warnings)
        named = {Path(w.split(" skipped")[0].removeprefix("theme file ")).name: w for w in warnings}
        assert set(named) == {"bad-yaml.yaml", "bad-color.yaml", "typo.yaml", "no-primary.yaml"}
        assert "line 2" in named["bad-yaml.yaml"]
        assert "not a color" in named["bad-color.yaml"]
        assert "backgrond" in named["typo.yaml"]
        app.theme = "my-theme"  # the good file still loaded next to the broken ones
        assert app.current_theme.primary == "#ff8800"
        assert all(name in app.available_themes for name in BUILTIN)


async def test_user_theme_overrides_a_builtin_of_the_same_name(paths) -> None:
    (user_theme_dir(paths) / "mine.yaml").write_text("name: mewcode-dark\nprimary: '#123456'\n")
    app = App()
    async with app.run_test():
        load_themes(app, paths)
        assert app.get_theme("mewcode-dark").primary == "#123456"


async def test_saved_theme_is_restored(paths) -> None:
    paths.user_settings.parent.mkdir(parents=True, exist_ok=True)
    paths.user_settings.write_text("model: claude-x\n")
    save_theme(paths, "mewcode-light")
    assert saved_theme(paths) == "mewcode-light"
    assert yaml.safe_load(paths.user_settings.read_text()) == {
        "model": "claude-x",
        "theme": "mewcode-light",
    }
    app = App()
    async with app.run_test():
        load_themes(app, paths)
        assert restore_theme(app, paths) == "mewcode-light"
        assert app.theme == "mewcode-light"


async def test_unknown_saved_theme_falls_back_to_the_default(paths) -> None:
    save_theme(paths, "deleted-theme")
    app = App()
    async with app.run_test():
        load_themes(app, paths)
        assert restore_theme(app, paths) == DEFAULT_THEME


def test_no_saved_theme_and_broken_settings(paths) -> None:
    assert saved_theme(paths) is None
    paths.user_settings.parent.mkdir(parents=True, exist_ok=True)
    paths.user_settings.write_text("theme: [oops\n")
    assert saved_theme(paths) is None
    with pytest.raises(ConfigError, match="not valid YAML"):
        save_theme(paths, "mewcode-dark")


@pytest.mark.parametrize("name", BUILTIN)
def test_text_and_status_colors_are_readable(name: str) -> None:
    theme = parse_theme_file(BUILTIN_THEME_DIR / f"{name.removeprefix('mewcode-')}.yaml")
    assert contrast(theme.foreground, theme.background) >= 7
    for color in (theme.primary, theme.success, theme.warning, theme.error):
        assert contrast(color, theme.background) >= 4.5, color


def test_high_contrast_theme_meets_wcag_aaa_everywhere() -> None:
    theme = parse_theme_file(BUILTIN_THEME_DIR / "high-contrast.yaml")
    for color in (theme.foreground, theme.primary, theme.secondary, theme.accent,
                  theme.success, theme.warning, theme.error):  # fmt: skip
        assert contrast(color, theme.background) >= 7, color
        assert contrast(color, theme.panel) >= 7, color
    assert theme.text_alpha == 1.0


def test_repository_themes_folder_matches_the_packaged_files() -> None:
    packaged = {p.name: p.read_text() for p in BUILTIN_THEME_DIR.glob("*.yaml")}
    in_repo = {p.name: p.read_text() for p in REPO_THEMES.glob("*.yaml")}
    assert packaged == in_repo and len(packaged) >= 3


async def test_validated_themes_are_cached_so_a_restart_reads_no_yaml(paths, monkeypatch) -> None:
    (user_theme_dir(paths) / "mine.yaml").write_text("name: mine\nprimary: '#123456'\n")
    app = App()
    async with app.run_test():
        assert load_themes(app, paths) == []
    assert (paths.home / "cache" / "themes.json").is_file()

    def no_yaml(*args, **kwargs):
        raise AssertionError("a cached theme was parsed again")

    monkeypatch.setattr(yaml, "load", no_yaml)
    app = App()
    async with app.run_test():
        assert load_themes(app, paths) == []
        assert app.get_theme("mine").primary == "#123456"
        assert all(name in app.available_themes for name in BUILTIN)


async def test_an_edited_theme_file_is_read_again(paths) -> None:
    mine = user_theme_dir(paths) / "mine.yaml"
    mine.write_text("name: mine\nprimary: '#123456'\n")
    async with App().run_test() as pilot:
        load_themes(pilot.app, paths)
    mine.write_text("name: mine\nprimary: '#abcdef'\n")
    async with App().run_test() as pilot:
        assert load_themes(pilot.app, paths) == []
        assert pilot.app.get_theme("mine").primary == "#abcdef"
    mine.write_text("name: mine\nprimary: nope\n")  # now broken: reported, not served from cache
    async with App().run_test() as pilot:
        warnings = load_themes(pilot.app, paths)
        assert len(warnings) == 1 and "not a color" in warnings[0]
        assert "mine" not in pilot.app.available_themes


async def test_a_damaged_or_unwritable_cache_never_stops_the_themes(paths) -> None:
    cache = paths.home / "cache" / "themes.json"
    cache.parent.mkdir(parents=True)
    cache.write_bytes(b'{"version": 1, "themes": {"x": ')  # torn
    async with App().run_test() as pilot:
        assert load_themes(pilot.app, paths) == []
        assert all(name in pilot.app.available_themes for name in BUILTIN)
    assert b"mewcode-dark" in cache.read_bytes()  # rebuilt
    cache.unlink()
    cache.mkdir()  # cannot be written
    async with App().run_test() as pilot:
        assert load_themes(pilot.app, paths) == []
        assert all(name in pilot.app.available_themes for name in BUILTIN)
