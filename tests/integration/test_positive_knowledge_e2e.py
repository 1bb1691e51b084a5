"""Read-only programs given an option the analyzer does not know, end to end through `mewcode -p`.

Each class is a red-team finding against the old model ("every option it does not
know is harmless"): the command ran with no prompt in default mode, or a file
outside the project reached the model. Headless, a question is a denial, so each
call must be denied, no witness file may appear and no outside secret may reach
the model. The OS sandbox is off (MEWCODE_SANDBOX=none): what the analyzer alone
let run is what the witness shows.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.headless import run_bash_calls

SECRET = "outside-secret-7781"


@pytest.fixture(autouse=True)
def analyzer_only(monkeypatch: pytest.MonkeyPatch, mewcode_home: Path) -> None:
    monkeypatch.setenv("MEWCODE_SANDBOX", "none")
    # rg comes with MewCode (the ripgrep wheel), beside the venv's python
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}:{os.environ['PATH']}")
    (mewcode_home / "settings.yaml").write_text("sandbox:\n  allowUnsandboxed: true\n")


@pytest.fixture
def repo(project: Path) -> Path:
    """A git repository with one committed file, and a secret outside it (in HOME)."""
    (project / "README.md").write_text("hello TODO\n")
    (project / "dates.txt").write_text("2020-01-01\n")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    subprocess.run(["git", "add", "."], cwd=project, check=True)
    subprocess.run([*git, "commit", "-qm", "a"], cwd=project, check=True)
    (Path(os.environ["HOME"]) / "secret.txt").write_text(f"{SECRET}\n")
    helper = project / "h.sh"  # what rg --hostname-bin runs
    helper.write_text(f"#!/bin/sh\ntouch {project}/W-rg\n")
    helper.chmod(0o755)
    return project


def _run(fake_llm, project, monkeypatch, capsys, commands, mode="default"):
    seen = lambda body: {"text": json.dumps(body)}  # noqa: E731 - what the model saw
    return run_bash_calls(fake_llm, project, monkeypatch, capsys, commands, mode, final=seen)


OUTSIDE = "${HOME}/secret.txt"

# class -> commands that ran (or read outside the project) without a prompt before.
ATTACKS = {
    "git grep -O runs a pager program": [
        "git grep -O'touch W-gitgrep' TODO",
        "git grep --open-files-in-pager='touch W-gitgrep2' TODO",
    ],
    "env -S clustered after other flags runs a command": [
        "env -iS'touch W-env-i'",
        "env -vS'touch W-env-v'",
        "env -0S'touch W-env-0'",
    ],
    "rg --hostname-bin runs a program": [
        "rg --hostname-bin=./h.sh --hyperlink-format=default TODO",
        "rg --hostname-bin ./h.sh --hyperlink-format=vscode TODO",
    ],
    "test -v and printf -v evaluate a subscript": [
        "test -v 'a[$(touch W-test)]'",
        "[ -v 'a[$(touch W-bracket)]' ]",
        "printf -v 'a[$(touch W-printf)]' x",
    ],
    "options that read a file outside the project": [
        f"date -f {OUTSIDE}",
        f"column -t {OUTSIDE}",
        f"git blame --contents {OUTSIDE} README.md",
        f"git diff {OUTSIDE} README.md",  # an implicit --no-index
    ],
    "awk rewrites its own ARGV": [
        f"awk 'BEGIN{{ARGV[1]=\"{OUTSIDE}\"}} {{print}}' README.md",
        'awk \'BEGIN{ARGV[ARGC++]=ENVIRON["HOME"] "/secret.txt"} {print}\' README.md',
    ],
}


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_unknown_options_of_read_only_programs_run_nothing_unasked(
    fake_llm, repo, monkeypatch, capsys, attack: str
) -> None:
    commands = [c.replace("${HOME}", os.environ["HOME"]) for c in ATTACKS[attack]]
    result = _run(fake_llm, repo, monkeypatch, capsys, commands)
    denied = [d["tool_input"]["command"] for d in result["permission_denials"]]
    assert denied == commands, result["permission_denials"]
    assert sorted(p.name for p in repo.glob("W-*")) == []
    assert SECRET not in result["result"]


def test_bypass_blacklist_sees_through_env_split_string_and_unknown_wrappers(
    fake_llm, repo, monkeypatch, capsys
) -> None:
    home = Path(os.environ["HOME"])
    assert home.name != "root" and str(home) != os.path.expanduser("~root"), home
    keep = home / "keep.txt"
    keep.write_text("still here")
    commands = [
        "env -vS'rm -rf ${HOME}'",
        "env -iS'rm -rf ~'",
        "env -S'rm -rf ~'",
        "env --split-string='rm -rf ~'",
        "env -u X -S 'rm -rf ~'",
        "env -C / -S 'rm -rf ~'",
        "echo ~ | parallel rm -rf",  # a template filled from input read at run time
        "nice --fast now rm -rf ~",  # a wrapper option it does not know may take a value
        "sudo --weird X rm -rf ~",
    ]
    result = _run(fake_llm, repo, monkeypatch, capsys, commands, "bypassPermissions")
    denied = [d["tool_input"]["command"] for d in result["permission_denials"]]
    assert denied == commands
    assert keep.read_text() == "still here"
