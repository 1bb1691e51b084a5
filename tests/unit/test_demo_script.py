"""The offline demo's script: it edits only its scratch copy and names only what exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from agent_core.config.paths import MewcodePaths
from agent_core.llm.demo_provider import DemoProvider
from agent_core.llm.demo_workspace import open_demo_workspace, remove_demo_workspace
from tests.helpers.command_registry import disk_registry

ALL_TOOLS = {"LS", "Grep", "Read", "Write"}
# Features a demo sentence might promise, and the command that would have to exist for it.
FEATURE_WORDS = {
    "roll the turn back": "rewind",
    "roll back": "rewind",
    "rewind": "rewind",
    "undo": "undo",
    "checkpoint": "rewind",
    "restore": "restore",
}


@pytest.fixture
def scratch(project: Path, mewcode_home: Path, tmp_path: Path, monkeypatch):
    (project / "README.md").write_text("# A project\nTODO: try mewcode\n")
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    copy = open_demo_workspace(MewcodePaths(home=mewcode_home, project=project))
    yield copy
    remove_demo_workspace(copy)


def tour(cwd: Path) -> list[tuple[str, str, list[tuple[str, dict]]]]:
    """Every answer of the tour, round by round, with all tools offered."""
    provider = DemoProvider(cwd)
    return [provider._script(rounds, "show me", ALL_TOOLS) for rounds in range(4)]


def said(cwd: Path) -> str:
    texts = [text for text, _, calls in tour(cwd)]
    texts += [str(args.get("content", "")) for _, _, calls in tour(cwd) for _, args in calls]
    return "\n".join(texts)


def test_the_demo_proposes_an_edit_only_in_its_scratch_copy(project: Path, scratch) -> None:
    in_project = [name for _, _, calls in tour(project) for name, _ in calls]
    in_scratch = [name for _, _, calls in tour(scratch.project) for name, _ in calls]
    assert "Write" not in in_project and "read-only" in said(project)
    assert "Write" in in_scratch
    assert f"scratch copy of your project's top-level files in `{scratch.project}`" in said(
        scratch.project
    )


def test_every_command_the_demo_names_is_a_registered_slash_command(
    project: Path, scratch, paths
) -> None:
    registry = disk_registry(paths)
    for cwd in (project, scratch.project):
        named = set(re.findall(r"`/([a-z][a-z-]*)`", said(cwd)))
        assert named, "the tour points at no command"
        assert {name for name in named if name not in registry} == set()


def test_the_demo_promises_no_feature_that_does_not_exist(project: Path, scratch, paths) -> None:
    registry = disk_registry(paths)
    for cwd in (project, scratch.project):
        text = said(cwd).lower()
        promised = {word: cmd for word, cmd in FEATURE_WORDS.items() if word in text}
        assert {word for word, cmd in promised.items() if cmd not in registry} == set()
