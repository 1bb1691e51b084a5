"""Execution layer: the tool registry and the built-in tools."""
