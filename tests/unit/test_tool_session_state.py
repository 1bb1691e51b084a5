"""SessionToolState: the per-session state every tool call of a session shares."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_core.tools.base import ToolContext, validate_input
from agent_core.tools.bash import BashParams, BashTool
from agent_core.tools.session_state import ExecRecord, SessionToolState


def test_an_exec_record_is_taken_once_as_audit_fields() -> None:
    state = SessionToolState()
    state.execs["c1"] = ExecRecord("make", 2, 15, "exited")
    assert state.take_exec_fields("c1") == {
        "command": "make",
        "exit_code": 2,
        "duration_ms": 15,
        "outcome": "exited",
    }
    assert state.take_exec_fields("c1") == {}  # gone: the table does not grow all session
    assert state.execs == {}


def test_contexts_without_a_state_do_not_share_one(tmp_path: Path) -> None:
    first = ToolContext(cwd=tmp_path, session_dir=tmp_path)
    second = ToolContext(cwd=tmp_path, session_dir=tmp_path)
    first.state.todos.append({"content": "x"})
    assert second.state.todos == []


@pytest.mark.slow
async def test_bash_reads_its_limits_and_withheld_names_from_the_state(
    tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setenv("MY_PROXY_KEY", "hunter2")
    state = SessionToolState(bash_output_chars=200, withheld_env=("MY_PROXY_KEY",))
    ctx = ToolContext(cwd=tmp_path, session_dir=tmp_path / "s", call_id="b1", state=state)
    args = validate_input(BashParams, {"command": 'echo "key=$MY_PROXY_KEY"; seq 1 2000'})
    out = await BashTool().run(args, ctx)
    assert out.content.startswith("key=\n1\n")  # the withheld variable is unset
    assert len(out.content) < 1000 and "omitted" in out.content  # cut to the state's limit
    assert state.execs["b1"].exit_code == 0
