"""Grep against the real rg binary: modes, context, case, limits, errors, cancellation."""

from __future__ import annotations

import asyncio
import os
import subprocess
from pathlib import Path

import pytest

from agent_core.tools import ripgrep
from agent_core.tools.base import ToolContext, ToolError, validate_input
from agent_core.tools.grep import NO_MATCHES, GrepTool


@pytest.fixture
def ctx(project: Path) -> ToolContext:
    return ToolContext(cwd=project, session_dir=project / ".session")


def write(root: Path, name: str, text: str, mtime: int | None = None) -> Path:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return path


async def grep(ctx: ToolContext, **raw) -> str:
    tool = GrepTool()
    return (await tool.run(validate_input(tool.params, raw), ctx)).content


async def test_files_with_matches_lists_newest_first(ctx: ToolContext, project: Path) -> None:
    write(project, "old.py", "needle\n", mtime=1_000_000)
    write(project, "src/new.py", "a needle here\n", mtime=3_000_000)
    write(project, "mid.py", "needle\n", mtime=2_000_000)
    write(project, "other.py", "hay\n")
    assert await grep(ctx, pattern="needle") == "Found 3 files\nsrc/new.py\nmid.py\nold.py"


async def test_content_mode_shows_path_line_number_and_text(
    ctx: ToolContext, project: Path
) -> None:
    write(project, "src/a.py", "one\nneedle two\nthree\n")
    assert await grep(ctx, pattern="needle", output_mode="content") == "src/a.py:2:needle two"


async def test_line_numbers_off(ctx: ToolContext, project: Path) -> None:
    write(project, "a.py", "needle\n")
    text = await grep(ctx, pattern="needle", output_mode="content", **{"-n": False})
    assert text == "a.py:needle"


async def test_case_insensitive(ctx: ToolContext, project: Path) -> None:
    write(project, "a.txt", "Needle\n")
    assert await grep(ctx, pattern="needle") == NO_MATCHES
    assert await grep(ctx, pattern="needle", **{"-i": True}) == "Found 1 file\na.txt"


async def test_context_lines_around_a_match(ctx: ToolContext, project: Path) -> None:
    write(project, "a.txt", "l1\nl2\nneedle\nl4\nl5\n")
    around = await grep(ctx, pattern="needle", output_mode="content", **{"-C": 1})
    assert around == "a.txt-2-l2\na.txt:3:needle\na.txt-4-l4"
    after = await grep(ctx, pattern="needle", output_mode="content", **{"-A": 2})
    assert after == "a.txt:3:needle\na.txt-4-l4\na.txt-5-l5"
    before = await grep(ctx, pattern="needle", output_mode="content", **{"-B": 2})
    assert before == "a.txt-1-l1\na.txt-2-l2\na.txt:3:needle"


async def test_count_mode_counts_per_file_and_in_total(ctx: ToolContext, project: Path) -> None:
    write(project, "a.txt", "x\nx\nx\n")
    write(project, "b.txt", "x\n")
    text = await grep(ctx, pattern="x", output_mode="count")
    lines = text.splitlines()
    assert sorted(lines[:2]) == ["a.txt:3", "b.txt:1"]
    assert lines[-1] == "Found 4 matching lines in 2 files"


async def test_head_limit_caps_content_lines(ctx: ToolContext, project: Path) -> None:
    write(project, "a.txt", "".join(f"hit {i}\n" for i in range(1, 50)))
    text = await grep(ctx, pattern="hit", output_mode="content", head_limit=3)
    body, note = text.split("\n\n")
    assert body == "a.txt:1:hit 1\na.txt:2:hit 2\na.txt:3:hit 3"
    assert "first 3 lines" in note


async def test_head_limit_equal_to_output_adds_no_note(ctx: ToolContext, project: Path) -> None:
    write(project, "a.txt", "hit\nhit\n")
    text = await grep(ctx, pattern="hit", output_mode="content", head_limit=2)
    assert text == "a.txt:1:hit\na.txt:2:hit"


async def test_head_limit_caps_file_list_after_sorting(ctx: ToolContext, project: Path) -> None:
    for i in range(5):
        write(project, f"f{i}.txt", "hit\n", mtime=1_000_000 + i)
    text = await grep(ctx, pattern="hit", head_limit=2)
    assert text == "Found 5 files (showing the first 2)\nf4.txt\nf3.txt"


async def test_glob_and_type_filter_files(ctx: ToolContext, project: Path) -> None:
    write(project, "a.py", "hit\n")
    write(project, "b.js", "hit\n")
    write(project, "c.md", "hit\n")
    assert await grep(ctx, pattern="hit", glob="*.py") == "Found 1 file\na.py"
    assert (await grep(ctx, pattern="hit", glob="*.{js,md}")).startswith("Found 2 files")
    assert await grep(ctx, pattern="hit", type="js") == "Found 1 file\nb.js"


