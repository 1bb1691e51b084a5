"""The git aliases a user or repository defines, read from git's config files."""

from __future__ import annotations

import re
from pathlib import Path

_SECTION = re.compile(r"^\s*\[\s*([A-Za-z0-9.-]+)(?:\s+\"[^\"]*\")?\s*\]")
_KEY = re.compile(r"^\s*([A-Za-z][A-Za-z0-9-]*)\s*(=|$)")


def git_aliases(project: Path, home: Path) -> frozenset[str]:
    """Names defined under ``[alias]`` in the repository's and the user's git config."""
    from agent_core.tools.pathfilter import git_root

    repo = git_root(project) or project
    dot_git = repo / ".git"
    files = [home / ".gitconfig", home / ".config" / "git" / "config", Path("/etc/gitconfig")]
    if dot_git.is_file():  # a worktree: "gitdir: <path>"
        try:
            line = dot_git.read_text(errors="replace").strip()
        except OSError:
            line = ""
        if line.startswith("gitdir:"):
            gitdir = (repo / line[len("gitdir:") :].strip()).resolve()
            files += [gitdir / "config", gitdir.parent.parent / "config"]
    else:
        files.append(dot_git / "config")
    names: set[str] = set()
    for file in files:
        try:
            text = file.read_text(errors="replace")
        except OSError:
            continue
        section = ""
        for line in text.splitlines():
            if header := _SECTION.match(line):
                section = header.group(1).lower()
                line = line[header.end() :]
            if section == "alias" and (key := _KEY.match(line)):
                names.add(key.group(1).lower())
    return frozenset(names)
