"""Themes are data: YAML files validated with msgspec into Textual ``Theme`` objects.

Sources, later ones overriding earlier ones by name: the built-in files shipped
inside the package (``mewcode_tui/theme_files``), the repository's ``themes/``
folder when running from a checkout, then ``MEWCODE_HOME/themes``. A broken
file is skipped with a one-line warning naming it; the app still starts.

Themes are registered before the first frame, where importing PyYAML alone
costs about 10 ms, so each validated file is kept in a JSON cache keyed by the
file's content (``MEWCODE_HOME/cache/themes.json``): YAML is read only for a
new or changed file.
"""

from __future__ import annotations

import hashlib
import logging
import re
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import msgspec

from agent_core.config.paths import MewcodePaths
from agent_core.config.settings import load_settings_file, set_value
from agent_core.errors import ConfigError
from agent_core.fsutil import atomic_write_bytes

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
_CACHE_VERSION = 2  # 2: semantic colour variables are validated

log = logging.getLogger(__name__)


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


class ThemeCache(msgspec.Struct):
    """Validated theme files by the SHA-256 of their content."""

    version: int = _CACHE_VERSION
    themes: dict[str, ThemeFile] = {}


def parse_theme_text(text: str) -> ThemeFile:
    """Validate one theme file's text. Raises ConfigError with a one-line reason."""
    import yaml
    from textual.color import Color, ColorParseError

    from mewcode_tui.theme_styles import SEMANTIC_COLORS

    try:
        # The C loader when libyaml is there: a new theme is parsed before the first frame.
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
    for name, value in spec.variables.items():
        if name not in SEMANTIC_COLORS:
            continue  # only MewCode's own colours are checked here
        try:
            Color.parse(value)
        except ColorParseError:
            raise ConfigError(f"variables.{name}: {value!r} is not a color") from None
    if not 0.0 <= spec.text_alpha <= 1.0:
        raise ConfigError("text_alpha must be between 0 and 1")
    return spec


def theme_from_spec(spec: ThemeFile) -> Theme:
    """The Textual theme a validated file describes."""
    from textual.theme import Theme

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


def parse_theme_file(path: Path) -> Theme:
    """Read and validate one theme file. Raises ConfigError with a one-line reason."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read: {exc.strerror}") from None
    return theme_from_spec(parse_theme_text(text))


def _read_cache(path: Path) -> ThemeCache:
    try:
        cache = msgspec.json.decode(path.read_bytes(), type=ThemeCache)
    except (OSError, msgspec.DecodeError):
        return ThemeCache()  # missing or damaged: rebuilt from the files
    return cache if cache.version == _CACHE_VERSION else ThemeCache()


def _theme_files(paths: MewcodePaths) -> list[Path]:
    files: list[Path] = []
    seen: set[Path] = set()
    for folder in theme_dirs(paths):
        resolved = folder.resolve()
        if resolved in seen or not folder.is_dir():
            continue
        seen.add(resolved)
        files += sorted(folder.glob("*.yaml")) + sorted(folder.glob("*.yml"))
    return files


def load_themes(app: App, paths: MewcodePaths) -> list[str]:
    """Register every valid theme file with ``app``; return one warning per skipped file."""
    warnings: list[str] = []
    cache_file = paths.home / "cache" / "themes.json"
    cache = _read_cache(cache_file)
    used: dict[str, ThemeFile] = {}
    for file in _theme_files(paths):
        try:
            content = file.read_bytes()
        except OSError as exc:
            warnings.append(f"theme file {file} skipped: cannot read: {exc.strerror}")
            continue
        digest = hashlib.sha256(content).hexdigest()
        # A checkout's themes/ folder mirrors the built-in files: an identical file
        # would register the same theme again, so each content is used once.
        if digest in used:
            continue
        spec = cache.themes.get(digest)
        if spec is None:
            try:
                spec = parse_theme_text(content.decode("utf-8"))
            except UnicodeDecodeError:
                warnings.append(f"theme file {file} skipped: not UTF-8 text")
                continue
            except ConfigError as exc:
                warnings.append(f"theme file {file} skipped: {exc}")
                continue
        used[digest] = spec
        app.register_theme(theme_from_spec(spec))
    if used != cache.themes:
        _write_cache(cache_file, ThemeCache(themes=used))
    return warnings


def _write_cache(path: Path, cache: ThemeCache) -> None:
    try:
        atomic_write_bytes(path, msgspec.json.encode(cache), private=True)
    except OSError:
        log.debug("theme cache not written", exc_info=True)  # only a start-up speed-up


def saved_theme(paths: MewcodePaths) -> str | None:
    """The theme name saved in ``MEWCODE_HOME/settings.yaml``, if any."""
    try:
        raw = load_settings_file(paths.user_settings)
    except ConfigError:
        return None
    return raw.theme if raw is not None else None


class _UserSettingsFile(Protocol):
    @property
    def user_settings(self) -> Path: ...


def save_theme(paths: _UserSettingsFile, name: str) -> None:
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
