"""Glob against the real rg binary: ordering, glob semantics, .gitignore, the cap."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from agent_core.tools.base import ToolContext, ToolError, validate_input
from agent_core.tools.glob import MAX_RESULTS, GlobTool


@pytest.fixture
def ctx(project: Path) -> ToolContext:
    return ToolContext(cwd=project, session_dir=project / ".session")


def touch(root: Path, name: str, mtime: int | None = None) -> Path:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("")
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return path


async def glob(ctx: ToolContext, **raw) -> str:
    tool = GlobTool()
    return (await tool.run(validate_input(tool.params, raw), ctx)).content


async def test_matches_are_newest_first(ctx: ToolContext, project: Path) -> None:
    touch(project, "a/old.py", mtime=1_000_000)
    touch(project, "new.py", mtime=3_000_000)
    touch(project, "b/c/mid.py", mtime=2_000_000)
    touch(project, "notes.txt", mtime=4_000_000)
    assert await glob(ctx, pattern="**/*.py") == "new.py\nb/c/mid.py\na/old.py"


async def test_star_does_not_cross_directories(ctx: ToolContext, project: Path) -> None:
    touch(project, "top.py")
    touch(project, "pkg/deep.py")
    assert await glob(ctx, pattern="*.py") == "top.py"


async def test_literal_prefix_and_braces(ctx: ToolContext, project: Path) -> None:
    touch(project, "src/ui/view.tsx", mtime=2_000_000)
    touch(project, "src/api.ts", mtime=1_000_000)
    touch(project, "lib/other.ts")
    assert await glob(ctx, pattern="src/**/*.{ts,tsx}") == "src/ui/view.tsx\nsrc/api.ts"


async def test_path_parameter_and_absolute_pattern(
    ctx: ToolContext, project: Path, tmp_path: Path
) -> None:
    touch(project, "pkg/mod.py")
    touch(project, "mod.py")
    assert await glob(ctx, pattern="*.py", path="pkg") == "pkg/mod.py"
    outside = touch(tmp_path / "vendor", "x.py")
    assert await glob(ctx, pattern=f"{tmp_path}/vendor/*.py") == str(outside)


async def test_gitignore_is_honoured_git_skipped_hidden_kept(
    ctx: ToolContext, project: Path
) -> None:
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    (project / ".gitignore").write_text("node_modules/\n*.pyc\n")
    touch(project, "node_modules/dep/index.js")
    touch(project, "app.pyc")
    touch(project, "app.py")
    touch(project, ".config/settings.json")
    found = set((await glob(ctx, pattern="**/*")).splitlines())
    assert found == {"app.py", ".gitignore", ".config/settings.json"}
    # Naming ignored files in the pattern does not bring them back.
    assert await glob(ctx, pattern="*.pyc") == "No files found"
    # An ignored directory named outright is searched, as rg does with an explicit path.
    assert await glob(ctx, pattern="node_modules/**") == "node_modules/dep/index.js"


async def test_results_are_capped_with_a_note(ctx: ToolContext, project: Path) -> None:
    for i in range(MAX_RESULTS + 5):
        touch(project, f"f/{i:04}.txt")
    text = await glob(ctx, pattern="f/*.txt")
    listing, note = text.split("\n\n")
    assert len(listing.splitlines()) == MAX_RESULTS
    assert f"{MAX_RESULTS} newest of {MAX_RESULTS + 5}" in note


async def test_no_match_and_missing_directory(ctx: ToolContext, project: Path) -> None:
    touch(project, "a.txt")
    assert await glob(ctx, pattern="**/*.rs") == "No files found"
    with pytest.raises(ToolError, match="directory not found: nowhere"):
        await glob(ctx, pattern="nowhere/**/*.py")


async def test_deleted_working_directory_is_a_clear_error(tmp_path: Path) -> None:
    cwd = tmp_path / "vanished"
    cwd.mkdir()
    ctx = ToolContext(cwd=cwd, session_dir=tmp_path)
    cwd.rmdir()
    with pytest.raises(ToolError, match="working directory no longer exists"):
        await glob(ctx, pattern="**/*.py")
