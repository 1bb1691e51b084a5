"""Which existing files a Read deny rule hides from commands (sandbox/denied_reads.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agent_core.config.settings import RuleEntry
from agent_core.sandbox.denied_reads import denied_read_paths


@pytest.fixture
def tree(tmp_path: Path) -> tuple[Path, Path]:
    project, home = tmp_path / "project", tmp_path / "home"
    for file in (project / "a" / "b" / "key.txt", project / "key.txt", home / "private" / "d.txt"):
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text("x")
    (home / "other.txt").write_text("x")
    return project, home


def hidden(rule: str, project: Path, home: Path) -> set[str]:
    found = denied_read_paths([RuleEntry(rule, "deny", "test")], project, home)
    return {os.path.relpath(p, project.parent) for p in found}


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        # No inner slash: a gitignore pattern at any depth, not <root>/key.txt alone.
        ("Read(key.txt)", {"project/key.txt", "project/a/b/key.txt"}),
        ("Read(./key.txt)", {"project/key.txt"}),
        ("Read(a/b/key.txt)", {"project/a/b/key.txt"}),
        ("Read(b/)", {"project/a/b", "project/a/b/key.txt"}),
        # Patterns outside the project: the folder they name is walked.
        ("Read(~/private/**)", {"home/private/d.txt"}),
        ("Read(//{home}/private/*.txt)", {"home/private/d.txt"}),
    ],
)
def test_a_deny_rule_hides_every_existing_file_it_matches(tree, rule, expected) -> None:
    project, home = tree
    assert hidden(rule.format(home=str(home)[1:]), project, home) == expected
