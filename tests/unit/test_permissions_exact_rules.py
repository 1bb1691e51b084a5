"""An "always allow" for a destructive or unbounded command saves that exact command."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_core.permissions import decide, suggest_rules
from tests.unit.test_permissions_runtime_words import bash, policy


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    path.mkdir()
    return path


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("rm f.txt", "Bash(rm f.txt)"),
        ("rm -rf build", "Bash(rm -rf build)"),
        ("mv a.txt b.txt", "Bash(mv a.txt b.txt)"),
        ("chmod +x run.sh", "Bash(chmod +x run.sh)"),
        ("chown me a.txt", "Bash(chown me a.txt)"),
        ("dd if=a of=b", "Bash(dd if=a of=b)"),
        ("git push origin main", "Bash(git push origin main)"),
        ("git reset --hard", "Bash(git reset --hard)"),
        ("git clean -fd", "Bash(git clean -fd)"),
        ("git checkout -- a.py", "Bash(git checkout -- a.py)"),
        ("curl -o page.html https://x.io", "Bash(curl -o page.html https://x.io)"),
        ("wget https://x.io/f", "Bash(wget https://x.io/f)"),
        ("python script.py", "Bash(python script.py)"),
        ("python3 -c 'print(1)'", "Bash(python3 -c print(1))"),
        ("python -m pip install rich", "Bash(python -m pip install rich)"),
        ("node app.js", "Bash(node app.js)"),
        ("sh run.sh", "Bash(sh run.sh)"),
        ("perl -e 1", "Bash(perl -e 1)"),
        ("ruby x.rb", "Bash(ruby x.rb)"),
        ("npx prettier --write .", "Bash(npx prettier --write .)"),
        ("pip install requests", "Bash(pip install requests)"),
        ("uv pip install rich", "Bash(uv pip install rich)"),
        ("npm install left-pad", "Bash(npm install left-pad)"),
        ("docker run alpine", "Bash(docker run alpine)"),
        ("timeout 5 rm x.txt", "Bash(rm x.txt)"),
        # Bounded commands keep their prefix rule.
        ("git commit -m x", "Bash(git commit:*)"),
        ("python3 -m pytest -q", "Bash(python3 -m pytest:*)"),
        ("npm run build", "Bash(npm run build:*)"),
        ("cargo build --release", "Bash(cargo build:*)"),
        ("touch a.txt", "Bash(touch:*)"),
    ],
)
def test_the_offered_rule(project: Path, home: Path, command: str, rule: str) -> None:
    assert suggest_rules(bash(command), policy(project, home)) == [rule]


@pytest.mark.parametrize("command", ["rm build/*.o", "rm *"])
def test_no_rule_when_a_word_would_read_as_a_wildcard(
    project: Path, home: Path, command: str
) -> None:
    assert suggest_rules(bash(command), policy(project, home)) == []


@pytest.mark.parametrize(
    ("command", "other"),
    [
        ("rm a.txt", "rm b.txt"),
        ("rm a.txt", "rm a.txt b.txt"),
        ("git push origin main", "git push --force origin main"),
        ("python3 -c 'print(1)'", "python3 -c 'import os'"),
        ("curl https://x.io", "curl https://evil.example"),
        ("timeout 5 rm x.txt", "timeout 5 rm y.txt"),
    ],
)
def test_a_saved_exact_rule_allows_that_command_and_no_other(
    project: Path, home: Path, command: str, other: str
) -> None:
    rules = tuple(suggest_rules(bash(command), policy(project, home)))
    assert decide(bash(command), policy(project, home, allow=rules)).decision == "allow"
    assert decide(bash(other), policy(project, home, allow=rules)).decision == "ask"
