"""MewCode's own git: run contained, with every program git's config could name turned off.

``contained`` runs a git command (``run_git``, ``git_config_values``) inside the OS
sandbox with the network off and nothing writable; ``overrides`` holds the config
that turns off fsmonitor, filters, diff drivers, pagers, hooks and transports;
``environment`` the clean environment git starts with.
"""

from agent_core.git.contained import (
    GitNotContained,
    GitResult,
    GitUnavailable,
    git_config_values,
    git_config_values_sync,
    hidden_pathspecs,
    run_git,
    run_git_sync,
)

__all__ = [
    "GitNotContained",
    "GitResult",
    "GitUnavailable",
    "git_config_values",
    "git_config_values_sync",
    "hidden_pathspecs",
    "run_git",
    "run_git_sync",
]
