"""MCP client: servers from ``mcp.json`` files, their tools beside the built-ins (docs/configuration.md#mcp-servers).

``config`` reads the files (pure), ``names`` says how server and tool names
become ``mcp__server__tool``, ``hub`` holds the connections and ``tools`` the
Tool objects the runtime registers. Nothing here imports the ``mcp`` SDK at
module level: it costs about half a second and is loaded off the first frame.
"""
