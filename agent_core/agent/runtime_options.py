"""What a front end chooses when it opens a session: the runtime's options."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from agent_core.agent.prompt import PromptChoice
from agent_core.config.paths import MewcodePaths
from agent_core.config.settings import RuleEntry, Settings
from agent_core.llm.base import Provider
from agent_core.modes import Mode

if TYPE_CHECKING:
    from agent_core.mcp.servers_api import McpServers
    from agent_core.tools.base import Tool


@dataclass
class RuntimeOptions:
    cwd: Path
    paths: MewcodePaths
    settings: Settings
    provider: Provider
    mode: Mode = "default"
    resume_id: str | None = None
    session_id: str | None = None  # a new session's id chosen by the front end (a UUID)
    continue_latest: bool = False
    cli_rules: list[RuleEntry] = field(default_factory=list)
    max_iterations: int | None = None
    max_budget_usd: float | None = None  # no request once the session's cost is past it
    tools: list[Tool] | None = None  # None: the built-in set
    env: Mapping[str, str] | None = None  # for building providers (/model); None: os.environ
    mcp: McpServers | None = None  # the configured MCP servers; the runtime closes them
    mcp_problems: list[str] = field(default_factory=list)  # bad MCP config, one line each
    prompt: PromptChoice = field(default_factory=PromptChoice)  # --system-prompt and --append-...
