"""A message over the spill limit is saved like a tool result, never kept or resent whole."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from agent_core.config.paths import MewcodePaths
from agent_core.messages import Message, TextBlock, user_text
from agent_core.session import SessionStore, load_session
from agent_core.session.records import MessageRecord, encode_record

MEWCODE = [sys.executable, "-m", "mewcode_tui.cli"]


def big_text(size: int) -> str:
    line = "log line with some words and a number 1234567890\n"
    return "BEGIN-OF-PASTE\n" + line * (size // len(line)) + "END-OF-PASTE\n"


def test_a_big_message_is_written_as_a_preview_and_a_file(paths: MewcodePaths) -> None:
    text = big_text(60_000)
    store = SessionStore.create(paths, model="m", provider="p", env={})
    store.append_message(user_text(text))
    store.append_message(Message(role="assistant", content=[TextBlock("ok")]))
    store.close()
    assert store.path.stat().st_size < 8_000
    saved = list((store.dir / "tool-results").glob("message-*.txt"))
    assert len(saved) == 1 and saved[0].read_text() == text
    loaded = load_session(store.path)
    preview = loaded.messages[0].text()
    assert preview.startswith("BEGIN-OF-PASTE") and "END-OF-PASTE" not in preview
    assert f"full message saved to {saved[0]}" in preview


def test_a_resumed_huge_message_is_not_resent_nor_doubled(
    fake_llm, project: Path, paths: MewcodePaths, mewcode_home: Path
) -> None:
    # Written whole, as an older version did: 8 MB in one user message.
    store = SessionStore.create(paths, model="m", provider="p", env={})
    store.close()
    huge = big_text(8_000_000)
    with open(store.path, "ab") as fh:
        fh.write(encode_record(MessageRecord(message=user_text(huge))))
        fh.write(encode_record(MessageRecord(message=Message("assistant", [TextBlock("ok")]))))
    size = store.path.stat().st_size
    env = {**os.environ, **fake_llm.env("anthropic"), "MEWCODE_HOME": str(mewcode_home)}
    fake_llm.script([{"text": "fine"}, {"text": "fine again"}])
    for _ in range(2):
        proc = subprocess.run(
            [*MEWCODE, "-p", "--continue", "next", "--cwd", str(project)],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert proc.returncode == 0, proc.stderr
    for request in fake_llm.requests:
        assert len(json.dumps(request.body)) < 100_000
        assert "END-OF-PASTE" not in json.dumps(request.body)
    assert store.path.stat().st_size < size + 10_000  # two short turns, no copy
    saved = list((store.dir / "tool-results").glob("message-*.txt"))
    assert len(saved) == 1  # saved once, found again on the second resume
    assert saved[0].read_text() == huge


def test_a_fork_of_a_big_message_keeps_only_the_preview(paths: MewcodePaths) -> None:
    source = SessionStore.create(paths, model="m", provider="p", env={})
    source.append_message(user_text(big_text(200_000)))
    source.append_message(Message(role="assistant", content=[TextBlock("ok")]))
    fork, loaded = SessionStore.fork(paths, source.session_id, model="m", provider="p", env={})
    fork.close()
    source.close()
    assert fork.path.stat().st_size < 8_000
    assert loaded.messages[0].text().startswith("BEGIN-OF-PASTE")
    assert len(loaded.messages[0].text()) < 5_000


def test_a_huge_prompt_is_previewed_in_its_own_turn_too(
    fake_llm, project: Path, mewcode_home: Path
) -> None:
    huge = big_text(2_000_000)
    env = {**os.environ, **fake_llm.env("anthropic"), "MEWCODE_HOME": str(mewcode_home)}
    fake_llm.script(
        [
            {"tool_calls": [{"id": "r1", "name": "LS", "input": {"path": "."}}]},
            {"text": "read the preview"},
        ]
    )
    proc = subprocess.run(
        [*MEWCODE, "-p", "--cwd", str(project)],
        input=huge,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    sizes = [len(json.dumps(r.body)) for r in fake_llm.requests]
    assert len(sizes) == 2 and max(sizes) < 100_000
    saved = list(mewcode_home.rglob("message-*.txt"))
    assert len(saved) == 1 and saved[0].read_text() == huge
    assert "END-OF-PASTE" not in json.dumps(fake_llm.requests[0].body)
