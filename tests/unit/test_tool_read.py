"""Read: numbered lines, ranges, long lines, binary, images, errors, file stamps."""

from __future__ import annotations

import base64
import io
import os
from pathlib import Path

import pytest

from agent_core.messages import ImageBlock, TextBlock
from agent_core.tools.base import ToolContext, ToolError, validate_input
from agent_core.tools.read import LINE_CUT_MARKER, ReadTool


@pytest.fixture
def ctx(project: Path) -> ToolContext:
    return ToolContext(cwd=project, session_dir=project / ".session")


async def read(ctx: ToolContext, **raw) -> str | list:
    tool = ReadTool()
    return (await tool.run(validate_input(tool.params, raw), ctx)).content


async def test_lines_are_numbered_like_cat_n(ctx: ToolContext, project: Path) -> None:
    (project / "a.py").write_text("first\n\tsecond\nthird")
    assert await read(ctx, file_path="a.py") == "     1\tfirst\n     2\t\tsecond\n     3\tthird"


async def test_absolute_path_and_crlf(ctx: ToolContext, project: Path) -> None:
    (project / "w.txt").write_bytes(b"one\r\ntwo\r\n")
    assert await read(ctx, file_path=str(project / "w.txt")) == "     1\tone\n     2\ttwo"


async def test_offset_and_limit_pick_a_range_and_say_what_remains(
    ctx: ToolContext, project: Path
) -> None:
    (project / "n.txt").write_text("".join(f"line {i}\n" for i in range(1, 11)))
    text = await read(ctx, file_path="n.txt", offset=3, limit=2)
    body, note = text.split("\n\n")
    assert body == "     3\tline 3\n     4\tline 4"
    assert "lines 3-4 of 10" in note and "6 more lines" in note and "offset=5" in note


async def test_default_limit_is_2000_lines(ctx: ToolContext, project: Path) -> None:
    (project / "big.txt").write_text("x\n" * 2500)
    text = await read(ctx, file_path="big.txt")
    numbered = [ln for ln in text.splitlines() if ln.startswith(" ") and "\t" in ln]
    assert len(numbered) == 2000
    assert numbered[-1] == "  2000\tx"
    assert "500 more lines" in text and "offset=2001" in text


async def test_whole_file_read_has_no_truncation_note(ctx: ToolContext, project: Path) -> None:
    (project / "s.txt").write_text("a\nb\n")
    assert "more lines" not in await read(ctx, file_path="s.txt")


async def test_long_line_is_cut_with_a_marker(ctx: ToolContext, project: Path) -> None:
    (project / "long.txt").write_text("y" * 5000 + "\nshort\n")
    lines = (await read(ctx, file_path="long.txt")).splitlines()
    assert lines[0] == "     1\t" + "y" * 2000 + LINE_CUT_MARKER
    assert lines[1] == "     2\tshort"


async def test_ten_megabyte_single_line_is_cut_not_loaded(ctx: ToolContext, project: Path) -> None:
    (project / "huge.min.js").write_bytes(b"z" * (10 * 1024 * 1024) + b"\nend\n")
    text = await read(ctx, file_path="huge.min.js")
    assert len(text) < 2100
    assert text.endswith("     2\tend")


async def test_invalid_utf8_is_shown_with_replacement_characters(
    ctx: ToolContext, project: Path
) -> None:
    (project / "latin1.txt").write_bytes("café\n".encode("latin-1"))
    assert await read(ctx, file_path="latin1.txt") == "     1\tcaf\ufffd"


async def test_binary_file_is_refused_with_its_size(ctx: ToolContext, project: Path) -> None:
    (project / "blob.bin").write_bytes(b"\x00\x01\x02" * 100)
    with pytest.raises(ToolError, match=r"binary file \(300 bytes\): not shown"):
        await read(ctx, file_path="blob.bin")


async def test_missing_file_error_names_it(ctx: ToolContext) -> None:
    with pytest.raises(ToolError, match="file not found: nope/missing.py"):
        await read(ctx, file_path="nope/missing.py")


async def test_directory_points_to_ls(ctx: ToolContext, project: Path) -> None:
    (project / "src").mkdir()
    with pytest.raises(ToolError, match="is a directory: use LS"):
        await read(ctx, file_path="src")


async def test_fifo_is_refused_instead_of_hanging(ctx: ToolContext, project: Path) -> None:
    os.mkfifo(project / "pipe")
    with pytest.raises(ToolError, match="not a regular file"):
        await read(ctx, file_path="pipe")


async def test_empty_file_gives_a_note(ctx: ToolContext, project: Path) -> None:
    (project / "empty.txt").write_text("")
    assert "empty" in await read(ctx, file_path="empty.txt")


async def test_offset_past_the_end_says_how_long_the_file_is(
    ctx: ToolContext, project: Path
) -> None:
    (project / "three.txt").write_text("a\nb\nc\n")
    text = await read(ctx, file_path="three.txt", offset=10)
    assert "past the end" in text and "3 lines" in text


async def test_read_records_the_file_stamp(ctx: ToolContext, project: Path) -> None:
    target = project / "stamped.py"
    target.write_text("print(1)\n")
    await read(ctx, file_path="stamped.py", offset=1, limit=1)
    info = target.stat()
    stamp = ctx.file_stamps[str(target.resolve())]
    assert (stamp.mtime_ns, stamp.size) == (info.st_mtime_ns, info.st_size)


async def test_failed_read_records_no_stamp(ctx: ToolContext, project: Path) -> None:
    (project / "blob.bin").write_bytes(b"\x00" * 10)
    with pytest.raises(ToolError):
        await read(ctx, file_path="blob.bin")
    assert ctx.file_stamps == {}


async def test_png_is_returned_as_an_image_block(ctx: ToolContext, project: Path) -> None:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (4, 3), "red").save(buf, format="PNG")
    (project / "shot.png").write_bytes(buf.getvalue())
    content = await read(ctx, file_path="shot.png")
    assert isinstance(content, list)
    caption, image = content
    assert isinstance(caption, TextBlock) and "image/png" in caption.text
    assert isinstance(image, ImageBlock) and image.media_type == "image/png"
    assert base64.b64decode(image.data) == buf.getvalue()
    assert str((project / "shot.png").resolve()) in ctx.file_stamps


async def test_image_type_comes_from_content_not_extension(ctx: ToolContext, project: Path) -> None:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (2, 2), "blue").save(buf, format="JPEG")
    (project / "really_jpeg.png").write_bytes(buf.getvalue())
    content = await read(ctx, file_path="really_jpeg.png")
    assert content[1].media_type == "image/jpeg"


async def test_corrupt_image_is_a_one_line_error(ctx: ToolContext, project: Path) -> None:
    (project / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"garbage" * 10)
    with pytest.raises(ToolError, match="cannot decode image") as info:
        await read(ctx, file_path="broken.png")
    assert "\n" not in str(info.value)


def test_summary_shows_path_and_range() -> None:
    tool = ReadTool()
    assert tool.summary(validate_input(tool.params, {"file_path": "a.py"})) == "a.py"
    ranged = validate_input(tool.params, {"file_path": "a.py", "offset": 10, "limit": 5})
    assert tool.summary(ranged) == "a.py:10-14"


def test_bad_input_names_the_field() -> None:
    with pytest.raises(ToolError, match="offset"):
        validate_input(ReadTool.params, {"file_path": "a.py", "offset": -3})
    with pytest.raises(ToolError, match="bogus"):
        validate_input(ReadTool.params, {"file_path": "a.py", "bogus": 1})
