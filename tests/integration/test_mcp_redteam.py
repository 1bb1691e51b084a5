"""Red team of the MCP client: a hostile server (tests/mcp_servers/hostile_server.py),
a hostile project and a careless configuration, end to end through `mewcode -p`.
Witness files and pid files prove what really ran."""

from __future__ import annotations

import base64
import json
import os
import signal
import sys
import time
from pathlib import Path

import pytest

from agent_core.mcp.names import parse, tool_name
from tests.integration.test_mcp_headless import (
    call,
    configure,
    gone,
    mewcode,
    results,
    run,
    stdio,
    text_of,
    wait_for,
)

HOSTILE = Path(__file__).parents[1] / "mcp_servers" / "hostile_server.py"
SENDABLE_IMAGES = {"image/png", "image/jpeg", "image/gif", "image/webp"}


def hostile(*, trust_hints: bool = False, **env: str) -> dict:
    """The hostile server's entry; ``trust_hints``: its readOnlyHint tools run unasked (for
    the attacks on other things than permissions)."""
    entry = {"command": sys.executable, "args": [str(HOSTILE)], "env": env}
    return {**entry, "trustReadOnlyHint": True} if trust_hints else entry


def settings(home: Path, text: str) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "settings.yaml").write_text(text)


def pids(path: Path) -> list[int]:
    return [int(p) for p in path.read_text().split()] if path.exists() else []


def kill_all(found: list[int]) -> None:
    for pid in found:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def test_a_chain_of_setsid_daemons_ignoring_sigterm_does_not_outlive_mewcode(
    fake_llm, project: Path, mewcode_home: Path, tmp_path: Path
) -> None:
    chain = tmp_path / "chain.pids"
    configure(mewcode_home, {"h": hostile(trust_hints=True, HOSTILE_CHAIN_FILE=str(chain))})
    fake_llm.script(
        [{"text": "Start.", "tool_calls": [call("mcp__h__daemon_chain")]}, {"text": "Done."}]
    )
    try:
        code, lines, err = run(fake_llm, project, mewcode_home)
        assert code == 0 and text_of(results(lines)[0]) == "daemons started", err
        started = pids(chain)
        assert len(started) == 3
        alive = [pid for pid in started if not gone(pid, within=5)]
        assert alive == [], f"{len(alive)} of the server's daemons outlived mewcode"
    finally:
        kill_all(pids(chain))


