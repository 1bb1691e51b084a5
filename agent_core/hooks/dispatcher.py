"""Runs the hooks of one event that match, side by side, and combines what they decided."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from agent_core.hooks.config import HookCommand
from agent_core.hooks.matcher import matches
from agent_core.hooks.outcome import HookOutcome, combine, interpret
from agent_core.hooks.runner import run_hook


class HookDispatcher:
    """The hooks of a session; ``run`` is what the runtime calls at each event."""

    def __init__(
        self,
        hooks: list[HookCommand],
        project: Path,
        env: Mapping[str, str],
        common: Callable[[], dict[str, Any]],
    ) -> None:
        self.hooks = hooks
        self.project = project
        self._env = env
        self._common = common  # session_id, transcript_path, cwd, permission_mode

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
        if not hooks:
            return HookOutcome()
        data = {**self._common(), "hook_event_name": event, **payload}
        stdin = json.dumps(data, ensure_ascii=False, default=str).encode()
        runs = await asyncio.gather(
            *(run_hook(h, h.label(self.project), stdin, self.project, self._env) for h in hooks)
        )
        return combine([interpret(event, run) for run in runs])
