"""Warm start: a preload server that forks a fresh, already-imported child per command."""
