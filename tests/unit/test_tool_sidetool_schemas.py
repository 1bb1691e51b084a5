"""The side-effect tools offer the model schemas with Claude Code's parameter names."""

from __future__ import annotations

import subprocess
import sys

import pytest

from agent_core.tools.base import input_schema
from agent_core.tools.bash import BashTool
from agent_core.tools.edit import EditTool
from agent_core.tools.exit_plan import ExitPlanModeTool
from agent_core.tools.multiedit import MultiEditTool
from agent_core.tools.registry import ToolRegistry
from agent_core.tools.shell_tools import BashOutputTool, KillShellTool
from agent_core.tools.todo import TodoWriteTool
from agent_core.tools.webfetch import WebFetchTool
from agent_core.tools.write import WriteTool

EXPECTED = {
    "Write": (WriteTool, {"file_path", "content"}, {"file_path", "content"}, False, "edit"),
    "Edit": (
        EditTool,
        {"file_path", "old_string", "new_string", "replace_all"},
        {"file_path", "old_string", "new_string"},
        False,
        "edit",
    ),
    "MultiEdit": (MultiEditTool, {"file_path", "edits"}, {"file_path", "edits"}, False, "edit"),
    "Bash": (
        BashTool,
        {"command", "timeout", "description", "run_in_background"},
        {"command"},
        False,
        "bash",
    ),
    "BashOutput": (BashOutputTool, {"bash_id", "filter"}, {"bash_id"}, True, "other"),
    "KillShell": (KillShellTool, {"shell_id"}, {"shell_id"}, False, "other"),
    "TodoWrite": (TodoWriteTool, {"todos"}, {"todos"}, True, "other"),
    "WebFetch": (WebFetchTool, {"url", "prompt"}, {"url", "prompt"}, True, "web"),
    "ExitPlanMode": (ExitPlanModeTool, {"plan"}, {"plan"}, True, "other"),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_schema_and_flags(name: str) -> None:
    cls, props, required, read_only, kind = EXPECTED[name]
    tool = cls()
    schema = input_schema(tool.params)
    assert tool.name == name
    assert set(schema["properties"]) == props
    assert set(schema.get("required", [])) == required
    assert all(schema["properties"][p].get("description") for p in props)
    assert (tool.read_only, tool.permission_kind) == (read_only, kind)
    assert len(tool.description) > 80


def test_registry_specs_build() -> None:
    registry = ToolRegistry([cls() for cls, *_ in EXPECTED.values()])
    specs = registry.specs()
    assert [s.name for s in specs] == list(EXPECTED)


@pytest.mark.slow
def test_importing_the_tools_does_not_import_http_clients() -> None:
    code = (
        "import sys, agent_core.tools.webfetch, agent_core.tools.bash, agent_core.tools.edit;"
        "print(sorted(m for m in ('httpx2','httpx','anthropic','openai','mcp','textual')"
        " if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
