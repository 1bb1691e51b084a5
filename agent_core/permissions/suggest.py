"""The exact "always allow" rules offered when a call asks for approval."""

from __future__ import annotations

import re
from pathlib import Path

from agent_core.permissions.actions import Action
from agent_core.permissions.bash_specifiers import shell_word
from agent_core.permissions.families import edit_family, path_family
from agent_core.permissions.modes import protected_write
from agent_core.permissions.paths import ResolvedPath
from agent_core.permissions.shell.context import DOWNLOADERS
from agent_core.permissions.shell.names import DESTRUCTIVE, SHELLS, basename, is_interpreter

# How many subcommand words identify what a program does (`git commit`, `gh pr create`).
_SUBCOMMAND_DEPTH = {
    "git": 1, "cargo": 1, "go": 1, "docker": 1, "podman": 1, "kubectl": 1, "npm": 1,
    "pnpm": 1, "yarn": 1, "bun": 1, "deno": 1, "pip": 1, "pip3": 1, "uv": 1, "poetry": 1,
    "make": 1, "just": 1, "gh": 2, "dotnet": 1, "mvn": 1, "gradle": 1, "./gradlew": 1,
    "brew": 1, "apt": 1, "apt-get": 1, "systemctl": 1, "terraform": 1, "helm": 1,
    "conda": 1, "rustup": 1, "hatch": 1, "tox": 1, "nox": 1, "rake": 1, "bundle": 1,
}  # fmt: skip
_RUNNERS = frozenset({"run", "exec", "run-script", "x", "compose", "dlx"})  # name what they run
_LAUNCHERS = frozenset({"npx", "bunx", "pnpx", "uvx", "pipx"})
_INSTALLS = frozenset({"install", "i", "add", "uninstall", "remove", "rm", "exec", "x", "dlx"})
# Subcommands that destroy, publish, install or run code they fetch: `git push:*` would allow
# every push, `pip install:*` every package. Their "always" rule is the exact command.
_UNBOUNDED_SUBCOMMANDS: dict[str, frozenset[str]] = {
    "git": frozenset({"push", "reset", "clean", "checkout", "restore", "rm", "rebase", "switch"}),
    **dict.fromkeys(("pip", "pip3", "uv", "npm", "pnpm", "yarn", "bun", "gem", "cargo"), _INSTALLS),
    **dict.fromkeys(("brew", "apt", "apt-get", "conda", "poetry", "pipx"), _INSTALLS),
    **dict.fromkeys(("docker", "podman"), frozenset({"run", "exec", "rm", "rmi", "prune"})),
    "kubectl": frozenset({"delete", "exec", "apply", "run"}),
}
_PYTHON = re.compile(r"python[\d.]*")
_GITIGNORE_SPECIAL = re.compile(r"([\\*?\[\]])")


def bash_rule(words: list[str]) -> str:
    """``Bash(<program and subcommands>:*)`` for one command; exact when it must not widen."""
    if not words:
        return "Bash"
    first = words[0]
    if "=" in first or first in ("sudo", "doas"):
        return f"Bash({' '.join(shell_word(w) for w in words)})"
    prefix = [first]
    if _PYTHON.fullmatch(first) and len(words) > 2 and words[1] == "-m":
        prefix = words[:3]
    elif first in _LAUNCHERS and len(words) > 1 and not words[1].startswith("-"):
        prefix = words[:2]
    else:
        depth = _SUBCOMMAND_DEPTH.get(first, 0)
        for word in words[1:]:
            if depth <= 0 or word.startswith("-"):
                break
            prefix.append(word)
            depth += (word in _RUNNERS) - 1
    return f"Bash({' '.join(shell_word(w) for w in prefix)}:*)"


def unbounded(words: list[str]) -> bool:
    """Whether a prefix rule for this command would allow far more than it: destructive
    programs, downloaders, shells, interpreters, launchers and the subcommands above."""
    if not words:
        return False
    program = basename(words[0])
    if _PYTHON.fullmatch(program) and len(words) > 2 and words[1] == "-m":
        return unbounded(words[2:])  # `python -m pytest` names its program; `-m pip install` too
    if program in DESTRUCTIVE or program in DOWNLOADERS or program in _LAUNCHERS:
        return True
    if program in SHELLS or is_interpreter(program):
        return True
    subcommands = [w for w in words[1:] if not w.startswith("-")]
    if program == "uv" and subcommands[:1] == ["pip"]:
        return unbounded(words[words.index("pip") :])  # `uv pip install`
    return bool(subcommands) and subcommands[0] in _UNBOUNDED_SUBCOMMANDS.get(program, ())


def _global_options(words: list[str]) -> bool:
    """``git -c k=v x``, ``npm --prefix d x``: options before the subcommand change what runs,
    so a prefix rule would be wider than this call."""
    return (
        _SUBCOMMAND_DEPTH.get(words[0] if words else "", 0) > 0
        and len(words) > 1
        and (words[1].startswith("-"))
    )


def path_rule(tool: str, target: ResolvedPath, root: Path) -> str:
    """``Edit(src/a.py)``, ``Edit(./top.py)`` or ``Edit(//abs/path)`` naming exactly one path."""
    try:
        rel = target.path.relative_to(root).as_posix()
    except ValueError:
        return f"{tool}(/{_escape(str(target.path))})"
    return f"{tool}({_escape(rel) if '/' in rel else './' + _escape(rel)})"


def _escape(path: str) -> str:
    return _GITIGNORE_SPECIAL.sub(r"\\\1", path)


def suggestions(actions: list[Action], root: Path, uncertain: bool) -> list[str]:
    """One rule per action that needs approval (deduplicated, in order).

    No rule is offered for a part whose words or paths are only known at run time: any
    rule that matched it would allow whatever those words turn out to be.
    """
    if uncertain:
        return []  # no rule can allow a command the engine cannot read
    found: list[str] = []
    for action in actions:
        if action.read_only and not action.unknown_paths and not action.asks:
            continue
        if action.unknown_paths or _dynamic(action):
            continue
        rule = _one(action, root)
        if rule and rule not in found:
            found.append(rule)
    return found


def _dynamic(action: Action) -> bool:
    cmd = action.command
    return cmd is not None and any(w.dynamic for w in (*cmd.words, *cmd.argv))


def _exact(words: list[str]) -> str | None:
    """``Bash(<the whole command>)``; None when a word holds ``*``, which a rule reads as a
    wildcard (``Bash(rm *.o)`` would allow ``rm a.o /etc/b.o``)."""
    if any("*" in w for w in words):
        return None
    return f"Bash({' '.join(shell_word(w) for w in words)})"


def _one(action: Action, root: Path) -> str | None:
    if action.tool == "Bash" and action.command is not None:
        words = [w.text for w in action.command.words]
        if protected_write(action) or _global_options(words) or unbounded(words):
            return _exact(words)
        return bash_rule(words)
    if action.tool in path_family():
        family = "Edit" if action.tool in edit_family() else "Read"
        targets = action.writes or action.reads
        return path_rule(family, targets[0], root) if targets else None
    if action.tool == "WebFetch":
        return f"WebFetch(domain:{action.host})" if action.host else None
    return action.tool
