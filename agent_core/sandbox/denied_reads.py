"""Files a ``Read(...)`` deny rule names are also hidden from commands, by the OS.

The rule engine binds the readers it can see (cat, grep, Grep...); a program that
opens the file itself (``python3 -c 'open(".env")'``, a test runner) is stopped
only by the sandbox. Existing files are found when the session opens: literal
paths directly, patterns by a capped walk of the project.
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


def _is_pattern(spec: str) -> bool:
    return any(c in spec for c in "*?[")


def _literal(spec: str, project: Path, home: Path) -> Path:
    if spec.startswith("//"):
        return Path(spec[1:])
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
    patterns = []
    for spec in specs:
        if _is_pattern(spec):
            patterns.append(spec)
            continue
        path = _literal(spec, project, home)
        if os.path.lexists(path):
            found[os.path.realpath(path)] = None
    if patterns:
        try:
            for path, _ in walk_tree(project, WALK_LIMIT, skip_git=True):
                if any(path_matches(spec, path, project, home) for spec in patterns):
                    found[os.path.realpath(path)] = None
                    if len(found) >= MAX_HIDDEN:
                        break
        except TreeTooLarge:
            pass  # the rule engine still binds the readers it can see
    return list(found)[:MAX_HIDDEN]
