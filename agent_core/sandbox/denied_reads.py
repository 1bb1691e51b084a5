"""Files a ``Read(...)`` deny rule names are also hidden from commands, by the OS.

The rule engine binds the readers it can see (cat, grep, Grep...); a program that
opens the file itself (``python3 -c 'open(".env")'``, a test runner) is stopped
only by the sandbox. Existing files are found when the session opens: literal
paths directly, patterns by a capped walk of the folder they start in (the project,
or for ``~/`` and ``//`` rules the literal folders the rule names before its first
glob). A rule with no inner slash (``key.txt``, ``secrets/``) is a gitignore pattern
matching at any depth, so it is walked too.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from agent_core.config.settings import RuleEntry
from agent_core.permissions.paths import TreeTooLarge, expand_home, walk_tree
from agent_core.permissions.rules import parse_rule, path_matches

WALK_LIMIT = 20_000  # entries read to expand patterns; past it only literal paths are hidden
MAX_HIDDEN = 200  # mounts per command stay cheap


def _has_glob(text: str) -> bool:
    return any(c in text for c in "*?[")


def _is_pattern(spec: str) -> bool:
    """Whether the rule may match more than the one path it spells."""
    if _has_glob(spec):
        return True
    anchored = spec.startswith(("//", "~/", "./", "/"))
    return not anchored and "/" not in spec.rstrip("/")  # gitignore: any depth


def _walk_base(spec: str, project: Path, home: Path) -> Path:
    """The folder every path a pattern matches is below: its literal leading folders."""
    if spec.startswith("//"):
        base, rest = Path("/"), spec.lstrip("/")
    elif spec.startswith("~/"):
        base, rest = Path(expand_home("~", home)), spec[2:]
    else:
        return project
    for part in rest.split("/")[:-1]:
        if _has_glob(part) or part in ("", ".", ".."):
            break
        base = base / part
    return Path(os.path.realpath(base))


def _literal(spec: str, project: Path, home: Path) -> Path:
    if spec.startswith("//"):
        return Path("/" + spec.lstrip("/"))
    if spec.startswith("~/"):
        return Path(expand_home(spec, home))
    return project / spec.removeprefix("./").lstrip("/")


def denied_read_paths(rules: Iterable[RuleEntry], project: Path, home: Path) -> list[str]:
    """Existing paths that a Read deny rule covers (resolved), at most MAX_HIDDEN."""
    specs: list[str] = []
    for entry in rules:
        parsed = parse_rule(entry.rule) if entry.kind == "deny" else None
        if parsed is not None and parsed.tool == "Read" and parsed.spec:
            specs.append(parsed.spec)
    found: dict[str, None] = {}
    patterns: dict[Path, list[str]] = {}
    for spec in specs:
        if _is_pattern(spec):
            patterns.setdefault(_walk_base(spec, project, home), []).append(spec)
            continue
        path = _literal(spec, project, home)
        if os.path.lexists(path):
            found[os.path.realpath(path)] = None
    for base, specs_here in patterns.items():
        _walk_matches(base, specs_here, project, home, found)
    return list(found)[:MAX_HIDDEN]


def _walk_matches(
    base: Path, specs: list[str], project: Path, home: Path, found: dict[str, None]
) -> None:
    """Add the entries below ``base`` that one of ``specs`` matches, up to MAX_HIDDEN."""
    try:
        for path, _ in walk_tree(base, WALK_LIMIT, skip_git=True):
            if len(found) >= MAX_HIDDEN:
                return
            if any(path_matches(spec, path, project, home) for spec in specs):
                found[os.path.realpath(path)] = None
    except TreeTooLarge:
        pass  # the rule engine still binds the readers it can see
