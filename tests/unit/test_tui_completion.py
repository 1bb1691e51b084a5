"""Completion logic: which token completes, command and path ranking, the file index."""

from __future__ import annotations

from pathlib import Path

import pytest

from mewcode_tui.completion import (
    CompletionQuery,
    find_query,
    list_project_files,
    rank_commands,
    rank_paths,
)

COMMANDS = [("help", "List commands"), ("permissions", "Rules"), ("plan", "Plan mode")]


def test_slash_completes_only_the_first_word_of_the_first_line():
    assert find_query("/pe", 3, first_line=True) == CompletionQuery("/", "pe", 0)
    assert find_query("/permissions rem", 16, first_line=True) is None
    assert find_query("/pe", 3, first_line=False) is None


def test_at_completes_the_token_before_the_cursor():
    assert find_query("look at @src/wi", 15, first_line=True) == CompletionQuery("@", "src/wi", 8)
    assert find_query("mail a@b", 8, first_line=True) is None  # not a fresh token
    assert find_query("@", 1, first_line=True) == CompletionQuery("@", "", 0)


def test_commands_rank_prefix_before_substring():
    assert [c.value for c in rank_commands("p", COMMANDS)] == ["/permissions", "/plan", "/help"]
    assert [c.value for c in rank_commands("l", COMMANDS)] == ["/help", "/plan"]
    assert [c.value for c in rank_commands("", COMMANDS)] == ["/help", "/permissions", "/plan"]


def test_paths_rank_file_name_hits_first_then_fuzzy():
    files = ["docs/widget_guide.md", "src/widget.py", "src/app/wid_get.py", "README.md"]
    ranked = [c.label for c in rank_paths("widget", files)]
    assert ranked[:2] == ["src/widget.py", "docs/widget_guide.md"]
    assert "src/app/wid_get.py" in ranked and "README.md" not in ranked


@pytest.mark.slow
def test_project_files_respect_gitignore(tmp_path: Path):
    (tmp_path / ".gitignore").write_text("build/\n*.log\n")
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "out.txt").write_text("x")
    (tmp_path / "run.log").write_text("x")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main.py").write_text("x")
    files = set(list_project_files(tmp_path))
    assert "src/main.py" in files and ".gitignore" in files
    assert "build/out.txt" not in files and "run.log" not in files


def test_walk_fallback_without_ripgrep_also_respects_gitignore(tmp_path: Path, monkeypatch):
    import mewcode_tui.completion as completion

    monkeypatch.setattr(completion, "ripgrep_binary", lambda: None)
    (tmp_path / ".gitignore").write_text("build/\n*.log\n")
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "out.txt").write_text("x")
    (tmp_path / "run.log").write_text("x")
    (tmp_path / "main.py").write_text("x")
    assert set(completion.list_project_files(tmp_path)) == {".gitignore", "main.py"}
