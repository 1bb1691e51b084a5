"""Key remapping: every MewCode binding has an id, and the user's ``keys:`` setting rebinds it.

Settings name a binding by its id without the ``mewcode.`` prefix (``cycle_mode``,
``approval.deny``) and give Textual key names, comma-separated for several keys
(``ctrl+t``, ``f2,ctrl+g``). Textual's keymap (``App.set_keymap``) does the rebinding,
so the footer, the bindings and /help all show the new keys.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.app import App
    from textual.binding import Binding

PREFIX = "mewcode."
_MODIFIERS = frozenset({"ctrl", "shift", "alt", "meta", "super", "hyper"})
_KEY_NAMES_SHOWN = {
    "escape": "Esc",
    "enter": "Enter",
    "tab": "Tab",
    "space": "Space",
    "backspace": "Backspace",
    "delete": "Del",
    "pageup": "PgUp",
    "pagedown": "PgDn",
    "up": "↑",
    "down": "↓",
    "left": "←",
    "right": "→",
}


def binding_groups() -> list[tuple[str, list[Binding]]]:
    """Every remappable binding, by where it applies. Imports the screens: call it lazily."""
    from textual.binding import Binding

    from mewcode_tui.app import MewCodeApp
    from mewcode_tui.screens.approval import ApprovalScreen
    from mewcode_tui.screens.confirm import ConfirmScreen
    from mewcode_tui.screens.diff_screen import DiffScreen
    from mewcode_tui.screens.history_search import HistorySearchScreen
    from mewcode_tui.screens.main import MainScreen
    from mewcode_tui.screens.mcp_servers import McpServerList, McpServersScreen
    from mewcode_tui.screens.model_picker import ModelOptions, ModelPickerScreen
    from mewcode_tui.screens.plan_approval import PlanApprovalScreen
    from mewcode_tui.screens.resume import ResumeScreen, SessionList
    from mewcode_tui.screens.setup import SetupScreen
    from mewcode_tui.screens.shells import ShellOptions, ShellsScreen
    from mewcode_tui.screens.trust import TrustScreen
    from mewcode_tui.widgets.choice_list import ChoiceList
    from mewcode_tui.widgets.message_view import ThinkingView
    from mewcode_tui.widgets.tool_call_view import ToolCallLine

    places: list[tuple[str, list[Any]]] = [
        ("Anywhere", [MewCodeApp]),
        ("Chat", [MainScreen]),
        ("Tool call (Tab from the prompt)", [ToolCallLine]),
        ("Thinking block", [ThinkingView]),
        ("Approval dialog", [ApprovalScreen]),
        ("Plan dialog", [PlanApprovalScreen]),
        ("Dialog choices", [ChoiceList]),
        ("Trust dialog", [TrustScreen]),
        ("Diff viewer", [DiffScreen]),
        ("Resume list", [SessionList, ResumeScreen]),
        ("MCP servers", [McpServerList, McpServersScreen]),
        ("Model list", [ModelOptions, ModelPickerScreen]),
        ("Background shells (/bashes)", [ShellOptions, ShellsScreen]),
        ("Yes/no question", [ConfirmScreen]),
        ("First-run setup", [SetupScreen]),
        ("Prompt history search (Ctrl+R)", [HistorySearchScreen]),
    ]
    return [
        (
            title,
            [b for owner in owners for b in owner.BINDINGS if isinstance(b, Binding) and b.id],
        )
        for title, owners in places
    ]


def _known_key_name(name: str) -> bool:
    from textual.keys import KEY_ALIASES, KEY_DISPLAY_ALIASES, REPLACED_KEYS, Keys, key_to_character

    if len(name) == 1:
        return name.isprintable() and not name.isspace()
    if name in KEY_ALIASES or name in KEY_DISPLAY_ALIASES:
        return True
    if any(key.value.rpartition("+")[2] == name for key in Keys):
        return True
    return key_to_character(REPLACED_KEYS.get(name, name)) is not None  # "question_mark"


def key_problem(value: object) -> str | None:
    """Why ``value`` is not a key string Textual understands; None when it is."""
    if not isinstance(value, str) or not value.strip():
        return f"{value!r} is not a key (write a key name such as ctrl+t, in quotes)"
    for key in (part.strip() for part in value.split(",")):
        *modifiers, name = key.split("+") if len(key) > 1 else [key]
        unknown = [m for m in modifiers if m not in _MODIFIERS]
        if unknown:
            return f"{key!r}: {unknown[0]!r} is not a modifier ({', '.join(sorted(_MODIFIERS))})"
        if not name or not _known_key_name(name):
            return f"{key!r} is not a key name Textual knows"
    return None


def resolve_keymap(
    keys: Mapping[str, Any], known: Collection[str], file: Path | str
) -> tuple[dict[str, str], list[str]]:
    """The Textual keymap the user's ``keys:`` asks for, and one warning per entry left out."""
    keymap: dict[str, str] = {}
    warnings: list[str] = []
    for name, value in keys.items():
        binding_id = name if name.startswith(PREFIX) else PREFIX + name
        if binding_id not in known:
            warnings.append(f"{file}: keys.{name}: no key binding has this name (see /help)")
            continue
        problem = key_problem(value)
        if problem:
            warnings.append(f"{file}: keys.{name}: {problem}; ignored")
            continue
        keymap[binding_id] = ",".join(part.strip() for part in value.split(","))
    return keymap, warnings


