"""End-to-end `mewcode -p` against the fake LLM server, with the real SDKs (docs/manual.md#headless-mode--p, docs/architecture.md#tests)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mewcode_tui.cli import main
from tests.fakellm import last_tool_result_text

MEWCODE = [sys.executable, "-m", "mewcode_tui.cli"]


def answer_with_file(body: dict) -> dict:
    return {
        "text": f"The file says: {last_tool_result_text(body).split(chr(9), 1)[-1].strip()}",
        "usage": {"input_tokens": 300, "output_tokens": 12},
    }


def run_cli(
    args: list[str], env: dict[str, str], cwd: Path, monkeypatch, capsys
) -> tuple[int, str, str]:
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    code = main([*args, "--cwd", str(cwd)])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("wire", ["anthropic", "openai"])
def test_stream_json_reads_the_file_and_answers(
    wire: str, fake_llm, project: Path, mewcode_home: Path
) -> None:
    (project / "x.txt").write_text("the cat sat on the mat\n")
    fake_llm.script(
        [
            {
                "text": "Let me read it.",
                "tool_calls": [{"id": "toolu_1", "name": "Read", "input": {"file_path": "x.txt"}}],
                "usage": {"input_tokens": 200, "output_tokens": 30, "cache_read": 50},
            },
            answer_with_file,
        ]
    )
    env = {**os.environ, **fake_llm.env(wire), "MEWCODE_HOME": str(mewcode_home)}
    proc = subprocess.run(
        [
            *MEWCODE,
            "-p",
            "what does x.txt say",
            "--output-format",
            "stream-json",
            "--cwd",
            str(project),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    kinds = [(line["type"], line.get("subtype")) for line in lines]
    assert kinds == [
        ("system", "init"),
        ("assistant", None),
        ("user", None),
        ("assistant", None),
        ("result", "success"),
    ]
    init = lines[0]
    assert (
        init["cwd"] == str(project)
        and "Read" in init["tools"]
        and init["permissionMode"] == "default"
    )
    tool_use = lines[1]["message"]["content"][-1]
    assert tool_use == {
        "type": "tool_use",
        "id": "toolu_1",
        "name": "Read",
        "input": {"file_path": "x.txt"},
    }
    tool_result = lines[2]["message"]["content"][0]
    assert (
        tool_result["tool_use_id"] == "toolu_1"
        and "the cat sat on the mat" in tool_result["content"]
    )
    result = lines[-1]
    assert result["result"] == "The file says: the cat sat on the mat"
    assert result["num_turns"] == 2
    assert result["stop_reason"] == "end_turn" and result["is_error"] is False
    usage = result["usage"]
    assert usage["input_tokens"] == 500 and usage["output_tokens"] == 42
    assert usage["cache_read_input_tokens"] == 50
    assert result["session_id"] == init["session_id"]
    # The second request carried the tool result back in the vendor's own format.
    assert "the cat sat" in last_tool_result_text(fake_llm.requests[1].body)


def test_text_and_json_formats(fake_llm, project, monkeypatch, capsys) -> None:
    fake_llm.script([{"text": "Hello **there**"}, {"text": "again"}])
    code, out, _ = run_cli(["-p", "hi"], fake_llm.env("anthropic"), project, monkeypatch, capsys)
    assert code == 0 and out == "Hello **there**\n"
    code, out, _ = run_cli(
        ["-p", "hi", "--output-format", "json"],
        fake_llm.env("anthropic"),
        project,
        monkeypatch,
        capsys,
    )
    result = json.loads(out)
    assert code == 0 and result["type"] == "result" and result["result"] == "again"


def test_no_key_is_a_clear_one_line_error(project, monkeypatch, capsys) -> None:
    code, out, err = run_cli(["-p", "hi"], {}, project, monkeypatch, capsys)
    assert code != 0 and out == ""
    assert err.count("\n") == 1 and "no API key configured" in err


def test_api_failure_is_a_one_line_error_with_nonzero_exit(
    fake_llm, project, monkeypatch, capsys
) -> None:
    fake_llm.script([{"status": 401}])
    code, _, err = run_cli(["-p", "hi"], fake_llm.env("anthropic"), project, monkeypatch, capsys)
    assert code == 1
    assert err.count("\n") == 1, err
    assert "authentication failed" in err and "ANTHROPIC_API_KEY" in err
    assert "Traceback" not in err and "test-key" not in err


def test_max_turns_stops_with_error_max_turns(fake_llm, project, monkeypatch, capsys) -> None:
    (project / "a.txt").write_text("a")
    step = {"tool_calls": [{"name": "Read", "input": {"file_path": "a.txt"}}]}
    fake_llm.script([step] * 3)
    code, out, _ = run_cli(
        ["-p", "loop", "--max-turns", "3", "--output-format", "json"],
        fake_llm.env("openai"),
        project,
        monkeypatch,
        capsys,
    )
    result = json.loads(out)
    assert code == 1
    assert result["subtype"] == "error_max_turns" and result["num_turns"] == 3


def test_continue_resumes_the_latest_session(fake_llm, project, monkeypatch, capsys) -> None:
    fake_llm.script([{"text": "first answer"}, {"text": "second answer"}])
    env = fake_llm.env("anthropic")
    run_cli(["-p", "remember the word kiwi"], env, project, monkeypatch, capsys)
    code, out, _ = run_cli(["-p", "what word?", "--continue"], env, project, monkeypatch, capsys)
    assert code == 0 and out == "second answer\n"
    messages = fake_llm.requests[1].body["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant", "user"]
    assert "kiwi" in json.dumps(messages[0])


def test_resume_survives_a_torn_last_line(fake_llm, project, paths, monkeypatch, capsys) -> None:
    fake_llm.script(
        [
            {"text": "first answer", "usage": {"input_tokens": 5, "output_tokens": 2}},
            {"text": "still here"},
        ]
    )
    env = fake_llm.env("anthropic")
    code, out, _ = run_cli(
        ["-p", "hello", "--output-format", "json"], env, project, monkeypatch, capsys
    )
    session_id = json.loads(out)["session_id"]
    session_file = paths.sessions_dir / f"{session_id}.jsonl"
    with open(session_file, "a") as fh:
        fh.write('{"type":"message","message":{"role":"user","cont')  # a crash mid-write
    code, out, err = run_cli(
        ["-p", "go on", "--resume", session_id], env, project, monkeypatch, capsys
    )
    assert code == 0, err
    assert out == "still here\n"
    assert "warning" in err and "line" in err
    sent = fake_llm.requests[1].body["messages"]
    assert [m["role"] for m in sent] == ["user", "assistant", "user"]
    # The next append started on a fresh line: only the torn fragment fails to parse.
    bad = []
    for line in session_file.read_text().splitlines():
        try:
            json.loads(line)
        except ValueError:
            bad.append(line)
    assert bad == ['{"type":"message","message":{"role":"user","cont']


def test_headless_ask_becomes_a_denial_the_model_sees(
    fake_llm, project, monkeypatch, capsys
) -> None:
    fake_llm.script(
        [
            {"tool_calls": [{"id": "b1", "name": "Bash", "input": {"command": "touch made.txt"}}]},
            lambda body: {"text": "denied: " + last_tool_result_text(body)},
        ]
    )
    code, out, _ = run_cli(
        ["-p", "make a file", "--output-format", "json"],
        fake_llm.env("anthropic"),
        project,
        monkeypatch,
        capsys,
    )
    result = json.loads(out)
    assert code == 0
    assert "approval was not available" in result["result"]
    assert result["permission_denials"][0]["tool_name"] == "Bash"
    assert not (project / "made.txt").exists()


def test_allowed_tools_flag_lets_the_command_run(fake_llm, project, monkeypatch, capsys) -> None:
    fake_llm.script(
        [
            {"tool_calls": [{"id": "b1", "name": "Bash", "input": {"command": "touch made.txt"}}]},
            {"text": "done"},
        ]
    )
    code, _, _ = run_cli(
        ["-p", "make a file", "--allowedTools", "Bash(touch:*)"],
        fake_llm.env("anthropic"),
        project,
        monkeypatch,
        capsys,
    )
    assert code == 0 and (project / "made.txt").exists()


def test_parallel_tool_calls_through_the_channel(fake_llm, project, monkeypatch, capsys) -> None:
    (project / "a.txt").write_text("alpha\n")
    (project / "b.txt").write_text("beta\n")
    fake_llm.script(
        [
            {
                "tool_calls": [
                    {"id": "r1", "name": "Read", "input": {"file_path": "a.txt"}},
                    {"id": "r2", "name": "Grep", "input": {"pattern": "beta"}},
                    {"id": "r3", "name": "Read", "input": {"file_path": "b.txt"}},
                ]
            },
            {"text": "both read"},
        ]
    )
    code, out, err = run_cli(
        ["-p", "read both", "--output-format", "stream-json"],
        fake_llm.env("openai"),
        project,
        monkeypatch,
        capsys,
    )
    assert code == 0, err
    sent = fake_llm.requests[1].body["messages"]
    tool_messages = [m for m in sent if m["role"] == "tool"]
    assert [m["tool_call_id"] for m in tool_messages] == ["r1", "r2", "r3"]
    assert "alpha" in tool_messages[0]["content"] and "b.txt" in tool_messages[1]["content"]


def test_demo_denied_edit_reaches_the_model_and_the_tour_goes_on(
    project, monkeypatch, capsys
) -> None:
    (project / "README.md").write_text("# Demo project\nTODO: try mewcode\n")
    code, out, err = run_cli(
        ["--demo", "-p", "show me", "--output-format", "stream-json"],
        {},
        project,
        monkeypatch,
        capsys,
    )
    assert code == 0, err
    lines = [json.loads(line) for line in out.splitlines()]
    results = [c for line in lines if line["type"] == "user" for c in line["message"]["content"]]
    write = next(r for r in results if "MEWCODE_DEMO.md" in r["content"])
    assert write["is_error"] and "approval was not available" in write["content"]
    assert not (project / "MEWCODE_DEMO.md").exists()
    assert lines[-1]["subtype"] == "success" and "tour" in lines[-1]["result"]


def test_permissions_check_prints_the_verdict_and_runs_nothing(project, capsys) -> None:
    code = main(
        [
            "permissions",
            "check",
            "Bash",
            '{"command": "rm -rf / --no-preserve-root"}',
            "--cwd",
            str(project),
        ]
    )
    verdict = json.loads(capsys.readouterr().out)
    assert code == 0 and verdict["decision"] == "deny" and verdict["layer"] == "blacklist"
    code = main(
        [
            "permissions",
            "check",
            "Edit",
            '{"file_path": "src/a.py", "old_string": "a", "new_string": "b"}',
            "--mode",
            "acceptEdits",
            "--cwd",
            str(project),
        ]
    )
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["decision"] == "allow" and verdict["layer"] == "mode"
    code = main(["permissions", "check", "Bash", "{not json", "--cwd", str(project)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1


def test_in_plan_mode_a_call_an_ask_rule_matches_is_denied_not_asked(
    project, mewcode_home, capsys
) -> None:
    (mewcode_home / "settings.yaml").write_text('permissions:\n  ask: ["Bash(npm:*)"]\n')
    check = ["permissions", "check", "Bash", '{"command": "npm install"}', "--cwd", str(project)]
    assert main(check) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert (verdict["decision"], verdict["rule"]) == ("ask", "Bash(npm:*)")  # the rule is read
    assert main([*check, "--mode", "plan"]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert (verdict["decision"], verdict["layer"]) == ("deny", "mode")
    assert verdict["reason"].startswith("plan mode: only read-only tools are available")


def test_resume_errors_are_one_line(project, monkeypatch, capsys) -> None:
    code, _, err = run_cli(["--demo", "-p", "hi", "--resume"], {}, project, monkeypatch, capsys)
    assert code == 2 and err.count("\n") == 1 and "--continue" in err
    code, _, err = run_cli(
        ["--demo", "-p", "hi", "--resume", "nope"], {}, project, monkeypatch, capsys
    )
    assert code == 1 and err.count("\n") == 1 and "nope" in err
