"""Path display and .gitignore rules for tools that walk directories in Python.

The rules follow ripgrep's defaults so that LS and Grep/Glob agree on what is
ignored: .gitignore files count only inside a git repository, from the
repository root down, plus .git/info/exclude; a deeper file overrides a
shallower one; .git itself is always skipped.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pathspec


def display_path(path: Path | str, cwd: Path) -> str:
    """The path relative to cwd when it lies under cwd, else absolute."""
    text = os.fspath(path)
    base = os.fspath(cwd).rstrip(os.sep) + os.sep
    if text.startswith(base):
        return text[len(base) :]
    if text == base.rstrip(os.sep):
        return "."
    return text


def relative_under(path: Path, cwd: Path) -> str | None:
    """path relative to cwd as a string, or None when path is outside cwd."""
    try:
        rel = path.relative_to(cwd)
    except ValueError:
        return None
    return rel.as_posix()


def git_root(start: Path) -> Path | None:
    """The nearest directory at or above start that holds a .git entry."""
    for candidate in (start, *start.parents):
        if (candidate / ".git").exists():
            return candidate
    return None


def _load_spec(file: Path) -> pathspec.GitIgnoreSpec | None:
    try:
        lines = file.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    spec = pathspec.GitIgnoreSpec.from_lines(lines)
    # Blank and comment lines become patterns that decide nothing.
    return spec if any(p.include is not None for p in spec.patterns) else None


@dataclass(frozen=True)
class _Layer:
    base: Path  # the directory whose .gitignore this is
    spec: pathspec.GitIgnoreSpec


@dataclass(frozen=True)
class IgnoreRules:
    """Gitignore layers in force for one directory; extend with descend()."""

    layers: tuple[_Layer, ...] = ()
    in_repo: bool = False

    @classmethod
    def for_directory(cls, directory: Path) -> IgnoreRules:
        """The rules in force at directory: its repository's files from the root down."""
        root = git_root(directory)
        if root is None:
            return cls()
        layers: list[_Layer] = []
        exclude = _load_spec(root / ".git" / "info" / "exclude")
        if exclude is not None:
            layers.append(_Layer(root, exclude))
        rules = cls(tuple(layers), in_repo=True)
        chain = [directory, *directory.parents]
        for ancestor in reversed(chain[: chain.index(root) + 1]):
            if ancestor != root and rules.ignored(ancestor, is_dir=True):
                # An ignored directory listed by name is shown, as rg searches a path
                # given outright; rules from above it would otherwise hide everything.
                rules = cls((), in_repo=True)
            rules = rules.descend(ancestor)
        return rules

    def descend(self, directory: Path) -> IgnoreRules:
        """The rules for a subdirectory: these plus its own .gitignore, if any."""
        if not self.in_repo:
            return self
        spec = _load_spec(directory / ".gitignore")
        if spec is None:
            return self
        return IgnoreRules((*self.layers, _Layer(directory, spec)), in_repo=True)

    def ignored(self, path: Path, is_dir: bool) -> bool:
        """Whether path is excluded; the deepest file with a matching pattern decides."""
        if path.name == ".git":
            return True
        for layer in reversed(self.layers):
            rel = relative_under(path, layer.base)
            if rel is None or rel == ".":
                continue
            verdict = layer.spec.check_file(rel + "/" if is_dir else rel).include
            if verdict is not None:
                return verdict
        return False
