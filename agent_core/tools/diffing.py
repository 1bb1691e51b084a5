"""Unified diffs of a file change, with added/removed line counts and a result snippet."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from agent_core.protocol.diff_counts import diff_counts

_HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@")
_NO_EOL = "\\ No newline at end of file\n"
SNIPPET_MAX_LINES = 30


@dataclass(frozen=True)
class TextDiff:
    """A unified diff between two versions of one file."""

    diff: str
    added: int
    removed: int


def _lines(text: str) -> list[str]:
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        # Mark a missing final newline the way git does, so it shows as a change.
        lines[-1] = lines[-1] + "\n" + _NO_EOL
    return lines


def unified_diff(old: str | None, new: str, path: str, context: int = 3) -> TextDiff:
    """Diff old content (None for a new file) against new content, labelled with path."""
    before = "/dev/null" if old is None else f"a/{path}"
    body = difflib.unified_diff(
        _lines(old or ""), _lines(new), fromfile=before, tofile=f"b/{path}", n=context
    )
    text = "".join(body)
    added, removed = diff_counts(text)
    return TextDiff(text, added, removed)


def numbered(lines: list[str], first: int) -> str:
    """Lines numbered like `cat -n`, starting at line number first."""
    return "\n".join(f"{n:6}\t{line}" for n, line in enumerate(lines, start=first))


def changed_snippet(diff: TextDiff, new: str) -> str:
    """The new text around the first change, numbered; empty when nothing changed."""
    lines = new.splitlines()
    hunks = [m for m in map(_HUNK.match, diff.diff.splitlines()) if m]
    if not hunks:
        return ""
    start = max(int(hunks[0].group(1)), 1)
    count = int(hunks[0].group(2) or 1)
    shown = lines[start - 1 : start - 1 + min(count, SNIPPET_MAX_LINES)]
    if not shown:
        return ""
    text = numbered(shown, start)
    more = []
    if count > SNIPPET_MAX_LINES:
        more.append(f"{count - SNIPPET_MAX_LINES} more lines in this change")
    if len(hunks) > 1:
        more.append(f"{len(hunks) - 1} more changed region(s)")
    return text + (f"\n... ({'; '.join(more)})" if more else "")
