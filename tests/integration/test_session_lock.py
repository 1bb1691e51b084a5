"""One writer per session (docs/manual.md#sessions-and-context): a lock, a clear message, and a fork for --continue."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from agent_core.agent.runtime import Runtime, RuntimeOptions
from agent_core.config.paths import MewcodePaths
from agent_core.config.settings import Settings
from agent_core.llm.demo_provider import DemoProvider
from agent_core.messages import Message, TextBlock, ToolResultBlock, ToolUseBlock, user_text
from agent_core.session import (
    SessionLocked,
    SessionStore,
    history_problems,
    latest_session_id,
    load_session,
)
from tests.fakellm import last_user_text

MEWCODE = [sys.executable, "-m", "mewcode_tui.cli"]


def run(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*MEWCODE, *args, "--cwd", str(cwd)], env=env, capture_output=True, text=True, timeout=120
    )


@pytest.fixture
def env(fake_llm, mewcode_home: Path) -> dict[str, str]:
    return {**os.environ, **fake_llm.env("anthropic"), "MEWCODE_HOME": str(mewcode_home)}


def seeded(paths: MewcodePaths) -> SessionStore:
    store = SessionStore.create(paths, model="m", provider="p", env={})
    store.append_message(user_text("seed"))
    store.append_message(Message(role="assistant", content=[TextBlock("seeded")]))
    return store


def test_a_second_open_is_refused_until_the_first_closes(paths: MewcodePaths) -> None:
    first = seeded(paths)
    with pytest.raises(SessionLocked) as refused:
        SessionStore.open(paths, first.session_id, env={})
    assert str(refused.value) == (
        f"session {first.session_id} is in use by another mewcode (pid {os.getpid()})"
    )
    first.close()
    second, loaded = SessionStore.open(paths, first.session_id, env={})
    assert [m.text() for m in loaded.messages] == ["seed", "seeded"]
    second.close()


def test_the_lock_dies_with_its_process(paths: MewcodePaths) -> None:
    store = seeded(paths)
    session_id = store.session_id
    store.close()
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(
                f"""
                import sys, time
                from pathlib import Path
                from agent_core.config.paths import MewcodePaths
                from agent_core.session import SessionStore
                paths = MewcodePaths(home=Path({str(paths.home)!r}), project=Path({str(paths.project)!r}))
                SessionStore.open(paths, {session_id!r}, env={{}})
                print("held", flush=True)
                time.sleep(60)
                """
            ),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(SessionLocked) as refused:
            SessionStore.open(paths, session_id, env={})
        assert refused.value.pid == holder.pid
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    store, _ = SessionStore.open(paths, session_id, env={})  # kill -9 freed it
    store.close()


def test_resume_of_a_session_in_use_fails_in_one_line(
    fake_llm, project: Path, paths: MewcodePaths, env: dict[str, str]
) -> None:
    held = seeded(paths)
    try:
        proc = run(["-p", "hello", "--resume", held.session_id], env, project)
    finally:
        held.close()
    assert proc.returncode == 1
    assert proc.stderr == (
        f"mewcode: session {held.session_id} is in use by another mewcode (pid {os.getpid()})\n"
    )
    assert fake_llm.requests == []


def test_continue_while_in_use_forks_a_new_session(
    fake_llm, project: Path, paths: MewcodePaths, env: dict[str, str]
) -> None:
    held = seeded(paths)
    fake_llm.script([{"text": "forked answer"}])
    try:
        proc = run(["-p", "--continue", "and now?", "--output-format", "json"], env, project)
    finally:
        held.close()
    assert proc.returncode == 0, proc.stderr
    new_id = json.loads(proc.stdout)["session_id"]
    assert new_id != held.session_id
    assert (
        f"mewcode: warning: session {held.session_id} is in use by another mewcode "
        f"(pid {os.getpid()}); continuing in a new session {new_id} forked from it\n"
    ) in proc.stderr
    # The model saw the copied history, then the new prompt.
    sent = fake_llm.requests[0].body["messages"]
    assert [m["content"][0]["text"] for m in sent] == ["seed", "seeded", "and now?"]
    fork = load_session(paths.sessions_dir / f"{new_id}.jsonl")
    assert fork.meta is not None and fork.meta.forked_from == held.session_id
    assert [m.text() for m in fork.messages] == ["seed", "seeded", "and now?", "forked answer"]
    # The original is untouched.
    original = load_session(held.path)
    assert [m.text() for m in original.messages] == ["seed", "seeded"]


async def test_ui_resume_of_a_session_in_use_says_so_and_stays(paths: MewcodePaths) -> None:
    held = seeded(paths)
    opts = RuntimeOptions(
        cwd=paths.project, paths=paths, settings=Settings(), provider=DemoProvider(paths.project)
    )
    runtime = await Runtime.open(opts)
    try:
        before = runtime.session_id
        with pytest.raises(SessionLocked, match="is in use by another mewcode"):
            await runtime.resume(held.session_id)
        assert runtime.session_id == before
        runtime.store.append_message(user_text("still writable"))
    finally:
        await runtime.close()
        held.close()


def answer_per_process(body: dict) -> dict:
    """Each process asks for one tool call, then ends its turn; requests may interleave."""
    messages = body["messages"]
    last = messages[-1]["content"]
    if isinstance(last, list) and last and last[0].get("type") == "tool_result":
        tag = last[0]["tool_use_id"].split("_")[1]
        return {"text": f"done {tag}", "delay_ms": 100}
    tag = last_user_text(body).split()[-1]
    return {
        "tool_calls": [
            {"id": f"toolu_{tag}_{len(messages)}", "name": "Read", "input": {"file_path": "a.txt"}}
        ],
        "delay_ms": 100,  # a turn long enough for the others to find the session busy
    }


def test_four_concurrent_continues_never_interleave(
    fake_llm, project: Path, paths: MewcodePaths, env: dict[str, str]
) -> None:
    (project / "a.txt").write_text("alpha\n")
    fake_llm.responder = answer_per_process
    assert run(["-p", "start seed"], env, project).returncode == 0
    procs = [
        subprocess.Popen(
            [*MEWCODE, "-p", "--continue", f"run p{i}", "--cwd", str(project)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(4)
    ]
    outputs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0, 0], outputs
    forks = sum("forked from it" in err for _, err in outputs)
    assert forks >= 1  # they did run at the same time
    files = sorted(paths.sessions_dir.glob("*.jsonl"))
    assert len(files) == 1 + forks  # every process that found the session busy forked
    runs_seen = set()
    for path in files:
        loaded = load_session(path)
        assert loaded.warnings == [], loaded.warnings
        assert history_problems(loaded.messages) == []
        assert loaded.meta is not None and loaded.meta.session_id == path.stem
        # Each turn's tool call belongs to the prompt that started the turn.
        prompt = None
        for msg in loaded.messages:
            for block in msg.content:
                if isinstance(block, TextBlock) and msg.role == "user":
                    prompt = block.text.split()[-1]
                elif isinstance(block, ToolUseBlock | ToolResultBlock):
                    call = block.id if isinstance(block, ToolUseBlock) else block.tool_use_id
                    assert call.split("_")[1] == prompt, (path.name, call, prompt)
        texts = [m.text() for m in loaded.messages if m.role == "user" and m.text()]
        assert len(texts) == len(set(texts))  # no turn written twice into one file
        runs_seen.update(t for t in texts if t.startswith("run "))
    assert runs_seen == {f"run p{i}" for i in range(4)}
    assert latest_session_id(paths) in {p.stem for p in files}
