"""``${VAR}`` and ``${VAR:-default}`` in MCP server entries, from the process environment."""

from __future__ import annotations

import re
from collections.abc import Mapping

# ``$$`` is matched first so that it (and what follows it) stays as written.
_TOKEN = re.compile(r"\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")


class UnsetVariable(Exception):
    """A ``${VAR}`` with no default whose variable is not set."""

    def __init__(self, name: str) -> None:
        super().__init__(f"${{{name}}} is not set")
        self.name = name


def expand(text: str, env: Mapping[str, str]) -> str:
    """``text`` with its variables replaced; ``:-default`` applies when unset or empty.

    Raises UnsetVariable rather than silently putting an empty string in a command,
    URL or header. ``$$``, a lone ``$`` and ``${`` forms that are not a variable name
    (``${1}`` in a shell snippet) stay as written.
    """

    def replace(match: re.Match[str]) -> str:
        name, default = match.group(1), match.group(2)
        if name is None:
            return match.group(0)
        value = env.get(name)
        if default is not None and not value:
            return default
        if value is None:
            raise UnsetVariable(name)
        return value

    return _TOKEN.sub(replace, text)
