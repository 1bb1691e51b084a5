"""How MCP server and tool names become the names the model and the rules see.

A tool is offered as ``mcp__<server>__<tool>``. Server names may not contain
``__`` nor start or end with ``_``, so the server part of any such name is
exactly the text up to the first ``__`` after the prefix: rule ``mcp__git``
can never match a server named ``git__hub`` (there cannot be one). Tool names
are made safe for both providers' name rules (``[A-Za-z0-9_-]``, at most 64
characters); a name that had to change keeps a short hash of the original so
two server tools never collide.
"""

from __future__ import annotations

import hashlib
import re
from typing import NamedTuple

PREFIX = "mcp__"
MAX_NAME = 64  # OpenAI's limit for a function name; Anthropic allows more
_SERVER_NAME = re.compile(r"[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*")
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")
VIRTUAL_TOOLS = ("list_resources", "read_resource", "get_prompt")


class McpName(NamedTuple):
    server: str
    tool: str


def server_name_problem(name: str) -> str | None:
    """Why ``name`` cannot name a server, or None."""
    if not name:
        return "empty server name"
    if not _SERVER_NAME.fullmatch(name):
        return (
            f"server name {name!r} may use only letters, digits, '-' and single '_' "
            "(not '__', and not at the start or end)"
        )
    if len(PREFIX) + len(name) + 2 + 8 > MAX_NAME:
        return (
            f"server name {name!r} is too long (at most {MAX_NAME - len(PREFIX) - 10} characters)"
        )
    return None


def tool_name(server: str, tool: str) -> str:
    """The name the model sees for ``tool`` of ``server`` (a valid server name)."""
    head = f"{PREFIX}{server}__"
    safe = _UNSAFE.sub("_", tool)
    # An empty name would leave ``mcp__s__``, which parse (and so every rule) rejects.
    if tool and safe == tool and len(head) + len(tool) <= MAX_NAME:
        return head + tool
    digest = hashlib.sha256(tool.encode()).hexdigest()[:6]
    room = MAX_NAME - len(head) - len(digest) - 1
    return f"{head}{safe[:room]}_{digest}"


def parse(name: str) -> McpName | None:
    """``mcp__server__tool`` split at the server's end; None for any other name."""
    if not name.startswith(PREFIX):
        return None
    server, sep, tool = name[len(PREFIX) :].partition("__")
    if not sep or not server or not tool or server_name_problem(server):
        return None
    return McpName(server, tool)
