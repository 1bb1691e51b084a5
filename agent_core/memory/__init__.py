"""Memory: instruction files loaded into the environment block (docs/configuration.md#project-instructions-memory-files)."""
