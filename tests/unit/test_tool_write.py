"""Write: new files, read-before-overwrite, diffs, line endings, atomic replacement."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_core.events import FileDiff
from agent_core.tools.base import FileStamp, ToolContext, ToolError, validate_input
from agent_core.tools.read import ReadParams, ReadTool
from agent_core.tools.write import WriteParams, WriteTool
from tests.helpers.recording_context import RecordingContext, recording_context


@pytest.fixture
def ctx(project: Path, tmp_path: Path) -> RecordingContext:
    return recording_context(project, tmp_path / "session", "w1")


def seen(ctx: ToolContext, path: Path) -> None:
    st = path.stat()
    ctx.file_stamps[str(path)] = FileStamp(st.st_mtime_ns, st.st_size)


async def write(ctx: ToolContext, path: str, content: str) -> str:
    args = validate_input(WriteParams, {"file_path": path, "content": content})
    return (await WriteTool().run(args, ctx)).content


async def test_new_file_with_parents_needs_no_read(ctx: RecordingContext) -> None:
    text = await write(ctx, "deep/dir/new.py", "a\nb\n")
    assert (ctx.cwd / "deep/dir/new.py").read_text() == "a\nb\n"
    assert text == "Created deep/dir/new.py (2 lines)"
    [event] = ctx.events
    assert isinstance(event, FileDiff)
    assert (event.added, event.removed) == (2, 0)
    assert event.diff.startswith("--- /dev/null\n+++ b/deep/dir/new.py\n")
    assert not list((ctx.cwd / "deep/dir").glob(".*.tmp"))  # no temp file left behind


async def test_overwrite_requires_read_then_reports_diff(ctx: RecordingContext) -> None:
    path = ctx.cwd / "a.txt"
    path.write_text("one\ntwo\nthree\n")
    with pytest.raises(ToolError, match="has not been read yet"):
        await write(ctx, "a.txt", "x\n")
    assert path.read_text() == "one\ntwo\nthree\n"
    seen(ctx, path)
    text = await write(ctx, "a.txt", "one\nTWO\nthree\nfour\n")
    assert text == "Wrote a.txt: +2 -1"
    assert path.read_text() == "one\nTWO\nthree\nfour\n"
    # our own write refreshed the stamp: a second write needs no new Read
    await write(ctx, "a.txt", "done\n")
    assert path.read_text() == "done\n"


async def test_stale_file_is_refused(ctx: RecordingContext) -> None:
    path = ctx.cwd / "a.txt"
    path.write_text("v1\n")
    seen(ctx, path)
    path.write_text("v2 from the user\n")
    with pytest.raises(ToolError, match="changed on disk since it was read"):
        await write(ctx, "a.txt", "v3\n")
    assert path.read_text() == "v2 from the user\n"


async def test_crlf_file_stays_crlf(ctx: RecordingContext) -> None:
    path = ctx.cwd / "win.txt"
    path.write_bytes(b"a\r\nb\r\n")
    seen(ctx, path)
    await write(ctx, "win.txt", "a\nc\n")
    assert path.read_bytes() == b"a\r\nc\r\n"
    assert ctx.events[0].diff.endswith("-b\n+c\n")


async def test_missing_final_newline_shows_in_diff(ctx: RecordingContext) -> None:
    path = ctx.cwd / "a.txt"
    path.write_text("x\n")
    seen(ctx, path)
    await write(ctx, "a.txt", "x")
    assert path.read_bytes() == b"x"
    assert "\\ No newline at end of file" in ctx.events[0].diff


async def test_directory_and_binary_targets_are_refused(ctx: RecordingContext) -> None:
    (ctx.cwd / "sub").mkdir()
    with pytest.raises(ToolError, match="is a directory"):
        await write(ctx, "sub", "x")
    blob = ctx.cwd / "img.bin"
    blob.write_bytes(b"\x00\x01\x02")
    seen(ctx, blob)
    with pytest.raises(ToolError, match="binary"):
        await write(ctx, "img.bin", "text")


async def test_preview_diff_without_writing(ctx: RecordingContext) -> None:
    args = validate_input(WriteParams, {"file_path": "n.txt", "content": "hi\n"})
    diff = await WriteTool().preview(args, ctx)
    assert diff is not None and "+hi" in diff
    assert not (ctx.cwd / "n.txt").exists()


async def test_executable_bit_and_symlinks_survive_a_write(ctx: RecordingContext) -> None:
    script = ctx.cwd / "run.sh"
    script.write_text("#!/bin/sh\necho hi\n")
    script.chmod(0o755)
    seen(ctx, script)
    await write(ctx, "run.sh", "#!/bin/sh\necho bye\n")
    assert script.stat().st_mode & 0o777 == 0o755
    real = ctx.cwd / "real.txt"
    real.write_text("old\n")
    link = ctx.cwd / "link.txt"
    link.symlink_to(real)
    seen(ctx, link)
    await write(ctx, "link.txt", "new\n")
    assert link.is_symlink()
    assert real.read_text() == "new\n"


async def test_a_write_never_follows_a_link_swapped_in_after_the_check(
    ctx: RecordingContext, tmp_path
) -> None:
    """The permission check resolved a.txt to itself; a command then made it a link to a
    file outside. The write goes nowhere near the outside file."""
    outside = tmp_path / "outside.txt"
    outside.write_text("theirs\n")
    target = ctx.cwd / "a.txt"
    target.write_text("mine\n")
    await ReadTool().run(ReadParams(file_path="a.txt"), ctx)
    ctx.checked = ((str(target), str(ctx.cwd)),)  # what the check saw
    target.unlink()
    target.symlink_to(outside)
    with pytest.raises(ToolError, match="changed while it was being opened"):
        await WriteTool().run(WriteParams(file_path="a.txt", content="pwned\n"), ctx)
    assert outside.read_text() == "theirs\n"


async def test_a_deleted_working_directory_fails_every_file_tool_and_is_not_made_again(
    ctx: RecordingContext,
) -> None:
    import shutil

    from agent_core.tools.edit import EditParams, EditTool
    from agent_core.tools.multiedit import MultiEditParams, MultiEditTool

    shutil.rmtree(ctx.cwd)
    gone = f"working directory {ctx.cwd} does not exist"
    with pytest.raises(ToolError, match=f"^{gone}$"):
        await write(ctx, "src/new.py", "x\n")
    edit = {"file_path": "a.py", "old_string": "", "new_string": "x\n"}
    with pytest.raises(ToolError, match=f"^{gone}$"):
        await EditTool().run(validate_input(EditParams, edit), ctx)
    many = {"file_path": "a.py", "edits": [{"old_string": "", "new_string": "x\n"}]}
    with pytest.raises(ToolError, match=f"^{gone}$"):
        await MultiEditTool().run(validate_input(MultiEditParams, many), ctx)
    assert not ctx.cwd.exists() and ctx.events == []
