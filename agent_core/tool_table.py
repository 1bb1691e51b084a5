"""The one table of built-in tools: name -> "module:Class", in the order offered to the model.

A new tool is its own file under ``agent_core/tools/`` plus one line here. The
names rules may use, the permission families, the checker's profiles and the
tool set a runtime starts with are all derived (``agent_core/tools/builtin.py``
imports the classes). This module imports nothing: settings are checked against
these names before the first frame, and what the settings code imports stays
clear of the tools package (the widgets' import contract in pyproject.toml).
The order is stable for prompt caching.
"""

from __future__ import annotations

BUILTIN_TOOLS: dict[str, str] = {
    "Read": "agent_core.tools.read:ReadTool",
    "Glob": "agent_core.tools.glob:GlobTool",
    "Grep": "agent_core.tools.grep:GrepTool",
    "LS": "agent_core.tools.ls:LSTool",
    "Write": "agent_core.tools.write:WriteTool",
    "Edit": "agent_core.tools.edit:EditTool",
    "MultiEdit": "agent_core.tools.multiedit:MultiEditTool",
    "Bash": "agent_core.tools.bash:BashTool",
    "BashOutput": "agent_core.tools.shell_tools:BashOutputTool",
    "KillShell": "agent_core.tools.shell_tools:KillShellTool",
    "TodoWrite": "agent_core.tools.todo:TodoWriteTool",
    "Remember": "agent_core.tools.remember:RememberTool",
    "WebFetch": "agent_core.tools.webfetch:WebFetchTool",
    "ExitPlanMode": "agent_core.tools.exit_plan:ExitPlanModeTool",
    "Skill": "agent_core.tools.skill:SkillTool",
}

BUILTIN_TOOL_NAMES: tuple[str, ...] = tuple(BUILTIN_TOOLS)
