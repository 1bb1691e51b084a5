"""The project's prompt history on disk: capped, redacted, private, per project."""

from __future__ import annotations

import json
import stat

from agent_core.config.paths import MewcodePaths
from mewcode_tui.prompt_history import PromptHistoryFile
from mewcode_tui.screens.history_search import matching


def lines(path) -> list[str]:
    return [json.loads(line)["text"] for line in path.read_text().splitlines()]


def test_the_file_keeps_the_newest_entries_up_to_the_cap(tmp_path):
    path = tmp_path / "h.jsonl"
    history = PromptHistoryFile(path, cap=10)
    for n in range(25):
        history.add(f"prompt {n}")
    assert history.entries() == [f"prompt {n}" for n in range(15, 25)]
    on_disk = lines(path)
    assert len(on_disk) <= 11 and on_disk[-1] == "prompt 24"
    assert PromptHistoryFile(path, cap=10).entries() == [f"prompt {n}" for n in range(15, 25)]


def test_secrets_are_redacted_on_disk_and_after_a_restart(tmp_path):
    key = "sk-ant-api03-" + "a1B2" * 22
    path = tmp_path / "h.jsonl"
    history = PromptHistoryFile(path)
    history.add(f"use the key {key} for the test")
    assert key not in path.read_text()
    assert PromptHistoryFile(path).entries() == ["use the key [REDACTED] for the test"]


def test_a_repeat_is_kept_once_and_a_broken_line_is_skipped(tmp_path):
    path = tmp_path / "h.jsonl"
    path.write_text('{"text": "one"}\nnot json\n{"other": 1}\n{"text": "two\\nlines"}\n')
    history = PromptHistoryFile(path)
    assert history.entries() == ["one", "two\nlines"]
    history.add("two\nlines")
    history.add("three")
    assert PromptHistoryFile(path).entries() == ["one", "two\nlines", "three"]


def test_each_project_has_its_own_private_file_under_mewcode_home(tmp_path):
    home = tmp_path / "home"
    home.mkdir(mode=0o755)
    a = PromptHistoryFile.for_project(MewcodePaths(home=home, project=tmp_path / "a"))
    b = PromptHistoryFile.for_project(MewcodePaths(home=home, project=tmp_path / "b"))
    a.add("in a")
    b.add("in b")
    assert a.path != b.path and a.path.parent == home / "history"
    assert lines(a.path) == ["in a"] and lines(b.path) == ["in b"]
    assert stat.S_IMODE(a.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(a.path.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(home.stat().st_mode) == 0o700


def test_a_symlinked_history_file_is_not_written_through(tmp_path):
    target = tmp_path / "elsewhere.txt"
    target.write_text("mine\n")
    path = tmp_path / "h.jsonl"
    path.symlink_to(target)
    PromptHistoryFile(path).add("secret plans")  # refused (O_NOFOLLOW), logged
    assert target.read_text() == "mine\n"


def test_search_matches_every_word_newest_first_each_once():
    entries = ["run the tests", "fix parser", "run the tests", "Test the PARSER"]
    assert matching(entries, "") == ["Test the PARSER", "run the tests", "fix parser"]
    assert matching(entries, "parser test") == ["Test the PARSER"]
    assert matching(entries, "nothing") == []
