"""diff_counts: the lines a unified diff adds and removes, read from its hunks."""

from __future__ import annotations

from agent_core.protocol.diff_counts import DiffCounts, diff_counts
from agent_core.tools.diffing import unified_diff


def test_a_removed_line_that_starts_with_dashes_is_counted_not_taken_for_a_header() -> None:
    diff = unified_diff("-- a comment\nkeep\n", "++ added\nkeep\n", "q.sql")
    assert "--- a comment" in diff.diff.splitlines()
    assert diff_counts(diff.diff) == DiffCounts(added=1, removed=1)
    assert (diff.added, diff.removed) == (1, 1)


def test_a_missing_final_newline_is_not_a_line_of_its_own() -> None:
    diff = unified_diff("a\nb", "a\nc", "f.txt")
    assert "No newline at end of file" in diff.diff
    assert diff_counts(diff.diff) == (1, 1)


def test_several_hunks_and_a_new_file_are_counted_whole() -> None:
    lines = [f"line {n}\n" for n in range(50)]
    old = "".join(lines)
    lines[3], lines[40] = "three\n", "forty\nextra\n"
    new = "".join(lines)
    assert diff_counts(unified_diff(old, new, "n.txt").diff) == (3, 2)
    assert diff_counts(unified_diff(None, "x\ny\n", "new.txt").diff) == (2, 0)


def test_text_that_is_not_a_diff_counts_nothing() -> None:
    assert diff_counts("+ not in a hunk\n- nor this\n") == (0, 0)
