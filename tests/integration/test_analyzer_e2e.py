"""The shell analyzer fails closed, end to end through `mewcode -p` (docs/security.md#permissions).

The OS sandbox is switched off here (MEWCODE_SANDBOX=none) so that a witness
file or directory proves what the analyzer alone let run. One run per mode
carries every variant of a class as its own Bash call.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.helpers.headless import run_bash_calls


@pytest.fixture(autouse=True)
def analyzer_only(monkeypatch: pytest.MonkeyPatch, mewcode_home: Path) -> None:
    monkeypatch.setenv("MEWCODE_SANDBOX", "none")
    (mewcode_home / "settings.yaml").write_text("sandbox:\n  allowUnsandboxed: true\n")


@pytest.fixture
def home_witness() -> Path:
    home = Path(os.environ["HOME"])
    keep = home / "keep.txt"
    keep.write_text("still here")
    (home / ".bashrc").write_text("# rc\n")
    return keep


_run = run_bash_calls


# Blacklisted cores hidden by each construct: bypass mode must refuse every one.
HIDDEN_DESTRUCTION = [
    "r\\\nm -rf ~",  # a line continuation inside the program name
    "rm -r\\\nf ~/",
    "echo ${x:-$(rm -rf ~)}",  # a substitution inside a parameter expansion
    "X=~; rm -rf $X",  # a target computed at run time
    'for t in ~ /; do rm -rf "$t"; done',
    "rm -rf ${HOME:?}",
    "rm -rf $(echo ~)",
    "busybox rm -rf ~",  # wrappers that run their arguments
    "flock /tmp/mewcode-e2e.lock rm -rf ~",
    "echo ~ | xargs rm -rf",
    "echo 'rm -rf ~' | sh",  # shells reading code from stdin
    "echo cm0gLXJmIH4K | base64 -d | bash",
    "bash <(echo 'rm -rf ~')",
    "printf 'rm -rf ~' | bash -s",
]


def test_bypass_refuses_every_hidden_destructive_core(
    fake_llm, project, home_witness, monkeypatch, capsys
) -> None:
    result = _run(fake_llm, project, monkeypatch, capsys, HIDDEN_DESTRUCTION, "bypassPermissions")
    denied = [d["tool_input"]["command"] for d in result["permission_denials"]]
    assert denied == HIDDEN_DESTRUCTION
    assert home_witness.read_text() == "still here"


def test_default_mode_runs_nothing_it_cannot_model(
    fake_llm, project, home_witness, monkeypatch, capsys
) -> None:
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    (project / "a.txt").write_text("one\n")
    subprocess.run(["git", "add", "a.txt"], cwd=project, check=True)
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "a"],
        cwd=project,
        check=True,
    )
    (project / "a.txt").write_text("two\n")
    evil = project / "evil.sh"
    evil.write_text('#!/bin/sh\ntouch "$(dirname "$0")/W-envprefix"\n')
    evil.chmod(0o755)
    commands = [
        "echo ${x:-$(touch W-param)}",  # ran `touch` in default mode before
        "echo `touch W-backtick`${y:+x}",
        "cat ${x:=$(touch W-assign)}",
        f"echo pwned > /dev/fd/../../../{os.environ['HOME']}/.bashrc",  # kernel-resolved path
        f"echo pwned > /proc/self/cwd/../../../../../../{os.environ['HOME']}/.bashrc",
        "GIT_EXTERNAL_DIFF=./evil.sh git diff",  # an environment prefix changes what runs
        "git -c alias.x='!touch W-alias' x",  # an option that carries code
        "printf 'touch W-stdin' | bash",
        "echo W-xargs | xargs touch",
        "ls && tou\\\nch W-cont",
    ]
    result = _run(fake_llm, project, monkeypatch, capsys, commands, "default")
    assert len(result["permission_denials"]) == len(commands), result["permission_denials"]
    assert sorted(p.name for p in project.glob("W-*")) == []
    assert (Path(os.environ["HOME"]) / ".bashrc").read_text() == "# rc\n"


def test_deny_rules_match_words_built_at_run_time(fake_llm, project, monkeypatch, capsys) -> None:
    commands = [
        "git pu${X}sh origin main",
        "git $(echo push) origin main",
        "git pu\\\nsh origin main",
        "command git push",
        "env A=1 git push",
        "bash -c 'git push'",
    ]
    result = _run(
        fake_llm,
        project,
        monkeypatch,
        capsys,
        commands,
        "bypassPermissions",
        "--disallowedTools",
        "Bash(git push:*)",
    )
    reasons = [d for d in result["permission_denials"]]
    assert len(reasons) == len(commands), result


def test_read_deny_binds_globs_and_other_readers(fake_llm, project, monkeypatch, capsys) -> None:
    (project / ".env").write_text("SECRET=deny-witness-4242\n")
    (project / "ok.txt").write_text("fine\n")
    commands = ["cat .en?", "head -1 .e*", "base64 .env", "cp .env copy.txt", "cat ok.txt"]
    seen = lambda body: {"text": json.dumps(body)}  # noqa: E731 - what the model saw
    result = _run(
        fake_llm,
        project,
        monkeypatch,
        capsys,
        commands,
        "bypassPermissions",
        "--disallowedTools",
        "Read(.env)",
        final=seen,
    )
    assert "deny-witness-4242" not in result["result"]
    assert "fine" in result["result"]
    assert not (project / "copy.txt").exists()
    assert len(result["permission_denials"]) == 4
