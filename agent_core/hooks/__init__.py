"""Hooks (SPEC §12): commands the user configures to run at fixed points of a session."""
