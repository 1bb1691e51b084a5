"""`--allowedTools`, `--disallowedTools` and `--max-turns` work in the UI as in `-p` (issue 11).

The options are built from real command-line arguments by the same function
headless mode uses, and the screen opens the real runtime with them.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from mewcode_tui.app import MewCodeApp
from mewcode_tui.cli import build_parser, start_flags
from mewcode_tui.transcript import NoticeEntry
from tests.helpers.scripted import ScriptedProvider, Step
from tests.tui.conftest import wait_until


@pytest.mark.slow
async def test_rules_and_the_round_limit_from_the_command_line_apply_in_the_ui(options):
    args = build_parser().parse_args(
        ["--allowedTools", "Write", "--disallowedTools", "Bash", "--max-turns", "1"]
    )
    options = replace(options, flags=start_flags(args))
    calls = [
        ("w1", "Write", {"file_path": "a.txt", "content": "hello\n"}),
        ("b1", "Bash", {"command": "touch witness.txt"}),
    ]
    provider = ScriptedProvider([Step(text="Writing.", calls=calls), Step(text="never asked")])
    app = MewCodeApp(options, provider=provider, clock=lambda: 0.0)  # the real runtime opener
    async with app.run_test(size=(100, 34)) as pilot:
        screen = app.screen
        await wait_until(pilot, lambda: screen.session_ready)
        await screen.send_prompt("write a.txt and run a command")
        await wait_until(pilot, lambda: not screen.turn_active and "b1" in screen.transcript.calls)
        await wait_until(pilot, lambda: screen.transcript.calls["b1"].status == "denied")

        assert (options.cwd / "a.txt").read_text() == "hello\n"  # allowed: no dialog
        assert screen.transcript.calls["w1"].status == "ok"
        assert not (options.cwd / "witness.txt").exists()  # denied by the CLI rule
        assert len(provider.requests) == 1  # --max-turns 1: no second round
        notices = [e.text for e in screen.transcript.entries if isinstance(e, NoticeEntry)]
        assert any("iteration limit" in text for text in notices)