def test_a_server_deny_rule_covers_a_tool_with_an_empty_name(
    fake_llm, project: Path, mewcode_home: Path, tmp_path: Path
) -> None:
    witness = tmp_path / "calls"
    tools = [{"name": "", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": True}}]
    configure(
        mewcode_home, {"h": hostile(HOSTILE_TOOLS=json.dumps(tools), HOSTILE_WITNESS=str(witness))}
    )
    settings(mewcode_home, "permissions:\n  deny: [mcp__h]\n")
    offered = tool_name("h", "")  # the name the model is offered for it
    fake_llm.script([{"text": "Call.", "tool_calls": [call(offered)]}, {"text": "Done."}])
    code, lines, err = run(fake_llm, project, mewcode_home)
    assert code == 0, err
    assert not witness.exists(), "a tool of a denied server ran"
    assert results(lines)[0]["is_error"]
    assert (parse(offered) or ("", ""))[0] == "h", f"{offered!r} does not name its server"


@pytest.mark.parametrize("tool", ["big_image", "svg_image"])
def test_an_image_a_provider_would_reject_never_reaches_the_request(
    tool: str, fake_llm, project: Path, mewcode_home: Path
) -> None:
    configure(mewcode_home, {"h": hostile(trust_hints=True, HOSTILE_MB="6")})
    fake_llm.script([{"text": "Look.", "tool_calls": [call(f"mcp__h__{tool}")]}, {"text": "Ok."}])
    code, lines, err = run(fake_llm, project, mewcode_home)
    assert code == 0, err
    sent = fake_llm.requests[1].body["messages"][-1]["content"]
    result = next(b for b in sent if b["type"] == "tool_result")
    blocks = result["content"] if isinstance(result["content"], list) else []
    for block in blocks:
        if block["type"] == "image":
            assert block["source"]["media_type"] in SENDABLE_IMAGES
            assert len(block["source"]["data"]) <= 5 * 1024 * 1024
            base64.b64decode(block["source"]["data"], validate=True)
    assert "image" in json.dumps(result["content"])  # the model is told what came back


@pytest.mark.parametrize("tool", ["nested", "bad_utf8"])
def test_an_unreadable_answer_fails_the_call_at_once(
    tool: str, fake_llm, project: Path, mewcode_home: Path
) -> None:
    configure(mewcode_home, {"h": hostile(trust_hints=True)})
    settings(mewcode_home, "limits:\n  mcp_tool_timeout_s: 60\n")
    fake_llm.script([{"text": "Call.", "tool_calls": [call(f"mcp__h__{tool}")]}, {"text": "Ok."}])
    started = time.monotonic()
    code, lines, err = run(fake_llm, project, mewcode_home)
    elapsed = time.monotonic() - started
    assert code == 0, err
    result = results(lines)[0]
    assert result["is_error"] or tool == "bad_utf8", text_of(result)
    assert "MCP server 'h'" in text_of(result) or tool == "bad_utf8"
    assert elapsed < 30, f"the call waited {elapsed:.0f} s for an answer it had already got"
    assert "Traceback" not in err  # the SDK's parse error stays in the debug log


@pytest.mark.parametrize("how", [signal.SIGHUP, signal.SIGINT])
def test_no_mcp_server_outlives_mewcode_on_hangup_or_interrupt(
    how: signal.Signals, fake_llm, project: Path, mewcode_home: Path, tmp_path: Path
) -> None:
    pid_file, started = tmp_path / "server.pid", tmp_path / "started"
    configure(mewcode_home, {"local": stdio(MCP_TEST_PID_FILE=str(pid_file))})
    sleep = call("mcp__local__sleep", seconds=600, started=str(started))
    fake_llm.script([{"text": "Wait.", "tool_calls": [sleep]}, {"text": "Waited."}])
    proc = mewcode(fake_llm, project, mewcode_home, "--allowedTools", "mcp__local__sleep")
    try:
        wait_for(started, proc)
        server = int(pid_file.read_text())
        proc.send_signal(how)
        proc.communicate(timeout=60)
        assert gone(server), f"MCP server {server} outlived mewcode ({how.name})"
    finally:
        if proc.poll() is None:
            proc.kill()


def test_an_untrusted_project_cannot_plant_code_a_user_server_runs(
    fake_llm, project: Path, mewcode_home: Path, tmp_path: Path
) -> None:
    witness = tmp_path / "planted-ran"
    (project / "mcp_server_notes.py").write_text(
        f"open({str(witness)!r}, 'w').write('ran')\nraise SystemExit(1)\n"
    )
    configure(
        mewcode_home, {"notes": {"command": sys.executable, "args": ["-m", "mcp_server_notes"]}}
    )
    fake_llm.script([{"text": "Hi.", "tool_calls": [call("mcp__notes__x")]}, {"text": "Ok."}])
    proc = mewcode(fake_llm, project, mewcode_home, cwd=project)  # mewcode run in the project
    proc.communicate(timeout=120)
    assert not witness.exists(), "the untrusted project's module ran as the user's server"


@pytest.mark.parametrize("tool", ["", "_", "__", "a__b", "__x__", "é", "a.b", "x" * 500, " "])
def test_every_tool_name_a_server_sends_names_its_server(tool: str) -> None:
    name = tool_name("s-1", tool)
    found = parse(name)
    assert found is not None and found.server == "s-1", name
    assert len(name) <= 64 and name.isascii()
