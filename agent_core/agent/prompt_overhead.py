"""What every request carries before the messages: the system prompt and tool definitions."""

from __future__ import annotations

from pathlib import Path

import msgspec

from agent_core.agent.prompt import OWN_PROMPT, PromptChoice, system_blocks
from agent_core.agent.tool_catalog import ToolCatalog
from agent_core.context.tokens import estimate_tokens
from agent_core.modes import Mode


def overhead_texts(
    cwd: Path, mode: Mode, catalog: ToolCatalog, choice: PromptChoice = OWN_PROMPT
) -> tuple[str, str]:
    """The system prompt and tool definitions as sent, for token estimates."""
    system = system_blocks(cwd, mode, git="", choice=choice)
    tools = [msgspec.to_builtins(spec) for spec in catalog.specs(mode)]
    return "\n".join(b.text for b in system), msgspec.json.encode(tools).decode()


def overhead_tokens(
    cwd: Path, mode: Mode, catalog: ToolCatalog, choice: PromptChoice = OWN_PROMPT
) -> int:
    """Estimated tokens of the system prompt and tool definitions together."""
    system, tools = overhead_texts(cwd, mode, catalog, choice)
    return estimate_tokens(system) + estimate_tokens(tools)
