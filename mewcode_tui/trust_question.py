"""What the trust dialog asks about this project, read from its settings and files.

Composition-level, beside session_start.py: it reads the settings, the trust record
and the MCP files so that mewcode_tui/screens/trust.py only shows a ``TrustQuestion``.
"""

from __future__ import annotations

import os
from pathlib import Path

from agent_core.config.paths import MewcodePaths
from agent_core.config.program_trust import RECORD_FILE, pending_changes
from agent_core.config.settings import Settings
from agent_core.mcp.config import target_text
from agent_core.mcp.session_servers import session_mcp_config
from mewcode_tui.screens.trust import TrustQuestion, WaitingSettings
from mewcode_tui.widgets.status_bar import short_path


def trust_question(
    paths: MewcodePaths, settings: Settings, *, home: Path | None = None
) -> TrustQuestion:
    """For an untrusted project, what its files set that waits for trust; for a trusted
    one, which of its programs changed since."""
    folder = short_path(paths.project, home)
    if settings.project_trusted:
        return TrustQuestion(
            folder,
            short_path(paths.home / RECORD_FILE, home),
            retrust=True,
            changed=tuple(pending_changes(paths, settings)),
        )
    waiting = [
        WaitingSettings(_shown_file(entry.file, paths.project), tuple(entry.keys))
        for entry in settings.skipped_until_trust
    ]
    waiting.extend(_waiting_mcp_servers(paths, settings))
    return TrustQuestion(folder, short_path(paths.user_settings, home), tuple(waiting))


def _shown_file(file: str, project: Path) -> str:
    """A settings file as the dialog names it: relative to the project when inside it."""
    path = Path(file)
    return str(path.relative_to(project)) if path.is_relative_to(project) else file


def _waiting_mcp_servers(paths: MewcodePaths, settings: Settings) -> list[WaitingSettings]:
    """The project's MCP servers trust would start, each with the command it runs."""
    waiting = session_mcp_config(paths, settings, os.environ).untrusted
    if not waiting:
        return []
    return [
        WaitingSettings(
            ".mcp.json", tuple(f"MCP server {s.name} ({target_text(s)})" for s in waiting)
        )
    ]
