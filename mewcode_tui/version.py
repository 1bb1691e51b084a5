"""`mewcode --version`: the installed package's version, read from its metadata only."""

from __future__ import annotations


def version_line() -> str:
    """``mewcode X.Y.Z`` (``unknown`` when the package is not installed, e.g. run from a copy)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"mewcode {version('mewcode')}"
    except PackageNotFoundError:
        return "mewcode unknown"
