"""LS: tree layout, .git and .gitignore skipped, ignore globs, the entry cap."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_core.tools.base import ToolContext, ToolError, validate_input
from agent_core.tools.ls import LSTool, render_tree, walk_tree


@pytest.fixture
def ctx(project: Path) -> ToolContext:
    return ToolContext(cwd=project, session_dir=project / ".session")


def make(root: Path, *files: str) -> None:
    for name in files:
        path = root / name
        if name.endswith("/"):
            path.mkdir(parents=True, exist_ok=True)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("x")


async def ls(ctx: ToolContext, **raw) -> str:
    tool = LSTool()
    return (await tool.run(validate_input(tool.params, raw), ctx)).content


async def test_tree_lists_dirs_first_with_trailing_slash(ctx: ToolContext, project: Path) -> None:
    make(project, "README.md", "src/app.py", "src/util/io.py", "docs/", ".env")
    assert await ls(ctx) == "\n".join(
        [
            f"- {project}/",
            "  - docs/",
            "  - src/",
            "    - util/",
            "      - io.py",
            "    - app.py",
            "  - .env",
            "  - README.md",
        ]
    )


async def test_subdirectory_is_labelled_relative_to_the_project(
    ctx: ToolContext, project: Path
) -> None:
    make(project, "src/app.py")
    assert await ls(ctx, path="src") == "- src/\n  - app.py"


async def test_git_dir_and_gitignored_entries_are_skipped(ctx: ToolContext, project: Path) -> None:
    make(project, ".git/config", ".gitignore", "build/out.o", "debug.log", "main.c")
    (project / ".gitignore").write_text("build/\n*.log\n")
    text = await ls(ctx)
    assert "main.c" in text and ".gitignore" in text
    for hidden in (".git/", "build/", "out.o", "debug.log"):
        assert hidden not in text


async def test_nested_gitignore_can_reinclude(ctx: ToolContext, project: Path) -> None:
    make(project, ".git/", "a.log", "sub/keep.log", "sub/drop.log")
    (project / ".gitignore").write_text("*.log\n")
    (project / "sub" / ".gitignore").write_text("!keep.log\n")
    text = await ls(ctx)
    assert "keep.log" in text
    assert "a.log" not in text and "drop.log" not in text


async def test_gitignore_of_the_repository_applies_when_listing_a_subdirectory(
    ctx: ToolContext, project: Path
) -> None:
    make(project, ".git/", "pkg/mod.py", "pkg/mod.pyc")
    (project / ".gitignore").write_text("*.pyc\n")
    assert await ls(ctx, path="pkg") == "- pkg/\n  - mod.py"


async def test_ignored_directory_named_outright_is_listed(ctx: ToolContext, project: Path) -> None:
    make(project, ".git/", "node_modules/react/index.js", "node_modules/react/x.map")
    (project / ".gitignore").write_text("node_modules/\n")
    (project / "node_modules" / ".gitignore").write_text("*.map\n")
    assert "node_modules" not in await ls(ctx)
    text = await ls(ctx, path="node_modules")
    assert "index.js" in text and "x.map" not in text


async def test_gitignore_outside_a_repository_is_not_honoured(
    ctx: ToolContext, project: Path
) -> None:
    # Same rule as ripgrep, so LS, Glob and Grep agree on what exists.
    make(project, "a.log")
    (project / ".gitignore").write_text("*.log\n")
    assert "a.log" in await ls(ctx)


async def test_ignore_globs_leave_out_files_and_dirs(ctx: ToolContext, project: Path) -> None:
    make(project, "app.py", "app.log", "dist/bundle.js", "src/dist.txt")
    text = await ls(ctx, ignore=["*.log", "dist/"])
    assert "app.py" in text and "dist.txt" in text
    assert "app.log" not in text and "bundle.js" not in text and "dist/" not in text


def test_cap_keeps_top_level_entries_and_says_so(project: Path) -> None:
    make(project, *[f"d{i}/f{j}.txt" for i in range(3) for j in range(5)], "top.txt")
    listing = walk_tree(project, [], limit=6)
    text = render_tree(listing, "proj")
    assert listing.truncated and listing.count == 6
    assert text.startswith("There are more than 6 entries")
    for top in ("d0/", "d1/", "d2/", "top.txt"):
        assert top in text


async def test_symlinks_are_shown_not_followed(ctx: ToolContext, project: Path) -> None:
    make(project, "real/inner.txt")
    (project / "loop").symlink_to(project)
    text = await ls(ctx)
    assert "- loop -> " in text
    assert text.count("inner.txt") == 1


async def test_empty_directory_says_so(ctx: ToolContext, project: Path) -> None:
    make(project, "void/")
    assert await ls(ctx, path="void") == "- void/\n  (empty directory)"


async def test_missing_directory_and_file_are_errors(ctx: ToolContext, project: Path) -> None:
    make(project, "file.txt")
    with pytest.raises(ToolError, match="directory not found: nowhere"):
        await ls(ctx, path="nowhere")
    with pytest.raises(ToolError, match="use Read"):
        await ls(ctx, path="file.txt")