async def test_path_narrows_the_search(ctx: ToolContext, project: Path) -> None:
    write(project, "src/a.py", "hit\n")
    write(project, "tests/b.py", "hit\n")
    assert await grep(ctx, pattern="hit", path="src") == "Found 1 file\nsrc/a.py"
    single = await grep(ctx, pattern="hit", path="tests/b.py", output_mode="content")
    assert single == "tests/b.py:1:hit"


async def test_absolute_path_inside_the_project_gives_relative_paths(
    ctx: ToolContext, project: Path
) -> None:
    write(project, "src/a.py", "hit\n")
    assert await grep(ctx, pattern="hit", path=str(project / "src")) == "Found 1 file\nsrc/a.py"


async def test_path_outside_the_project_gives_absolute_paths(
    ctx: ToolContext, tmp_path: Path
) -> None:
    outside = write(tmp_path / "elsewhere", "lib.py", "hit\n")
    text = await grep(ctx, pattern="hit", path=str(outside.parent))
    assert text == f"Found 1 file\n{outside}"


async def test_multiline_patterns_span_lines(ctx: ToolContext, project: Path) -> None:
    write(project, "s.rs", "struct A {\n    field: u8,\n}\n")
    assert await grep(ctx, pattern=r"A \{.*field") == NO_MATCHES
    assert await grep(ctx, pattern=r"A \{.*field", multiline=True) == "Found 1 file\ns.rs"


async def test_gitignored_and_git_internal_files_are_skipped_hidden_are_searched(
    ctx: ToolContext, project: Path
) -> None:
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    write(project, ".gitignore", "dist/\n")
    write(project, "dist/bundle.js", "hit\n")
    write(project, ".github/ci.yml", "hit\n")
    write(project, ".git/hit-note", "hit\n")
    assert await grep(ctx, pattern="hit") == "Found 1 file\n.github/ci.yml"


async def test_pattern_that_looks_like_a_flag(ctx: ToolContext, project: Path) -> None:
    write(project, "a.txt", "use --force here\n")
    assert await grep(ctx, pattern="--force") == "Found 1 file\na.txt"


async def test_no_matches_is_not_an_error(ctx: ToolContext, project: Path) -> None:
    write(project, "a.txt", "hay\n")
    tool = GrepTool()
    out = await tool.run(validate_input(tool.params, {"pattern": "needle"}), ctx)
    assert out.content == NO_MATCHES and not out.is_error


async def test_invalid_regex_is_a_one_line_error(ctx: ToolContext, project: Path) -> None:
    write(project, "a.txt", "x\n")
    with pytest.raises(ToolError, match="invalid regex: unclosed group"):
        await grep(ctx, pattern="(oops")


async def test_unknown_type_and_missing_path_are_errors(ctx: ToolContext, project: Path) -> None:
    write(project, "a.txt", "x\n")
    with pytest.raises(ToolError, match="unrecognized file type: nosuch"):
        await grep(ctx, pattern="x", type="nosuch")
    with pytest.raises(ToolError, match="path not found: gone"):
        await grep(ctx, pattern="x", path="gone")


async def test_deleted_working_directory_is_a_clear_error(tmp_path: Path) -> None:
    cwd = tmp_path / "vanished"
    cwd.mkdir()
    ctx = ToolContext(cwd=cwd, session_dir=tmp_path)
    cwd.rmdir()
    with pytest.raises(ToolError, match="working directory no longer exists"):
        await grep(ctx, pattern="x")


@pytest.fixture
def spawned(monkeypatch: pytest.MonkeyPatch) -> list[asyncio.subprocess.Process]:
    """Every rg process the tool starts, to check none outlives a cancelled call."""
    procs: list[asyncio.subprocess.Process] = []
    real = asyncio.create_subprocess_exec

    async def spy(*args, **kwargs):
        proc = await real(*args, **kwargs)
        procs.append(proc)
        return proc

    monkeypatch.setattr(ripgrep.asyncio, "create_subprocess_exec", spy)
    return procs


async def test_cancel_event_kills_a_hanging_search(
    ctx: ToolContext, project: Path, spawned: list
) -> None:
    os.mkfifo(project / "pipe")  # rg blocks forever reading a FIFO nobody writes
    call = asyncio.create_task(grep(ctx, pattern="x", path="pipe"))
    await asyncio.sleep(0.2)
    assert not call.done()
    ctx.cancel.set()
    with pytest.raises(ToolError, match="cancelled"):
        await asyncio.wait_for(call, 2)
    assert spawned and spawned[0].returncode is not None


async def test_task_cancellation_kills_rg(ctx: ToolContext, project: Path, spawned: list) -> None:
    os.mkfifo(project / "pipe")
    call = asyncio.create_task(grep(ctx, pattern="x", path="pipe"))
    await asyncio.sleep(0.2)
    call.cancel()
    with pytest.raises(asyncio.CancelledError):
        await call
    assert spawned and spawned[0].returncode is not None
