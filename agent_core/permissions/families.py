"""The tool families path rules cover, derived from what the built-in tools declare.

``Read(path)`` covers every built-in whose ``permission_kind`` is "read" (Read,
Glob, Grep, LS...), ``Edit(path)`` every one whose kind is "edit". Derived on
first use, so importing the engine does not import every tool module.
"""

from __future__ import annotations

from agent_core.tools.builtin import builtin_family


def read_family() -> frozenset[str]:
    """Built-in tools that read the path they are given; ``Read(path)`` rules cover them."""
    return builtin_family("read")


def edit_family() -> frozenset[str]:
    """Built-in tools that write the path they are given; ``Edit(path)`` rules cover them."""
    return builtin_family("edit")


def path_family() -> frozenset[str]:
    """Every built-in tool whose rules take a path."""
    return read_family() | edit_family()
