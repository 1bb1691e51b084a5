"""The built-in tool set, in the order it is offered to the model (stable for caching)."""

from __future__ import annotations

from agent_core.tools.base import Tool


def builtin_tools() -> list[Tool]:
    from agent_core.tools.bash import BashTool
    from agent_core.tools.edit import EditTool
    from agent_core.tools.exit_plan import ExitPlanModeTool
    from agent_core.tools.glob import GlobTool
    from agent_core.tools.grep import GrepTool
    from agent_core.tools.ls import LSTool
    from agent_core.tools.multiedit import MultiEditTool
    from agent_core.tools.read import ReadTool
    from agent_core.tools.shell_tools import BashOutputTool, KillShellTool
    from agent_core.tools.todo import TodoWriteTool
    from agent_core.tools.webfetch import WebFetchTool
    from agent_core.tools.write import WriteTool

    return [
        ReadTool(),
        GlobTool(),
        GrepTool(),
        LSTool(),
        WriteTool(),
        EditTool(),
        MultiEditTool(),
        BashTool(),
        BashOutputTool(),
        KillShellTool(),
        TodoWriteTool(),
        WebFetchTool(),
        ExitPlanModeTool(),
    ]
