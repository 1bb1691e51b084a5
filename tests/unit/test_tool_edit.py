"""Edit and MultiEdit: uniqueness, replace_all, atomicity, read-before-write, diffs, line endings."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_core.events import FileDiff
from agent_core.tools.base import FileStamp, ToolContext, ToolError, validate_input
from agent_core.tools.edit import EditParams, EditTool
from agent_core.tools.multiedit import MultiEditParams, MultiEditTool
from tests.helpers.recording_context import RecordingContext, recording_context


@pytest.fixture
def ctx(project: Path, tmp_path: Path) -> RecordingContext:
    return recording_context(project, tmp_path / "session", "c1")


def seen(ctx: ToolContext, path: Path) -> None:
    """What the Read tool records."""
    st = path.stat()
    ctx.file_stamps[str(path)] = FileStamp(st.st_mtime_ns, st.st_size)


def make(ctx: ToolContext, name: str, content: str | bytes, read: bool = True) -> Path:
    path = ctx.cwd / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content.encode() if isinstance(content, str) else content)
    if read:
        seen(ctx, path)
    return path


async def edit(ctx: ToolContext, **raw) -> str:
    args = validate_input(EditParams, raw)
    out = await EditTool().run(args, ctx)
    assert not out.is_error
    return out.content


async def multi(ctx: ToolContext, path: str, edits: list[dict]) -> str:
    args = validate_input(MultiEditParams, {"file_path": path, "edits": edits})
    return (await MultiEditTool().run(args, ctx)).content


async def test_unique_edit_replaces_and_reports_counts(ctx: RecordingContext) -> None:
    path = make(ctx, "src/a.py", "def f():\n    return 1\n\nprint(f())\n")
    text = await edit(ctx, file_path="src/a.py", old_string="return 1", new_string="return 2")
    assert path.read_text() == "def f():\n    return 2\n\nprint(f())\n"
    assert text.startswith("Edited src/a.py: +1 -1")
    assert "     2\t    return 2" in text  # numbered snippet around the change
    [event] = ctx.events
    assert isinstance(event, FileDiff)
    assert (event.path, event.added, event.removed, event.call_id) == ("src/a.py", 1, 1, "c1")
    assert "-    return 1\n+    return 2\n" in event.diff
    assert event.diff.startswith("--- a/src/a.py\n+++ b/src/a.py\n")


async def test_ambiguous_edit_says_how_many_and_leaves_file(ctx: RecordingContext) -> None:
    path = make(ctx, "a.txt", "x = 1\nx = 1\nx = 1\n")
    with pytest.raises(ToolError, match="occurs 3 times"):
        await edit(ctx, file_path="a.txt", old_string="x = 1", new_string="x = 2")
    assert path.read_text() == "x = 1\nx = 1\nx = 1\n"
    assert ctx.events == []


async def test_replace_all_changes_every_occurrence(ctx: RecordingContext) -> None:
    path = make(ctx, "a.txt", "foo bar\nfoo baz\nqux\n")
    await edit(ctx, file_path="a.txt", old_string="foo", new_string="spam", replace_all=True)
    assert path.read_text() == "spam bar\nspam baz\nqux\n"
    [event] = ctx.events
    assert (event.added, event.removed) == (2, 2)


async def test_not_found_and_identical_strings_are_errors(ctx: RecordingContext) -> None:
    make(ctx, "a.txt", "hello\n")
    with pytest.raises(ToolError, match="not found in a.txt"):
        await edit(ctx, file_path="a.txt", old_string="bye", new_string="x")
    with pytest.raises(ToolError, match="identical"):
        await edit(ctx, file_path="a.txt", old_string="hello", new_string="hello")


async def test_not_found_hints_at_indentation(ctx: RecordingContext) -> None:
    make(ctx, "a.py", "class A:\n\tdef f(self):\n\t\treturn 1\n")
    with pytest.raises(ToolError, match=r"lines 2-3 match it except for whitespace"):
        await edit(
            ctx, file_path="a.py", old_string="    def f(self):\n        return 1", new_string="x"
        )


async def test_not_found_hints_at_read_line_numbers(ctx: RecordingContext) -> None:
    make(ctx, "a.py", "a = 1\nb = 2\n")
    with pytest.raises(ToolError, match="line-number prefixes"):
        await edit(ctx, file_path="a.py", old_string="     1\ta = 1", new_string="a = 3")


async def test_unread_file_is_refused(ctx: RecordingContext) -> None:
    path = make(ctx, "a.txt", "hello\n", read=False)
    with pytest.raises(ToolError, match="has not been read yet: Read it first"):
        await edit(ctx, file_path="a.txt", old_string="hello", new_string="bye")
    assert path.read_text() == "hello\n"


async def test_file_changed_since_read_is_refused(ctx: RecordingContext) -> None:
    path = make(ctx, "a.txt", "hello\n")
    path.write_text("hello world, changed by someone else\n")
    with pytest.raises(ToolError, match="changed on disk since it was read: Read it again"):
        await edit(ctx, file_path="a.txt", old_string="hello", new_string="bye")


async def test_consecutive_edits_need_no_new_read(ctx: RecordingContext) -> None:
    path = make(ctx, "a.txt", "one\ntwo\n")
    await edit(ctx, file_path="a.txt", old_string="one", new_string="1")
    await edit(ctx, file_path=str(path), old_string="two", new_string="2")
    assert path.read_text() == "1\n2\n"


async def test_crlf_line_endings_are_preserved(ctx: RecordingContext) -> None:
    path = make(ctx, "win.txt", b"alpha\r\nbeta\r\ngamma\r\n")
    await edit(ctx, file_path="win.txt", old_string="beta\ngamma", new_string="BETA\nnew\ngamma")
    assert path.read_bytes() == b"alpha\r\nBETA\r\nnew\r\ngamma\r\n"
    assert "\r" not in ctx.events[0].diff


async def test_bom_is_preserved_and_binary_refused(ctx: RecordingContext) -> None:
    path = make(ctx, "bom.txt", b"\xef\xbb\xbfname = x\n")
    await edit(ctx, file_path="bom.txt", old_string="x", new_string="y")
    assert path.read_bytes() == b"\xef\xbb\xbfname = y\n"
    make(ctx, "blob.bin", b"\x89PNG\x00\x00\x01")
    with pytest.raises(ToolError, match="binary"):
        await edit(ctx, file_path="blob.bin", old_string="PNG", new_string="GIF")


async def test_missing_file_needs_empty_old_string(ctx: RecordingContext) -> None:
    with pytest.raises(ToolError, match="does not exist"):
        await edit(ctx, file_path="new.py", old_string="a", new_string="b")
    text = await edit(ctx, file_path="pkg/new.py", old_string="", new_string="x = 1\n")
    assert (ctx.cwd / "pkg/new.py").read_text() == "x = 1\n"
    assert text.startswith("Created pkg/new.py: +1 -0")


async def test_preview_shows_diff_without_writing(ctx: RecordingContext) -> None:
    path = make(ctx, "a.txt", "one\ntwo\n", read=False)
    args = validate_input(
        EditParams, {"file_path": "a.txt", "old_string": "two", "new_string": "2"}
    )
    diff = await EditTool().preview(args, ctx)
    assert diff is not None and "-two\n+2\n" in diff
    assert path.read_text() == "one\ntwo\n"
    bad = validate_input(EditParams, {"file_path": "a.txt", "old_string": "zzz", "new_string": "2"})
    assert await EditTool().preview(bad, ctx) is None


async def test_multiedit_applies_in_order(ctx: RecordingContext) -> None:
    path = make(ctx, "m.py", "a = 1\nb = 2\nc = 3\n")
    text = await multi(
        ctx,
        "m.py",
        [
            {"old_string": "a = 1", "new_string": "a = 10"},
            {"old_string": "a = 10\nb = 2", "new_string": "a = 10\nb = 20"},
            {"old_string": "3", "new_string": "30"},
        ],
    )
    assert path.read_text() == "a = 10\nb = 20\nc = 30\n"
    assert text.startswith("Edited m.py: +3 -3")
    assert len(ctx.events) == 1


async def test_multiedit_is_all_or_nothing(ctx: RecordingContext) -> None:
    path = make(ctx, "m.py", "a = 1\nb = 2\n")
    with pytest.raises(
        ToolError, match=r"edit 2 of 3: old_string not found.*no edits were applied"
    ):
        await multi(
            ctx,
            "m.py",
            [
                {"old_string": "a = 1", "new_string": "a = 10"},
                {"old_string": "zzz", "new_string": "y"},
                {"old_string": "b = 2", "new_string": "b = 20"},
            ],
        )
    assert path.read_text() == "a = 1\nb = 2\n"
    assert ctx.events == []


async def test_multiedit_preview_and_validation(ctx: RecordingContext) -> None:
    make(ctx, "m.py", "a = 1\n")
    args = validate_input(
        MultiEditParams,
        {
            "file_path": "m.py",
            "edits": [{"old_string": "1", "new_string": "2", "replace_all": True}],
        },
    )
    assert "+a = 2" in (await MultiEditTool().preview(args, ctx) or "")
    with pytest.raises(ToolError, match="edits"):
        validate_input(MultiEditParams, {"file_path": "m.py", "edits": []})
    with pytest.raises(ToolError, match="unknown field"):
        validate_input(MultiEditParams, {"file_path": "m.py", "edits": [{"old": "x"}]})


async def test_read_tool_stamp_unlocks_edit_through_any_spelling(ctx: RecordingContext) -> None:
    from agent_core.tools.read import ReadParams, ReadTool

    (ctx.cwd / "sub").mkdir()
    path = make(ctx, "a.txt", "alpha\n", read=False)
    (ctx.cwd / "linkdir").symlink_to(ctx.cwd)
    await ReadTool().run(validate_input(ReadParams, {"file_path": "sub/../a.txt"}), ctx)
    await edit(ctx, file_path="linkdir/a.txt", old_string="alpha", new_string="beta")
    await edit(ctx, file_path=str(path), old_string="beta", new_string="gamma")
    assert path.read_text() == "gamma\n"
