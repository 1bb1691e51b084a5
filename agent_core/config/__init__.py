"""Paths (MEWCODE_HOME) and merged YAML settings (docs/configuration.md#settings-files)."""
