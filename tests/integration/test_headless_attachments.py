"""`mewcode -p "explain @a.py"` sends the file's content, through the real SDKs (docs/manual.md#the-full-screen-ui, mentioning files)."""

from __future__ import annotations

import json

import pytest

from mewcode_tui.cli import main


def run_cli(args, env, cwd, monkeypatch, capsys) -> tuple[int, str, str]:
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    code = main([*args, "--cwd", str(cwd)])
    out, err = capsys.readouterr()
    return code, out, err


def first_user_message(body: dict) -> str:
    """The first user message of a request, as the vendor's JSON (either wire)."""
    user = next(m for m in body["messages"] if m["role"] == "user")
    return json.dumps(user["content"])


@pytest.mark.parametrize("wire", ["anthropic", "openai"])
def test_a_mentioned_file_is_sent_with_the_prompt(
    wire, fake_llm, project, mewcode_home, monkeypatch, capsys
):
    (project / "a.py").write_text("def answer():\n    return 42  # the marker\n")
    fake_llm.script([{"text": "It returns 42."}])
    code, out, err = run_cli(
        ["-p", "explain @a.py"], fake_llm.env(wire), project, monkeypatch, capsys
    )
    assert code == 0, err
    sent = first_user_message(fake_llm.requests[0].body)
    assert "explain @a.py" in sent
    assert "return 42  # the marker" in sent and "a.py" in sent


def test_a_read_denied_file_is_not_sent_and_the_user_is_told(
    fake_llm, project, mewcode_home, monkeypatch, capsys
):
    (project / "secret.txt").write_text("hunter2-marker\n")
    fake_llm.script([{"text": "ok"}])
    code, _, err = run_cli(
        ["-p", "show @secret.txt", "--disallowedTools", "Read(secret.txt)"],
        fake_llm.env("anthropic"),
        project,
        monkeypatch,
        capsys,
    )
    assert code == 0, err
    assert "hunter2-marker" not in json.dumps(fake_llm.requests[0].body)
    assert "@secret.txt: not attached" in err


def test_a_big_file_is_cut_to_the_budget_with_a_note(
    fake_llm, project, mewcode_home, monkeypatch, capsys
):
    (project / "big.log").write_text("".join(f"entry {i:06d}\n" for i in range(30_000)))  # 390 KB
    fake_llm.script([{"text": "ok"}])
    code, _, err = run_cli(
        ["-p", "summarise @big.log"], fake_llm.env("anthropic"), project, monkeypatch, capsys
    )
    assert code == 0, err
    sent = first_user_message(fake_llm.requests[0].body)
    assert "entry 000000" in sent and "entry 029999" not in sent
    assert "only the first" in sent  # the model is told the file goes on
    assert len(sent) < 120_000
    assert "@big.log: only the first 100 KB of 390 KB attached" in err
