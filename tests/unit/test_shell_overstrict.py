"""Positive knowledge without over-strictness: the everyday read-only commands in
tests/data/shell_everyday.txt run without a prompt in default mode (97% at least)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from agent_core.permissions import PermissionPolicy, PermissionRequest, decide

EVERYDAY = Path(__file__).parents[1] / "data" / "shell_everyday.txt"
FILES = {
    "README.md": "# demo\nhello TODO\n",
    "Makefile": "all:\n\techo hi\n",
    "package.json": '{"name": "demo", "version": "1.0.0", "scripts": {"test": "x"}}\n',
    "pyproject.toml": '[project]\nname = "demo"\nversion = "0.1"\n',
    "data.json": '[{"a": 1}]\n',
    "data.csv": "a,b\n1,2\n",
    "data.tsv": "a\tb\n1\t2\n",
    "config.yaml": "name: demo\n",
    "numbers.txt": "3\n1\n2\n",
    "a.txt": "a\n",
    "b.txt": "b\n",
    "encoded.txt": "aGkK\n",
    "src/main.py": "def main():\n    pass  # TODO\n",
    "src/util.py": "import os\n",
    "tests/test_main.py": "def test_main():\n    pass\n",
    "docs/guide.md": "guide\n",
}


def commands() -> list[str]:
    lines = EVERYDAY.read_text().splitlines()
    return [line for line in lines if line.strip() and not line.startswith("#")]


@pytest.fixture
def repo(project: Path) -> Path:
    for name, text in FILES.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    return project


def test_the_everyday_table_is_large() -> None:
    assert len(commands()) >= 300


@pytest.mark.slow
def test_everyday_read_only_commands_run_without_a_prompt(repo: Path, tmp_path: Path) -> None:
    policy = PermissionPolicy(repo, [], [], "default", tmp_path / "home")
    misses = []
    for command in commands():
        verdict = decide(PermissionRequest("Bash", {"command": command}, False, "bash"), policy)
        if verdict.decision != "allow":
            misses.append(f"{command}  ->  {verdict.decision}: {verdict.reason}")
    allowed = 1 - len(misses) / len(commands())
    assert allowed >= 0.97, f"{allowed:.1%} allowed; asked about:\n" + "\n".join(misses)
