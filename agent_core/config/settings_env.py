"""The ``env`` setting: variables added to the environment of tool commands and hooks.

Never to MewCode's own process environment, so never to where the API key or the base
URL come from. The sandbox launcher (bwrap, MewCode's Landlock helper) and hooks start
with this environment outside the sandbox, so what changes how a program loads or a
shell starts is refused from every file: ``LD_*``, ``DYLD_*``, ``PYTHON*``,
``BASH_ENV``, ``ENV``, ``BASH_FUNC_*``, ``SHELLOPTS``, ``BASHOPTS``, ``IFS``, ``PS4``,
``PROMPT_COMMAND``, MewCode's own ``MEWCODE*`` and its API key variables. A project's
files may not set ``PATH`` either, and none of a project's entries reach hooks
(``Settings.hook_env``): hooks, the user's own included, run outside the sandbox, and a
trusted project's later ``HOME`` or ``NODE_OPTIONS`` would choose what they run.
"""

from __future__ import annotations

import re

REFUSED_PREFIXES = ("LD_", "DYLD_", "PYTHON", "BASH_FUNC_", "MEWCODE")
REFUSED_NAMES = frozenset({
    "BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS", "IFS", "PS4", "PROMPT_COMMAND",
    "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "OPENAI_API_KEY",
})  # fmt: skip
PROJECT_REFUSED = frozenset({"PATH"})
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def env_entry_problem(name: str, value: object) -> str | None:
    """Why ``name=value`` is not set for commands (one phrase), or None."""
    if not _NAME.fullmatch(name):
        return f"{name!r} is not a variable name"
    if name in REFUSED_NAMES or name.upper().startswith(REFUSED_PREFIXES):
        return f"{name} would change how MewCode's own programs start"
    if not isinstance(value, str):
        return f"{name}: expected text, got {type(value).__name__}"
    if "\0" in value:
        return f"{name}: holds a NUL byte"
    return None
