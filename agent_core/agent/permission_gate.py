"""Binds the pure permission engine to this session's rules and settings files.

Layers 1-4 are the engine's; this adapter adds the rules granted by the human
during the session ("allow for this session") and persists "always allow"
rules to ``.mewcode/settings.local.yaml`` so they hold in the next session.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from agent_core.config.paths import MewcodePaths
from agent_core.config.settings import RuleEntry, Settings, append_rule, remove_rule
from agent_core.modes import Mode
from agent_core.permissions.engine import (
    PermissionPolicy,
    PermissionRequest,
    PermissionVerdict,
    decide,
)
from agent_core.permissions.rules import web_hosts_named
from agent_core.tools.base import Tool, read_only_trusted


class SettingsPermissionGate:
    def __init__(
        self,
        paths: MewcodePaths,
        settings: Settings,
        cli_rules: list[RuleEntry],
        mode: Callable[[], Mode],
        readable_dirs: Callable[[], list[Path]] = list,
        hooks_paths: Callable[[], list[Path]] = list,
        cwd: Path | None = None,
    ) -> None:
        self.paths = paths
        self._cwd = cwd  # where relative paths start: the session's start folder
        self.settings = settings
        self._cli_rules = list(cli_rules)
        self._session_rules: list[RuleEntry] = []
        self._saved_rules = list(settings.rules)
        self._mode = mode
        self._readable_dirs = readable_dirs
        self._hooks_paths = hooks_paths

    def all_rules(self) -> list[RuleEntry]:
        """Every rule in force, with the file (or 'session' / 'cli') it came from."""
        return [*self._cli_rules, *self._saved_rules, *self._session_rules]

    def policy(self, mode: Mode | None = None) -> PermissionPolicy:
        project = self.paths.project
        extra = [
            (project / Path(d).expanduser()).resolve() for d in self.settings.additional_directories
        ]
        return PermissionPolicy(
            project_root=project,
            additional_dirs=extra,
            rules=self.all_rules(),
            mode=mode or self._mode(),
            home=Path.home(),
            read_dirs=self._readable_dirs(),
            protected_dirs=self._hooks_paths(),
            network=self.settings.sandbox_network,
            cwd=self._cwd,
        )

    def decide(
        self, tool: Tool, args_raw: dict[str, Any], mode: Mode | None = None
    ) -> PermissionVerdict:
        """Layers 1-4 on a call; ``mode``: as if the session were in that mode."""
        request = PermissionRequest(
            tool=tool.name,
            input=args_raw,
            read_only=tool.read_only,
            kind=tool.permission_kind,
            read_only_trusted=read_only_trusted(tool),
        )
        return decide(request, self.policy(mode))

    def named_web_hosts(self) -> frozenset[str]:
        """The hosts the rules in force name exactly: WebFetch may reach them at a private
        address (agent_core/net/web_access.py)."""
        return web_hosts_named(self.all_rules())

    def grant_session(self, rules: list[str]) -> None:
        for rule in rules:
            entry = RuleEntry(rule, "allow", "session")
            if entry not in self._session_rules:
                self._session_rules.append(entry)

    def grant_always(self, rules: list[str]) -> None:
        target = self.paths.local_settings
        for rule in rules:
            append_rule(target, "allow", rule)
            entry = RuleEntry(rule, "allow", str(target))
            if entry not in self._saved_rules:
                self._saved_rules.append(entry)

    def remove_rule(self, entry: RuleEntry) -> bool:
        """Forget a session rule, or delete a saved rule from its settings file."""
        if entry in self._session_rules:
            self._session_rules.remove(entry)
            return True
        if entry in self._saved_rules and entry.source not in ("cli", "--settings"):
            removed = remove_rule(Path(entry.source), entry.kind, entry.rule)
            self._saved_rules.remove(entry)
            return removed
        return False
