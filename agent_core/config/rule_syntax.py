"""The text form of permission rules, ``Tool`` or ``Tool(specifier)``, and its checks.

Settings are read before the first frame, and importing ``agent_core.permissions``
costs about 100 ms (the engine and the shell analyzer), so the syntax lives here
and the engine imports it from this module. The tool names come from the one
table in ``agent_core/tool_table.py``, which imports nothing.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection
from typing import NamedTuple

from agent_core.mcp import names as mcp_names
from agent_core.tool_table import BUILTIN_TOOL_NAMES

# Claude Code tools MewCode does not have. A rule naming one (settings shared with
# Claude Code) can match no call here, so it is dropped with a warning, even a deny.
CLAUDE_CODE_ONLY_TOOLS = frozenset({
    "NotebookEdit", "NotebookRead", "Task", "SlashCommand", "WebSearch", "KillBash",
    "TodoRead",
})  # fmt: skip

_RULE = re.compile(r"^\s*([A-Za-z0-9_.*\-]+)\s*(?:\((.*)\))?\s*$", re.DOTALL)
_SYNTAX = "expected Tool or Tool(specifier)"
_MCP_FORMS = "mcp__server, mcp__server__* or mcp__server__tool"
_MCP_TOOL = re.compile(r"[A-Za-z0-9_-]+")  # what names.tool_name leaves in a tool's part


class ParsedRule(NamedTuple):
    tool: str
    spec: str | None  # None for a bare tool name


@functools.lru_cache(maxsize=1024)
def parse_rule(text: str) -> ParsedRule | None:
    """Split ``Tool(spec)``; None when the text is not a rule."""
    match = _RULE.match(text)
    if not match:
        return None
    spec = match.group(2)
    return ParsedRule(match.group(1), spec.strip() if spec and spec.strip() else None)


def _did_you_mean(tool: str, known: Collection[str]) -> str:
    import difflib  # only for a rule with a problem

    same_case = [name for name in known if name.lower() == tool.lower()]
    close = same_case or difflib.get_close_matches(tool, list(known), n=1, cutoff=0.75)
    if close:
        return f" (did you mean {close[0]}?)"
    return f" (built-in tools: {', '.join(known)}, or mcp__server__tool)"


def _mcp_problem(text: str, tool: str, has_parens: bool) -> str | None:
    """A rule that no tool name could ever match (``mcp__git_``, ``mcp__git__read*``)."""
    if has_parens:
        return f"{text}: MCP rules take no specifier ({_MCP_FORMS})"
    server, sep, tool_part = tool[len(mcp_names.PREFIX) :].partition("__")
    if not server or "*" in server or (sep and not tool_part):
        return f"{text}: expected {_MCP_FORMS}"
    if problem := mcp_names.server_name_problem(server):
        return f"{text}: {problem}"
    if not sep or tool_part == "*":
        return None
    if "*" in tool_part:
        return f"{text}: '*' only as the whole tool part ({_MCP_FORMS})"
    if not _MCP_TOOL.fullmatch(tool_part):
        return (
            f"{text}: tool names in rules use only letters, digits, '_' and '-' "
            "(write the mcp__server__tool name the model sees)"
        )
    if len(tool) > mcp_names.MAX_NAME:
        return f"{text}: longer than the {mcp_names.MAX_NAME} characters a tool name can have"
    return None


def names_missing_tool(text: str) -> bool:
    """True when ``text`` is a rule for a Claude Code tool that MewCode does not have."""
    parsed = parse_rule(text)
    return parsed is not None and parsed.tool in CLAUDE_CODE_ONLY_TOOLS


def rule_problem(text: str, known_tools: Collection[str] = BUILTIN_TOOL_NAMES) -> str | None:
    """Why ``text`` is not a valid rule, in one line that names it; None when it is valid."""
    stripped = text.strip()
    has_parens = "(" in stripped
    if has_parens != stripped.endswith(")"):
        missing = "')'" if has_parens else "'('"
        return f"{text}: unbalanced parenthesis, missing {missing} ({_SYNTAX})"
    parsed = parse_rule(text)
    if parsed is None:
        return f"{text}: not a permission rule ({_SYNTAX})"
    tool, spec = parsed
    if tool.startswith("mcp__"):
        return _mcp_problem(text, tool, has_parens)
    if tool not in known_tools and tool in CLAUDE_CODE_ONLY_TOOLS:
        return f"{text}: {tool} is a Claude Code tool that MewCode does not have"
    if tool not in known_tools:
        return f"{text}: unknown tool {tool}{_did_you_mean(tool, known_tools)}"
    if has_parens and spec is None:
        return f"{text}: empty specifier (write {tool} alone to match every {tool} call)"
    if tool == "WebFetch" and spec and not spec.startswith("domain:"):
        return f"{text}: WebFetch rules take domain:HOST, e.g. WebFetch(domain:example.com)"
    if tool == "WebFetch" and spec:
        from agent_core.net.hosts import domain_host  # only for a WebFetch rule

        if domain_host(spec) is None:
            return (
                f"{text}: not a host name or IP address (domain:example.com, domain:*.example.com)"
            )
    return None
