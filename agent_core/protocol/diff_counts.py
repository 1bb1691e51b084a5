"""How many lines a unified diff adds and removes: one count for every side of the session.

The runtime sends file changes as unified diff text (``FileDiff``, ``ApprovalRequested``)
with their counts; the approval dialog, the tool line and the diff viewer show those
counts, so the same change reads the same everywhere. The count follows the hunk
headers, so a removed line that starts with ``--`` is counted, not taken for a header,
and it never depends on how much of the diff a view shows.
"""

from __future__ import annotations

import re
from typing import NamedTuple

_HUNK = re.compile(r"^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@")


class DiffCounts(NamedTuple):
    """Lines a diff adds and removes."""

    added: int
    removed: int


def diff_counts(diff: str) -> DiffCounts:
    """The lines added and removed by the hunks of a unified diff (the whole diff)."""
    added = removed = 0
    old_left = new_left = 0
    for line in diff.splitlines():
        if old_left > 0 or new_left > 0:
            tag = line[:1] or " "  # a context line whose trailing space was stripped
            if tag == "\\":  # "\ No newline at end of file"
                continue
            if tag in " -+":
                added += tag == "+"
                removed += tag == "-"
                old_left -= tag in " -"
                new_left -= tag in " +"
                continue
            old_left = new_left = 0  # malformed: the hunk ended early
        match = _HUNK.match(line)
        if match:
            old_left = int(match.group(1) if match.group(1) is not None else 1)
            new_left = int(match.group(2) if match.group(2) is not None else 1)
    return DiffCounts(added, removed)
