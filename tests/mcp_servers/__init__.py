"""MCP servers written with the SDK, run as real processes by the MCP tests."""
