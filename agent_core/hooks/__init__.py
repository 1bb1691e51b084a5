"""Hooks (docs/configuration.md#hooks): commands the user configures to run at fixed points of a session."""
