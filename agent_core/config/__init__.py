"""Paths (MEWCODE_HOME) and merged YAML settings (SPEC §21)."""
