"""The environment MewCode's own git starts with: nothing inherited that steers git.

Every GIT_* variable is dropped (GIT_DIR, GIT_CONFIG_*, GIT_EXTERNAL_DIFF, GIT_SSH_COMMAND,
GIT_EXEC_PATH... each could point git at a program or another repository), and only a
short list of ordinary variables is kept (the API keys and other secrets stay behind).
PATH keeps only directories outside the session's writable roots, and git itself is
looked up there: a ``git`` (or a ``git-remote-*`` helper) a sandboxed command planted in
a project's ``.venv/bin`` or ``node_modules/.bin`` is never the one MewCode runs.

System and global git config are still read (GIT_CONFIG_NOSYSTEM is not set): they are
the administrator's and the user's, a sandboxed command cannot write them (the home
directory is read-only to commands), they decide what status reports (core.excludesFile,
status.showUntrackedFiles, safe.directory), and every program they could name is
overridden like any other scope's (``overrides``).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

# Inherited as they are: where config lives, whose it is, the time zone.
KEPT_VARIABLES = ("HOME", "XDG_CONFIG_HOME", "USER", "LOGNAME", "TZ")

# Set on every run: one language, no prompt, pager or editor, no lock taken to refresh the index,
# and no trace2 target from the system or global config (only the environment beats it).
FIXED_VARIABLES = {
    "LC_ALL": "C",  # messages MewCode reads ("not a git repository") in one language
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_PAGER": "cat",
    "PAGER": "cat",
    "GIT_EDITOR": ":",
    "GIT_SEQUENCE_EDITOR": ":",
    "GIT_OPTIONAL_LOCKS": "0",
    "GIT_TRACE2": "0",
    "GIT_TRACE2_EVENT": "0",
    "GIT_TRACE2_PERF": "0",
}


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def trusted_path(path_env: str, writable: Iterable[str]) -> list[str]:
    """PATH's absolute directories that lie outside every writable root (resolved)."""
    roots = [os.path.realpath(w) for w in writable]
    kept: list[str] = []
    for entry in path_env.split(os.pathsep):
        if not os.path.isabs(entry):
            continue  # "" and "." mean the working directory: a writable one
        real = os.path.realpath(entry)
        if not any(_inside(real, root) for root in roots) and real not in kept:
            kept.append(real)
    return kept


def git_environment(
    inherited: Mapping[str, str], path: Iterable[str], config: Mapping[str, str]
) -> dict[str, str]:
    """The whole environment for one git run: kept variables, ``path``, fixed ones, ``config``."""
    env = {name: value for name, value in inherited.items() if name in KEPT_VARIABLES}
    env["PATH"] = os.pathsep.join(path)
    env.update(FIXED_VARIABLES)
    env.update(config)
    return env
