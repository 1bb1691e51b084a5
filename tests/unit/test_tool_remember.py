"""The Remember tool: what it stores, what it refuses, and that it asks before storing."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from agent_core.agent.tool_catalog import ToolCatalog
from agent_core.config.paths import MewcodePaths
from agent_core.config.settings import RuleEntry, Settings
from agent_core.memory.long_term import LongTermMemory
from agent_core.permissions import check_json
from agent_core.permissions.check import policy_from_settings
from agent_core.permissions.engine import PermissionRequest, decide
from agent_core.tools.base import ToolContext, ToolError, tool_arguments
from agent_core.tools.builtin import builtin_tools
from agent_core.tools.registry import ToolRegistry
from agent_core.tools.remember import RememberTool
from agent_core.tools.session_state import SessionToolState

FACT = '{"fact": "the staging DB is on port 5433"}'


def run(raw: dict, ctx: ToolContext) -> str:
    tool = RememberTool()
    out = asyncio.run(tool.run(tool_arguments(tool, raw), ctx))
    assert not out.is_error
    assert isinstance(out.content, str)
    return out.content


@pytest.fixture
def ctx(paths: MewcodePaths) -> ToolContext:
    state = SessionToolState(memory=LongTermMemory(paths))
    return ToolContext(cwd=paths.project, session_dir=paths.home, state=state)


def test_stores_once_then_says_already(ctx: ToolContext) -> None:
    assert run({"fact": "The staging DB is on port 5433."}, ctx) == (
        "Remembered as memory #1 for this project."
    )
    assert run({"fact": "the staging db is on port 5433"}, ctx).startswith(
        "Already remembered (memory #1"
    )
    assert run({"fact": "I like tabs", "scope": "global", "ttl": "7d"}, ctx) == (
        "Remembered as memory #2 for every project, forgotten after 7d."
    )
    memory = ctx.state.memory
    assert memory is not None
    (tabs, staging) = memory.listing()
    assert tabs.scope == "global" and tabs.expires_at == pytest.approx(tabs.created_at + 7 * 86_400)
    assert staging.scope == memory.project and staging.expires_at is None


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"fact": "x", "ttl": "7 days"}, "ttl '7 days': expected"),
        ({"fact": "   "}, "the fact is empty"),
        ({"fact": "x", "scope": "team"}, "invalid input"),
        ({"fact": "x" * 1_001}, "invalid input"),
    ],
)
def test_bad_input_is_an_error_naming_it(raw: dict, message: str, ctx: ToolContext) -> None:
    tool = RememberTool()
    with pytest.raises(ToolError, match=message):
        asyncio.run(tool.run(tool_arguments(tool, raw), ctx))
    assert ctx.state.memory is not None and ctx.state.memory.listing() == []


def test_without_memory_it_says_so(paths: MewcodePaths) -> None:
    ctx = ToolContext(cwd=paths.project, session_dir=paths.home)
    with pytest.raises(ToolError, match="not available"):
        run({"fact": "x"}, ctx)


@pytest.mark.parametrize(
    ("mode", "decision"),
    [("default", "ask"), ("acceptEdits", "ask"), ("plan", "deny"), ("bypassPermissions", "allow")],
)
def test_it_asks_before_storing(
    mode: str, decision: str, paths: MewcodePaths, tmp_path: Path
) -> None:
    verdict = check_json("Remember", FACT, mode, paths, Settings(), home=tmp_path)
    assert verdict["decision"] == decision


def test_an_allow_rule_lets_it_run(paths: MewcodePaths, tmp_path: Path) -> None:
    policy = policy_from_settings(
        paths, Settings(), "default", tmp_path, [RuleEntry("Remember", "allow", "cli")]
    )
    request = PermissionRequest("Remember", {"fact": "x"}, False, "other")
    assert decide(request, policy).decision == "allow"


def test_plan_mode_does_not_offer_it() -> None:
    catalog = ToolCatalog(ToolRegistry(builtin_tools()), None)
    assert "Remember" in catalog.offered_names("default")
    assert "Remember" not in catalog.offered_names("plan")


def test_its_description_limits_it_to_explicit_requests() -> None:
    assert "ONLY when the user explicitly asks" in RememberTool.description
    assert "summaries" in RememberTool.description
