"""Broken settings files fail closed, end to end through `mewcode -p` (docs/configuration.md#broken-settings-fail-closed).

Every run allows `touch` on the command line (`--allowedTools`), and the deny
rule sits in the broken file: a witness file shows whether the denied command
ran. A file whose permission rules cannot be read stops mewcode before the
model is asked anything.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers.headless import headless_process

DENY_TOUCH = "permissions:\n  deny: ['Bash(touch:*)']\n"
TOUCH = [
    {"tool_calls": [{"id": "b1", "name": "Bash", "input": {"command": "touch witness.txt"}}]},
    {"text": "done"},
]


def settings_file(paths, which: str, content: str | bytes) -> Path:
    file: Path = getattr(paths, which)
    file.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        file.write_bytes(content)
    else:
        file.write_text(content)
    return file


def run(fake_llm, project: Path, *args: str):
    fake_llm.script(TOUCH)
    proc = headless_process(
        ["-p", "make the file", "--allowedTools", "Bash(touch:*)", *args],
        fake_llm.env("anthropic"),
        project,
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    result = json.loads(proc.stdout) if proc.stdout.strip() else {}
    return proc.returncode, result, proc.stderr


def test_without_a_deny_rule_the_command_runs(fake_llm, project) -> None:
    code, result, err = run(fake_llm, project)
    assert code == 0 and (project / "witness.txt").exists(), err


@pytest.mark.parametrize("which", ["user_settings", "project_settings", "local_settings"])
def test_a_schema_error_next_to_deny_rules_leaves_them_in_force(
    fake_llm, project, paths, which
) -> None:
    file = settings_file(
        paths, which, "model: claude-sonnet-4-6\nlimits:\n  max_iterations: lots\n" + DENY_TOUCH
    )
    code, result, err = run(fake_llm, project)
    assert code == 0, err
    assert not (project / "witness.txt").exists()
    assert [d["tool_use_id"] for d in result["permission_denials"]] == ["b1"]
    assert f"{file} line 3: limits.max_iterations: expected int, got str ('lots'); ignored" in err


STOPPING = [
    pytest.param(
        b"model: m\n" + DENY_TOUCH.encode() + b"\x00\x00\x00", 4, "not a text file", id="binary"
    ),
    pytest.param(
        b"permissions:\n  deny:\n    - 'Bash(touch:*)' # caf\xe9\n",
        3,
        "not UTF-8 text",
        id="non-utf8",
    ),
    pytest.param(
        b"permissions:\n  deny:\n    - 'Bash(touch:*)'\n    - 'bash(git push:*)'\n",
        4,
        "deny rule bash(git push:*): unknown tool bash (did you mean Bash?)",
        id="malformed-deny",
    ),
    pytest.param(
        b"permissions:\n  ask: ['Bash(git push:*']\n",
        2,
        "unbalanced parenthesis",
        id="malformed-ask",
    ),
    pytest.param(
        b"theme: dark\npermissions:\n  deny: [Bash(touch:*)\n", 4, "invalid YAML", id="yaml"
    ),
    pytest.param(b"permissions:\n  - Bash(touch:*)\n", 2, "expected a mapping", id="not-a-mapping"),
]


@pytest.mark.parametrize(("content", "line", "words"), STOPPING)
@pytest.mark.parametrize("which", ["user_settings", "local_settings"])
def test_unreadable_permissions_stop_mewcode_with_one_line(
    fake_llm, project, paths, which, content, line, words
) -> None:
    file = settings_file(paths, which, content)
    code, result, err = run(fake_llm, project)
    assert code == 1 and result == {}
    assert not (project / "witness.txt").exists()
    assert fake_llm.requests == []  # stopped before the model was asked anything
    assert err.count("\n") == 1 and err.startswith(f"mewcode: {file} line {line}: ")
    assert words in err


@pytest.mark.parametrize(
    ("content", "line", "words"),
    [
        (
            b"\x7fELF\x02\x01\x01\x00\x00\x00",
            1,
            "not a text file (a NUL byte); the file is ignored",
        ),
        (b"model: m\ntheme: caf\xe9\n", 2, "not UTF-8 text (byte 0xe9); the file is ignored"),
        (b"model: m\ntheme: [dark\n", 3, "invalid YAML"),
    ],
)
def test_a_broken_file_without_permissions_is_skipped_and_the_others_deny(
    fake_llm, project, paths, content, line, words
) -> None:
    settings_file(paths, "user_settings", DENY_TOUCH)
    file = settings_file(paths, "project_settings", content)
    code, result, err = run(fake_llm, project)
    assert code == 0, err
    assert not (project / "witness.txt").exists()
    assert f"mewcode: warning: {file} line {line}: " in err and words in err


def test_a_malformed_allow_rule_is_dropped_and_the_deny_rule_holds(
    fake_llm, project, paths
) -> None:
    file = settings_file(
        paths,
        "user_settings",
        "permissions:\n  allow:\n    - 'Bash(touch:*'\n    - Bash(ls:*)\n  deny: ['Bash(touch:*)']\n",
    )
    code, result, err = run(fake_llm, project)
    assert code == 0, err
    assert not (project / "witness.txt").exists()
    assert (
        f"mewcode: warning: {file} line 3: allow rule Bash(touch:*: unbalanced parenthesis" in err
    )


@pytest.mark.parametrize(("content", "line", "words"), STOPPING)
def test_permissions_check_reports_the_same_line(
    project, paths, content, line, words, capsys
) -> None:
    from mewcode_tui.cli import main

    file = settings_file(paths, "local_settings", content)
    code = main(["permissions", "check", "Bash", '{"command": "touch x"}', "--cwd", str(project)])
    out, err = capsys.readouterr()
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"mewcode: {file} line {line}: ")
    assert words in err


def test_permissions_check_shows_dropped_entries_and_the_verdict(project, paths, capsys) -> None:
    from mewcode_tui.cli import main

    text = "permissions:\n  allow: ['bash(ls)']\n  deny: ['Bash(touch:*)']\n"
    file = settings_file(paths, "user_settings", text)
    code = main(["permissions", "check", "Bash", '{"command": "touch x"}', "--cwd", str(project)])
    out, err = capsys.readouterr()
    assert code == 0 and json.loads(out)["decision"] == "deny"
    assert f"mewcode: warning: {file} line 2: allow rule bash(ls): unknown tool bash" in err
