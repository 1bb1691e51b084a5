"""Claude Code's flags and piped stdin through the real `mewcode -p`, against the fake LLM."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.mcp_servers.launch import EVERYTHING

MEWCODE = [sys.executable, "-m", "mewcode_tui.cli"]


def mewcode(
    fake_llm,
    project: Path,
    *args: str,
    stdin: str | bytes | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **fake_llm.env("anthropic"), "MEWCODE_PRELOAD": "0", **(env or {})}
    return subprocess.run(
        [*MEWCODE, *args, "--cwd", str(project)],
        env=env,
        input=stdin.decode("latin-1") if isinstance(stdin, bytes) else stdin,
        stdin=subprocess.DEVNULL if stdin is None else None,
        capture_output=True,
        text=True,
        timeout=90,
    )


def first_user_text(fake_llm) -> str:
    content = fake_llm.requests[0].body["messages"][0]["content"]
    return content if isinstance(content, str) else "".join(b.get("text", "") for b in content)


def system_text(fake_llm) -> str:
    system = fake_llm.requests[0].body["system"]
    return system if isinstance(system, str) else "\n".join(b["text"] for b in system)


def test_version_is_fast_and_imports_no_sdk() -> None:
    from importlib.metadata import version

    code = (
        "import sys; from mewcode_tui.entry import main; rc = main(['--version']); "
        "assert not {'anthropic', 'openai', 'mcp', 'textual'} & set(sys.modules), sys.modules; "
        "sys.exit(rc)"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=30, check=False
    )
    assert (proc.returncode, proc.stdout) == (0, f"mewcode {version('mewcode')}\n"), proc.stderr


def test_piped_text_follows_the_prompt(fake_llm, project: Path) -> None:
    fake_llm.script([{"text": "it is a log"}])
    proc = mewcode(fake_llm, project, "-p", "explain this", stdin="ERROR disk full\n")
    assert proc.returncode == 0, proc.stderr
    assert first_user_text(fake_llm).startswith("explain this\n\nERROR disk full")


def test_piped_text_alone_is_the_prompt(fake_llm, project: Path) -> None:
    fake_llm.script([{"text": "ok"}])
    proc = mewcode(fake_llm, project, "-p", stdin="what is 2+2\n")
    assert proc.returncode == 0, proc.stderr
    assert first_user_text(fake_llm).startswith("what is 2+2")


def test_an_empty_pipe_leaves_the_prompt_alone(fake_llm, project: Path) -> None:
    fake_llm.script([{"text": "ok"}])
    proc = mewcode(fake_llm, project, "-p", "just this", stdin="")
    assert proc.returncode == 0, proc.stderr
    assert first_user_text(fake_llm).startswith("just this")


def test_binary_stdin_is_a_one_line_error_and_nothing_runs(fake_llm, project: Path) -> None:
    proc = mewcode(fake_llm, project, "-p", "explain", stdin=b"\x7fELF\x00\x01")
    assert proc.returncode == 1
    assert proc.stderr.startswith("mewcode: stdin: binary data") and proc.stderr.count("\n") == 1
    assert fake_llm.requests == []


def test_verbose_tells_each_call_and_its_verdict_on_stderr(fake_llm, project: Path) -> None:
    (project / "a.txt").write_text("hello\n")
    fake_llm.script(
        [
            {"tool_calls": [{"id": "r1", "name": "Read", "input": {"file_path": "a.txt"}}]},
            {"text": "done"},
        ]
    )
    proc = mewcode(fake_llm, project, "-p", "read it", "--verbose")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "done\n"  # stdout stays the answer
    assert "mewcode: [verbose] Read r1: allow by" in proc.stderr
    assert "mewcode: [verbose] Read r1: done in" in proc.stderr
    assert "waiting on the model" in proc.stderr


def test_system_prompt_replaced_keeps_the_runtime_parts(fake_llm, project: Path) -> None:
    fake_llm.script([{"text": "ok"}])
    proc = mewcode(
        fake_llm, project, "-p", "hi", "--system-prompt", "You are a pirate.",
        "--append-system-prompt", "Answer in French.",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    system = system_text(fake_llm)
    assert system.startswith("You are a pirate.") and "You are MewCode" not in system
    assert "Every tool call passes a permission check" in system
    assert f"working directory (project root): {project}" in system
    assert "Answer in French." in system


def test_append_system_prompt_adds_to_mewcodes_own(fake_llm, project: Path) -> None:
    fake_llm.script([{"text": "ok"}])
    proc = mewcode(fake_llm, project, "-p", "hi", "--append-system-prompt", "Answer in French.")
    assert proc.returncode == 0, proc.stderr
    system = system_text(fake_llm)
    assert system.startswith("You are MewCode") and "Answer in French." in system


def read_outside(fake_llm, project: Path, outside: Path, *flags: str) -> dict:
    (outside / "notes.txt").write_text("outside notes\n")
    fake_llm.script(
        [
            {
                "tool_calls": [
                    {"id": "r1", "name": "Read", "input": {"file_path": str(outside / "notes.txt")}}
                ]
            },
            {"text": "done"},
        ]
    )
    proc = mewcode(fake_llm, project, "-p", "read", "--output-format", "json", *flags)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_add_dir_lets_the_tools_read_there(fake_llm, project: Path, outside: Path) -> None:
    assert read_outside(fake_llm, project, outside)["permission_denials"]  # without: asks/denied
    fake_llm.requests.clear()
    result = read_outside(fake_llm, project, outside, "--add-dir", str(outside))
    assert result["permission_denials"] == []
    assert "outside notes" in json.dumps(fake_llm.requests[-1].body["messages"])


def test_skip_permissions_runs_in_bypass_mode(fake_llm, project: Path) -> None:
    fake_llm.script([{"text": "ok"}])
    proc = mewcode(
        fake_llm, project, "-p", "hi", "--dangerously-skip-permissions",
        "--output-format", "stream-json",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    init = json.loads(proc.stdout.splitlines()[0])
    assert init["permissionMode"] == "bypassPermissions"


def test_skip_permissions_is_refused_where_bypass_is(fake_llm, project: Path) -> None:
    # No OS sandbox: bypass would have no boundary, and it is refused before anything runs.
    proc = mewcode(
        fake_llm, project, "-p", "hi", "--dangerously-skip-permissions",
        env={"MEWCODE_SANDBOX": "none"},
    )  # fmt: skip
    assert proc.returncode == 1
    assert proc.stderr.startswith("mewcode: bypassPermissions needs an OS sandbox")
    assert proc.stderr.count("\n") == 1 and fake_llm.requests == []


def everything(name: str) -> dict:
    return {name: {"command": sys.executable, "args": [str(EVERYTHING)]}}


def init_servers(proc: subprocess.CompletedProcess[str]) -> dict[str, str]:
    assert proc.returncode == 0, proc.stderr
    init = json.loads(proc.stdout.splitlines()[0])
    return {s["name"]: s["status"] for s in init["mcp_servers"]}


def test_mcp_config_adds_servers_and_strict_uses_only_those(
    fake_llm, project: Path, mewcode_home: Path, tmp_path: Path
) -> None:
    (mewcode_home / "mcp.json").write_text(json.dumps({"mcpServers": everything("mine")}))
    given = tmp_path / "more.json"
    given.write_text(json.dumps({"mcpServers": everything("fromfile")}))
    text = json.dumps({"mcpServers": everything("fromtext")})
    fake_llm.script([{"text": "ok"}], loop=True)
    flags = ("-p", "hi", "--output-format", "stream-json", "--mcp-config", str(given), text)
    assert init_servers(mewcode(fake_llm, project, *flags)) == {
        "mine": "connected",
        "fromfile": "connected",
        "fromtext": "connected",
    }
    # Their tools are cached now: the init line may come before they connect again.
    strict = init_servers(mewcode(fake_llm, project, *flags, "--strict-mcp-config"))
    assert sorted(strict) == ["fromfile", "fromtext"]


def test_a_bad_mcp_config_stops_the_run_with_one_line(fake_llm, project: Path) -> None:
    proc = mewcode(fake_llm, project, "-p", "hi", "--mcp-config", '{"mcpServers": {"x": 3}}')
    assert proc.returncode == 1
    assert proc.stderr == (
        "mewcode: --mcp-config: server 'x': expected an object with command or url\n"
    )
    missing = mewcode(fake_llm, project, "-p", "hi", "--mcp-config", "nope.json")
    assert missing.stderr == "mewcode: --mcp-config nope.json: no such file\n"


def test_allowed_tools_take_several_values_before_the_prompt(fake_llm, project: Path) -> None:
    fake_llm.script(
        [
            {"tool_calls": [{"id": "w1", "name": "Write", "input": {"file_path": "w.txt", "content": "x"}}]},
            {"text": "done"},
        ]
    )  # fmt: skip
    proc = mewcode(fake_llm, project, "-p", "--allowedTools", "Read", "Write", "write it")
    assert proc.returncode == 0, proc.stderr
    assert (project / "w.txt").read_text() == "x"
    assert first_user_text(fake_llm).startswith("write it")


def test_settings_flag_applies_a_settings_file_as_the_users_own(
    fake_llm, project: Path, tmp_path: Path
) -> None:
    extra = tmp_path / "extra.json"
    extra.write_text(json.dumps({"permissions": {"allow": ["Write"]}}))
    fake_llm.script(
        [
            {"tool_calls": [{"id": "w1", "name": "Write", "input": {"file_path": "s.txt", "content": "y"}}]},
            {"text": "done"},
        ]
    )  # fmt: skip
    proc = mewcode(fake_llm, project, "-p", "write", "--settings", str(extra))
    assert proc.returncode == 0, proc.stderr
    assert (project / "s.txt").read_text() == "y"


UNPRICED = "no price is known for model acme-unpriced-7, so --max-budget-usd cannot be enforced"


def test_a_budget_on_a_model_with_no_known_price_stops_before_any_request(
    fake_llm, project: Path
) -> None:
    fake_llm.script([{"text": "unmetered spending"}], loop=True)
    flags = ("--max-budget-usd", "1", "--model", "acme-unpriced-7")
    proc = mewcode(fake_llm, project, "-p", "hi", *flags)
    assert fake_llm.requests == []  # not one request went out unmetered
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and UNPRICED in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr
    proc = mewcode(fake_llm, project, "-p", "hi", "--output-format", "json", *flags)
    result = json.loads(proc.stdout)
    assert (result["subtype"], result["stop_reason"]) == ("error_max_budget_usd", "max_budget")
    assert result["is_error"] and result["error"].startswith(UNPRICED)
    assert fake_llm.requests == []


def test_a_model_with_no_known_price_runs_without_a_budget(fake_llm, project: Path) -> None:
    fake_llm.script([{"text": "fine"}])
    proc = mewcode(fake_llm, project, "-p", "hi", "--model", "acme-unpriced-7")
    assert (proc.returncode, proc.stdout) == (0, "fine\n"), proc.stderr
    assert fake_llm.requests[0].body["model"] == "acme-unpriced-7"


def test_a_budget_on_a_priced_model_still_sends_the_request(fake_llm, project: Path) -> None:
    fake_llm.script([{"text": "fine"}])
    proc = mewcode(
        fake_llm, project, "-p", "hi", "--max-budget-usd", "1", "--model", "claude-sonnet-4-5"
    )
    assert (proc.returncode, proc.stdout) == (0, "fine\n"), proc.stderr


def test_an_uppercase_session_id_is_refused_showing_the_lowercase_form(
    fake_llm, project: Path, mewcode_home: Path
) -> None:
    import uuid

    chosen = str(uuid.uuid4())
    fake_llm.script([{"text": "never sent"}])
    proc = mewcode(fake_llm, project, "-p", "hi", "--session-id", chosen.upper())
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr == (
        f"mewcode: --session-id {chosen.upper()}: expected the lowercase form {chosen}\n"
    )
    assert fake_llm.requests == []
    assert not list((mewcode_home / "projects").rglob("*.jsonl"))


def test_a_lowercase_session_id_comes_back_spelled_as_given(fake_llm, project: Path) -> None:
    import uuid

    chosen = str(uuid.uuid4())
    fake_llm.script([{"text": "ok"}])
    proc = mewcode(fake_llm, project, "-p", "hi", "--session-id", chosen, "--output-format", "json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["session_id"] == chosen
