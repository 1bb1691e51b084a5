"""The adversarial corpus (tests/data/shell_adversarial.txt) as a table: in default mode
none of its commands is allowed, and each gets the decision written beside it."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_core.permissions import PermissionPolicy, PermissionRequest, decide

CORPUS = Path(__file__).parents[1] / "data" / "shell_adversarial.txt"


def cases() -> list[tuple[str, str]]:
    found = []
    for number, line in enumerate(CORPUS.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        expected, sep, command = line.partition("\t")
        assert sep and expected in ("ask", "deny"), f"{CORPUS.name} line {number}: {line!r}"
        found.append((expected, command))
    return found


def test_the_corpus_is_large() -> None:
    assert len(cases()) >= 150


@pytest.fixture
def policy(project: Path, tmp_path: Path) -> PermissionPolicy:
    (project / "README.md").write_text("hi TODO\n")
    (project / "src").mkdir()
    (project / ".git").mkdir()
    home = tmp_path / "home"
    home.mkdir()
    return PermissionPolicy(project, [], [], "default", home)


@pytest.mark.parametrize(("expected", "command"), cases())
def test_no_adversarial_command_is_allowed(
    policy: PermissionPolicy, expected: str, command: str
) -> None:
    verdict = decide(PermissionRequest("Bash", {"command": command}, False, "bash"), policy)
    assert verdict.decision != "allow", verdict
    assert verdict.decision == expected, verdict
