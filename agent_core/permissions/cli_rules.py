"""Parse ``--allowedTools`` / ``--disallowedTools`` values into rules."""

from __future__ import annotations

from collections.abc import Iterable

from agent_core.config.settings import RuleEntry
from agent_core.errors import ConfigError
from agent_core.permissions.rules import rule_problem


def split_rules(text: str, flag: str = "--allowedTools") -> list[str]:
    """Split on spaces or commas outside parentheses: ``"Bash(git log:*) Edit"`` -> 2 rules."""
    rules: list[str] = []
    current: list[str] = []
    depth = 0
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                raise ConfigError(f"{flag}: unbalanced ')' in {text!r}")
        if depth == 0 and (ch.isspace() or ch == ","):
            if current:
                rules.append("".join(current))
                current = []
            continue
        current.append(ch)
    if depth:
        raise ConfigError(f"{flag}: unclosed '(' in {text!r}")
    if current:
        rules.append("".join(current))
    return rules


def cli_rules(allowed: Iterable[str] = (), disallowed: Iterable[str] = ()) -> list[RuleEntry]:
    """RuleEntry(source="cli") for every rule given on the command line (flags may repeat)."""
    entries: list[RuleEntry] = []
    for values, kind, flag in (
        (disallowed, "deny", "--disallowedTools"),
        (allowed, "allow", "--allowedTools"),
    ):
        for value in values:
            for rule in split_rules(value, flag):
                if problem := rule_problem(rule):
                    raise ConfigError(f"{flag}: {problem}")
                entries.append(RuleEntry(rule, kind, "cli"))  # type: ignore[arg-type]
    return entries
