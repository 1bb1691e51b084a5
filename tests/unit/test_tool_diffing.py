"""Unified diffs with counts, and the numbered snippet shown in Edit results."""

from __future__ import annotations

from agent_core.tools.diffing import changed_snippet, unified_diff


def test_counts_exclude_headers() -> None:
    diff = unified_diff("a\nb\nc\n", "a\nB\nc\nd\n", "x.py")
    assert diff.diff.splitlines()[:2] == ["--- a/x.py", "+++ b/x.py"]
    assert (diff.added, diff.removed) == (2, 1)


def test_new_file_and_no_change() -> None:
    created = unified_diff(None, "one\ntwo", "n.txt")
    assert created.diff.startswith("--- /dev/null\n+++ b/n.txt\n")
    assert (created.added, created.removed) == (2, 0)
    assert created.diff.endswith("+two\n\\ No newline at end of file\n")
    same = unified_diff("x\n", "x\n", "s.txt")
    assert (same.diff, same.added, same.removed) == ("", 0, 0)


def test_snippet_shows_first_change_with_line_numbers() -> None:
    old = "".join(f"line {i}\n" for i in range(1, 41))
    new = old.replace("line 10\n", "line ten\n").replace("line 35\n", "line 35b\n")
    diff = unified_diff(old, new, "f.txt")
    snippet = changed_snippet(diff, new)
    lines = snippet.splitlines()
    assert lines[0] == "     7\tline 7"
    assert "    10\tline ten" in lines
    assert lines[-1] == "... (1 more changed region(s))"
    assert "line 35b" not in snippet