def apply_user_keys(app: App[Any], keys: Mapping[str, Any], file: Path | str) -> list[str]:
    """Rebind what ``keys`` remaps; return one warning per entry that could not apply."""
    if not keys:
        return []  # the screens are not imported before the first frame for nothing
    groups = binding_groups()
    known = {b.id for _, bindings in groups for b in bindings if b.id}
    keymap, warnings = resolve_keymap(keys, known, file)
    app.set_keymap(keymap)
    return warnings + key_clashes(groups, keymap, file)


def key_clashes(
    groups: list[tuple[str, list[Binding]]], keymap: Mapping[str, str], file: Path | str
) -> list[str]:
    """One warning per remapped key that another binding of the same place also uses."""
    warnings: list[str] = []
    for title, bindings in groups:
        owners: dict[str, str] = {}
        for binding in bindings:
            binding_id = binding.id or ""
            for key in binding_keys(binding, keymap):
                other = owners.setdefault(key, binding_id)
                if other != binding_id and (binding_id in keymap or other in keymap):
                    name = (binding_id if binding_id in keymap else other).removeprefix(PREFIX)
                    rival = (other if binding_id in keymap else binding_id).removeprefix(PREFIX)
                    warnings.append(
                        f"{file}: keys.{name}: {display_key(key)} is also {rival} in the"
                        f" {title.lower()}; only one of them will run"
                    )
    return warnings


def active_keymap(app: App[Any]) -> Mapping[str, str]:
    """The keymap ``app`` applies (binding id -> keys)."""
    # Textual keeps it in App._keymap, normalised, and has no public getter.
    return getattr(app, "_keymap", {})


def display_key(key: str) -> str:
    """How a Textual key name reads in help text: ``ctrl+o`` -> ``Ctrl+O``."""
    from textual.keys import format_key

    *modifiers, name = key.split("+") if len(key) > 1 else [key]
    shown = _KEY_NAMES_SHOWN.get(name) or format_key(name)
    if len(shown) > 1:
        shown = shown[:1].upper() + shown[1:]
    elif modifiers:
        shown = shown.upper()
    return "+".join([*(m.title() for m in modifiers), shown])


def binding_keys(binding: Binding, keymap: Mapping[str, str]) -> list[str]:
    """The keys that run ``binding`` under ``keymap``, first one first."""
    keys = keymap.get(binding.id or "") or binding.key
    return [key.strip() for key in keys.split(",")]


def key_hint(app: App[Any], bindings: list[Any], binding_id: str) -> str:
    """The first key that runs ``binding_id`` (one of ``bindings``) now, for a dialog's text."""
    from textual.binding import Binding

    for binding in bindings:
        if isinstance(binding, Binding) and binding.id == binding_id:
            return display_key(binding_keys(binding, active_keymap(app))[0])
    raise KeyError(binding_id)


def keys_help(keymap: Mapping[str, str]) -> list[str]:
    """One line per place: each binding's effective keys, what it does, and its name."""
    lines = ["Keys (remap under keys: in your settings.yaml, by the name in brackets):"]
    for title, bindings in binding_groups():
        items = []
        for binding in bindings:
            shown = "/".join(display_key(k) for k in binding_keys(binding, keymap))
            name = (binding.id or "").removeprefix(PREFIX)
            items.append(f"{shown} {binding.description.lower()} [{name}]")
        lines.append(f"  {title}: " + " · ".join(items))
    return lines
