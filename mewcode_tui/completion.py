"""What the input completes: `/command` names and `@path` file references.

Pure functions plus a small file index. The index lists the project's files
with ripgrep (`rg --files` honours .gitignore and is fast on big trees) and
falls back to a walk filtered by pathspec when rg is missing.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

MAX_FILES = 200_000
_AT_TOKEN = re.compile(r"(?:^|\s)@([^\s@]*)$")


@dataclass(frozen=True)
class CompletionQuery:
    """The token being completed: ``trigger`` is '/' or '@'; ``start`` its column."""

    trigger: str
    fragment: str
    start: int  # offset in the line of the trigger character


@dataclass(frozen=True)
class Candidate:
    value: str  # what replaces the token
    label: str
    detail: str = ""


def find_query(line: str, column: int, first_line: bool) -> CompletionQuery | None:
    """The completion the text before the cursor asks for, if any."""
    before = line[:column]
    if first_line and before.startswith("/") and " " not in before:
        return CompletionQuery("/", before[1:], 0)
    match = _AT_TOKEN.search(before)
    if match:
        return CompletionQuery("@", match.group(1), column - len(match.group(1)) - 1)
    return None


def rank_commands(fragment: str, commands: Iterable[tuple[str, str]]) -> list[Candidate]:
    """Commands whose name starts with, then contains, ``fragment``."""
    fragment = fragment.lower()
    prefix, inner = [], []
    for name, description in commands:
        low = name.lower()
        if low.startswith(fragment):
            prefix.append(Candidate("/" + name, "/" + name, description))
        elif fragment and fragment in low:
            inner.append(Candidate("/" + name, "/" + name, description))
    return sorted(prefix, key=lambda c: c.value) + sorted(inner, key=lambda c: c.value)


def _subsequence_score(needle: str, hay: str) -> int | None:
    """Lower is better; None when ``needle`` is not a subsequence of ``hay``."""
    pos = -1
    gaps = 0
    for ch in needle:
        found = hay.find(ch, pos + 1)
        if found < 0:
            return None
        gaps += found - pos - 1
        pos = found
    return gaps


def rank_paths(fragment: str, files: list[str], limit: int = 30) -> list[Candidate]:
    """Files matching ``fragment``: substring matches (name first), then fuzzy ones."""
    if not fragment:
        picked = sorted(files, key=lambda f: (f.count("/"), f))[:limit]
        return [Candidate("@" + f, f) for f in picked]
    needle = fragment.lower()
    scored: list[tuple[int, int, str]] = []
    for path in files:
        low = path.lower()
        at = low.find(needle)
        if at >= 0:
            in_name = low.rfind("/") < at
            scored.append((0 if in_name else 1, len(path), path))
            continue
        gaps = _subsequence_score(needle, low)
        if gaps is not None:
            scored.append((2, gaps * 1000 + len(path), path))
    scored.sort()
    return [Candidate("@" + path, path) for _, _, path in scored[:limit]]


def ripgrep_binary() -> str | None:
    """The rg shipped in our venv (PyPI `ripgrep`), else one on PATH."""
    local = Path(sys.executable).parent / "rg"
    if local.exists():
        return str(local)
    return shutil.which("rg")


def list_project_files(root: Path, limit: int = MAX_FILES) -> list[str]:
    """Project files relative to ``root``, gitignore-aware, at most ``limit``."""
    rg = ripgrep_binary()
    if rg:
        try:
            proc = subprocess.run(
                [
                    rg,
                    "--files",
                    "--hidden",
                    "--no-require-git",
                    "--glob",
                    "!.git",
                    "--sort",
                    "path",
                ],
                cwd=root,
                capture_output=True,
                text=True,
                timeout=10,
                check=False,
            )
            if proc.returncode in (0, 1):
                return proc.stdout.splitlines()[:limit]
        except (OSError, subprocess.TimeoutExpired):
            pass
    return _walk_files(root, limit)


def _walk_files(root: Path, limit: int) -> list[str]:
    import pathspec

    ignore = root / ".gitignore"
    lines = (
        ignore.read_text(encoding="utf-8", errors="replace").splitlines() if ignore.exists() else []
    )
    spec = pathspec.GitIgnoreSpec.from_lines(lines)
    found: list[str] = []
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root)
        rel_dir = "" if rel_dir == "." else rel_dir + "/"
        dirnames[:] = sorted(
            d for d in dirnames if d != ".git" and not spec.match_file(rel_dir + d + "/")
        )
        for name in sorted(filenames):
            rel = rel_dir + name
            if not spec.match_file(rel):
                found.append(rel)
                if len(found) >= limit:
                    return found
    return found


class FileIndex:
    """A cached list of project files, refreshed when older than ``max_age`` seconds."""

    def __init__(self, root: Path, max_age: float = 15.0) -> None:
        self.root = root
        self.max_age = max_age
        self._files: list[str] | None = None
        self._stamp = 0.0

    def files(self) -> list[str]:
        """The file list (blocking: call from a thread)."""
        now = time.monotonic()
        if self._files is None or now - self._stamp > self.max_age:
            self._files = list_project_files(self.root)
            self._stamp = now
        return self._files
