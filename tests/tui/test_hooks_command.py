"""/hooks lists hooks by event with their files; the approval dialog names a hook that asked."""

from __future__ import annotations

import json

import pytest

from mewcode_tui.screens.approval import ApprovalScreen
from tests.helpers.scripted import ScriptedProvider, Step
from tests.tui.conftest import past_key_guard, session_started, wait_until
from tests.tui.dialog_checks import make_builtin_tools_app
from tests.tui.fakes import FakeRuntime
from tests.tui.test_main_commands import notices, run
from tests.tui.test_main_tools import screen_lines


def hook(command: str, matcher: str = "", **extra) -> list[dict]:
    return [{"matcher": matcher, "hooks": [{"type": "command", "command": command, **extra}]}]


async def test_hooks_lists_active_and_waiting_hooks_with_their_files(
    make_app, project, paths
) -> None:
    user = paths.home / "settings.yaml"
    user.write_text(json.dumps({"hooks": {"PreToolUse": hook("./check.sh", "Bash", timeout=5)}}))
    claude = project / ".claude" / "settings.json"
    claude.parent.mkdir()
    hooks = {"Stop": hook("make test"), "PreToolUse": hook("x", "Edit(")}
    claude.write_text(json.dumps({"hooks": hooks}))
    app = make_app(FakeRuntime(project))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await session_started(pilot, app)
        await run(pilot, screen, "/hooks")
        listing = next(n for n in notices(screen) if n.startswith("Hooks (1)"))
        lines = listing.splitlines()
        assert lines[1] == "  PreToolUse  [Bash]  `./check.sh`  timeout 5 s"
        assert lines[2] == f"      {user}"
        assert lines[3] == "Waiting until you trust this project (1), not run:"
        assert lines[4] == "  Stop  [*]  `make test`  timeout 60 s"
        assert lines[5] == "      .claude/settings.json"
        warnings = [n for n in notices(screen) if "is not a valid regular expression" in n]
        assert warnings and str(claude) in warnings[0]


@pytest.mark.slow
async def test_the_approval_dialog_names_the_hook_that_asked(options, project, paths) -> None:
    (project / "a.txt").write_text("hello\n")
    say = {"hookSpecificOutput": {"permissionDecision": "ask", "permissionDecisionReason": "why"}}
    command = f"echo '{json.dumps(say)}'"
    (paths.home / "settings.yaml").write_text(json.dumps({"hooks": {"PreToolUse": hook(command)}}))
    provider = ScriptedProvider(
        [Step(calls=[("r1", "Read", {"file_path": "a.txt"})]), Step(text="Read it.")]
    )
    app = make_builtin_tools_app(options, provider)
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await session_started(pilot, app)
        await pilot.press(*"read a.txt", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ApprovalScreen))
        shown = "\n".join(screen_lines(app))
        assert "Asked by a hook" in shown and "PreToolUse" in shown and "why" in shown
        await past_key_guard(pilot, app)
        await pilot.press("1")
        await wait_until(pilot, lambda: not screen.turn_active)
        assert "hello" in str(provider.requests[1].messages[-1].content)
