"""Unified diff parsing and side reconstruction behind the diff panel."""

from __future__ import annotations

from mewcode_tui.widgets.diff_panel import parse_unified_diff, rebuild_sides, unified_diff_of

TWO_HUNKS = "\n".join(
    [
        "--- a/app.py",
        "+++ b/app.py",
        "@@ -3,4 +3,5 @@ def main():",
        "     a = 1",
        "-    b = 2",
        "+    b = 3",
        "+    c = 4",
        "     return a",
        " ",  # a blank context line
        "@@ -20,3 +21,2 @@ class Runner:",
        "     def stop(self):",
        "-        self.running = False",
        "         return self",
    ]
)


def test_hunks_keep_their_lines_and_tags() -> None:
    parsed = parse_unified_diff(TWO_HUNKS)
    assert [(h.old_start, h.new_start) for h in parsed.hunks] == [(3, 3), (20, 21)]
    assert parsed.hunks[0].lines[1] == ("-", "    b = 2")
    assert parsed.hunks[0].lines[5] == (" ", "")  # a blank context line stays a line
    assert parsed.hidden_lines == 0


def test_rebuilt_sides_put_every_line_at_its_real_line_number() -> None:
    before, after, groups = rebuild_sides(parse_unified_diff(TWO_HUNKS).hunks)
    old, new = before.split("\n"), after.split("\n")
    assert old[2] == "    a = 1" and old[3] == "    b = 2"  # line 3 and 4 of the old file
    assert new[3] == "    b = 3" and new[4] == "    c = 4"
    assert old[20] == "        self.running = False"  # old line 21
    assert new[21] == "        return self"  # new line 22
    assert [op[0] for op in groups[0]] == ["equal", "replace", "equal"]
    assert groups[1][1] == ("delete", 20, 21, 21, 21)


def test_new_file_diff_is_all_insertions() -> None:
    diff = "--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+hello\n+world\n"
    before, after, groups = rebuild_sides(parse_unified_diff(diff).hunks)
    assert before == "" and after == "hello\nworld"
    assert groups == [[("insert", 0, 0, 0, 2)]]


def test_no_newline_marker_and_removed_dash_lines_are_not_headers() -> None:
    diff = "@@ -1,2 +1,2 @@\n--- a comment\n+-- a comment\n x\n\\ No newline at end of file\n"
    parsed = parse_unified_diff(diff)
    assert parsed.hunks[0].lines == [("-", "-- a comment"), ("+", "-- a comment"), (" ", "x")]


def test_huge_diff_is_cut_and_counts_what_it_hid() -> None:
    after = "\n".join(f"line {i}" for i in range(1000))
    parsed = parse_unified_diff(unified_diff_of("", after, "big.txt"), max_lines=50)
    assert parsed.shown_lines == 50
    assert parsed.hidden_lines == 950
    assert sum(len(h.lines) for h in parsed.hunks) == 50


def test_garbage_gives_no_hunks() -> None:
    assert parse_unified_diff("Binary files a/x.png and b/x.png differ").hunks == []
