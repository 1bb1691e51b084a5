"""Runs the hooks of one event that match, side by side, and combines what they decided."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import Any

from agent_core.hooks.config import HookCommand
from agent_core.hooks.matcher import matches
from agent_core.hooks.outcome import HookOutcome, combine, interpret
from agent_core.hooks.remote import AskRemote, RemoteHook, run_remote
from agent_core.hooks.runner import run_hook


class HookDispatcher:
    """The hooks of a session; ``run`` is what the runtime calls at each event."""

    def __init__(
        self,
        hooks: list[HookCommand],
        project: Path,
        env: Mapping[str, str],
        common: Callable[[], dict[str, Any]],
        approved: Collection[str] | None = None,
    ) -> None:
        self.hooks = hooks
        self.project = project
        self._env = env
        self._common = common  # session_id, transcript_path, cwd, permission_mode
        # The project hooks the user trusted (fingerprints), checked again before each run:
        # a command may rewrite a script a hook runs (None: trusted as they are, this run).
        self._approved = approved
        self.remote: list[RemoteHook] = []  # a front end's callbacks (an SDK app's hooks)
        self._ask_remote: AskRemote | None = None

    def add_remote(self, hooks: list[RemoteHook], ask: AskRemote) -> None:
        """Run ``hooks`` too, by asking the front end through ``ask``."""
        self.remote.extend(hooks)
        self._ask_remote = ask

    def matching(self, event: str, target: str) -> list[HookCommand]:
        """The hooks ``event`` runs for ``target``, each command once (as Claude Code)."""
        chosen: dict[str, HookCommand] = {}
        for hook in self.hooks:
            if hook.event == event and matches(hook.matcher, target):
                chosen.setdefault(hook.command, hook)
        return list(chosen.values())

    async def run(self, event: str, payload: dict[str, Any], target: str = "") -> HookOutcome:
        """Run every matching hook of ``event`` in parallel; their outcomes combined."""
        hooks = self.matching(event, target)
        held = [h for h in hooks if not self._still_trusted(h)]
        hooks = [h for h in hooks if h not in held]
        remote = [h for h in self.remote if h.event == event and matches(h.matcher, target)]
        notes = [
            f"{h.label(self.project)} not run: what it runs changed since you trusted this "
            "folder (trust it again when mewcode opens, or run with --trust-project)"
            for h in held
        ]
        if not hooks and not remote:
            return HookOutcome(warnings=notes)
        data = {**self._common(), "hook_event_name": event, **payload}
        stdin = json.dumps(data, ensure_ascii=False, default=str).encode()
        ask = self._ask_remote
        runs = await asyncio.gather(
            *(run_hook(h, h.label(self.project), stdin, self.project, self._env) for h in hooks),
            *(run_remote(h, data, ask) for h in remote if ask is not None),
        )
        outcome = combine([interpret(event, run) for run in runs])
        outcome.warnings = [*notes, *outcome.warnings]
        return outcome

    def _still_trusted(self, hook: HookCommand) -> bool:
        """A user hook always; a project hook while it is what the user trusted."""
        if self._approved is None or not Path(hook.source).is_relative_to(self.project):
            return True
        return hook.fingerprint(self.project) in self._approved
