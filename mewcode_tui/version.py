"""`mewcode --version`: the installed package's version, read from its metadata only."""

from __future__ import annotations

# The Claude Code stream-json protocol level MewCode speaks (the SDKs' minimum is 2.0.0).
STREAM_JSON_PROTOCOL = "2.0.0"


def installed_version() -> str:
    """The installed package's version (``unknown`` when run from an uninstalled copy)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("mewcode")
    except PackageNotFoundError:
        return "unknown"


def version_line() -> str:
    """``mewcode X.Y.Z``."""
    return f"mewcode {installed_version()}"
