"""Memory: instruction files loaded into the environment block (SPEC §10)."""
