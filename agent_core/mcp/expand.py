"""``${VAR}`` and ``${VAR:-default}`` in MCP server entries, from the process environment."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

# ``$$`` is matched first so that it (and what follows it) stays as written.
_TOKEN = re.compile(r"\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")


class UnsetVariable(Exception):
    """A ``${VAR}`` with no default whose variable is not set."""

    def __init__(self, name: str) -> None:
        super().__init__(f"${{{name}}} is not set")
        self.name = name


class WithheldVariable(UnsetVariable):
    """A project file's ``${VAR}`` naming a variable that holds a provider's API key."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.args = (
            f"${{{name}}} holds your provider's API key: a project's .mcp.json may not read it",
        )


class ProjectEnv(Mapping[str, str]):
    """The environment as a project's file sees it: without the API-key variables."""

    def __init__(self, env: Mapping[str, str], withheld: frozenset[str]) -> None:
        self._env = env
        self._withheld = withheld

    def __getitem__(self, name: str) -> str:
        if name in self._withheld:
            raise WithheldVariable(name)
        return self._env[name]

    def get(self, name: str, default: object = None) -> Any:
        if name in self._withheld:
            raise WithheldVariable(name)
        return self._env.get(name, default)

    def __iter__(self) -> Iterator[str]:
        return (k for k in self._env if k not in self._withheld)

    def __len__(self) -> int:
        return sum(1 for _ in self)


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
