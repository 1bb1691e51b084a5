"""Read-only data a front end may hold, and pure functions over it (docs/protocol.md).

A front end imports these from here rather than from the modules that make them, so
the runtime's packages stay behind the protocol.
"""

from __future__ import annotations

from agent_core.mcp.model import McpServerStatus, ServerState
from agent_core.mcp.names import McpName
from agent_core.mcp.names import parse as parse_mcp_name

__all__ = ["McpName", "McpServerStatus", "ServerState", "parse_mcp_name"]
