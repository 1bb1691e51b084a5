"""Unified diff parsing and side reconstruction behind the diff panel."""

from __future__ import annotations

from mewcode_tui.widgets.diff_panel import parse_unified_diff, split_hunks, unified_diff_of

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


def test_split_hunks_place_every_line_at_its_real_line_number() -> None:
    first, second = split_hunks(parse_unified_diff(TWO_HUNKS).hunks)
    assert (first.old_at, first.new_at) == (2, 2)  # 0-based offsets of lines 3 and 3
    assert first.before == ["    a = 1", "    b = 2", "    return a", ""]
    assert first.after == ["    a = 1", "    b = 3", "    c = 4", "    return a", ""]
    assert first.opcodes == [
        ("equal", 2, 3, 2, 3),
        ("replace", 3, 4, 3, 5),
        ("equal", 4, 6, 5, 7),
    ]
    assert (second.old_at, second.new_at) == (19, 20)
    assert second.opcodes[1] == ("delete", 20, 21, 21, 21)  # old line 21 removed


def test_new_file_diff_is_all_insertions() -> None:
    (side,) = split_hunks(parse_unified_diff("@@ -0,0 +1,2 @@\n+hello\n+world\n").hunks)
    assert side.before == [] and side.after == ["hello", "world"]
    assert side.opcodes == [("insert", 0, 0, 0, 2)]


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
