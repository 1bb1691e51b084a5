"""Themes are data: YAML files validated with msgspec into Textual ``Theme`` objects.

Sources, later ones overriding earlier ones by name: the built-in files shipped
inside the package (``mewcode_tui/theme_files``), the repository's ``themes/``
folder when running from a checkout, then ``MEWCODE_HOME/themes``. A broken
file is skipped with a one-line warning naming it; the app still starts.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec
import yaml

from agent_core.config.paths import MewcodePaths
from agent_core.config.settings import load_settings_file, set_value
from agent_core.errors import ConfigError

if TYPE_CHECKING:
    from textual.app import App
    from textual.theme import Theme

DEFAULT_THEME = "mewcode-dark"
BUILTIN_THEME_DIR = Path(__file__).parent / "theme_files"
_CHECKOUT_ROOT = Path(__file__).resolve().parent.parent
_COLOR_FIELDS = (
    "primary", "secondary", "accent", "foreground", "background",
    "surface", "panel", "success", "warning", "error", "boost",
)  # fmt: skip
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")


class ThemeFile(msgspec.Struct, forbid_unknown_fields=True):
    """One theme file as written; colors are any CSS color Textual can parse."""

    name: str
    primary: str
    secondary: str | None = None
    accent: str | None = None
    foreground: str | None = None
    background: str | None = None
    surface: str | None = None
    panel: str | None = None
    success: str | None = None
    warning: str | None = None
    error: str | None = None
    boost: str | None = None
    dark: bool = True
    text_alpha: float = 0.95
    luminosity_spread: float = 0.15
    variables: dict[str, str] = {}


def theme_dirs(paths: MewcodePaths) -> list[Path]:
    """Folders searched for ``*.yaml`` themes, lowest precedence first."""
    dirs = [BUILTIN_THEME_DIR]
    checkout = _CHECKOUT_ROOT / "themes"
    # Only a source checkout has pyproject.toml beside the package; an installed
    # site-packages/themes folder would belong to someone else.
    if (_CHECKOUT_ROOT / "pyproject.toml").is_file() and checkout.is_dir():
        dirs.append(checkout)
    dirs.append(paths.home / "themes")
    return dirs


def parse_theme_file(path: Path) -> Theme:
    """Read and validate one theme file. Raises ConfigError with a one-line reason."""
    from textual.color import Color, ColorParseError
    from textual.theme import Theme

    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read: {exc.strerror}") from None
    try:
        # The C loader when libyaml is there: theme parsing is on the first-paint path.
        data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}: " if mark else ""
        raise ConfigError(f"{where}invalid YAML: {getattr(exc, 'problem', None) or exc}") from None
    if not isinstance(data, dict):
        raise ConfigError("expected a mapping with name, primary and other colors")
    try:
        spec = msgspec.convert(data, ThemeFile)
    except msgspec.ValidationError as exc:
        raise ConfigError(str(exc)) from None
    if not _NAME.match(spec.name):
        raise ConfigError(f"name {spec.name!r} must be letters, digits, '-' or '_'")
    for field in _COLOR_FIELDS:
        value = getattr(spec, field)
        if value is None:
            continue
        try:
            Color.parse(value)
        except ColorParseError:
            raise ConfigError(f"{field}: {value!r} is not a color") from None
    if not 0.0 <= spec.text_alpha <= 1.0:
        raise ConfigError("text_alpha must be between 0 and 1")
    return Theme(
        name=spec.name,
        primary=spec.primary,
        secondary=spec.secondary,
        accent=spec.accent,
        foreground=spec.foreground,
        background=spec.background,
        surface=spec.surface,
        panel=spec.panel,
        success=spec.success,
        warning=spec.warning,
        error=spec.error,
        boost=spec.boost,
        dark=spec.dark,
        text_alpha=spec.text_alpha,
        luminosity_spread=spec.luminosity_spread,
        variables=dict(spec.variables),
    )


def load_themes(app: App, paths: MewcodePaths) -> list[str]:
    """Register every valid theme file with ``app``; return one warning per skipped file."""
    warnings: list[str] = []
    seen: set[Path] = set()
    # A checkout's themes/ folder mirrors the built-in files: an identical file
    # would register the same theme again, so each content is parsed once.
    loaded: set[bytes] = set()
    for folder in theme_dirs(paths):
        resolved = folder.resolve()
        if resolved in seen or not folder.is_dir():
            continue
        seen.add(resolved)
        for file in sorted(folder.glob("*.yaml")) + sorted(folder.glob("*.yml")):
            try:
                content = file.read_bytes()
            except OSError:
                content = None  # parse_theme_file reports it
            if content is not None and content in loaded:
                continue
            try:
                app.register_theme(parse_theme_file(file))
            except ConfigError as exc:
                warnings.append(f"theme file {file} skipped: {exc}")
            else:
                if content is not None:
                    loaded.add(content)
    return warnings


def saved_theme(paths: MewcodePaths) -> str | None:
    """The theme name saved in ``MEWCODE_HOME/settings.yaml``, if any."""
    try:
        raw = load_settings_file(paths.user_settings)
    except ConfigError:
        return None
    return raw.theme if raw is not None else None


def save_theme(paths: MewcodePaths, name: str) -> None:
    """Persist the chosen theme in ``MEWCODE_HOME/settings.yaml`` (key ``theme``).

    Raises ConfigError when the settings file cannot be read or written.
    """
    try:
        set_value(paths.user_settings, "theme", name)  # ConfigError names the file and problem
    except OSError as exc:
        raise ConfigError(f"{paths.user_settings}: cannot save theme: {exc.strerror}") from None


def restore_theme(app: App, paths: MewcodePaths) -> str:
    """Switch ``app`` to the saved theme when it is registered, else the default; return it."""
    name = saved_theme(paths)
    if not name or name not in app.available_themes:
        name = DEFAULT_THEME if DEFAULT_THEME in app.available_themes else app.theme
    app.theme = name
    return name
