"""A resumed session is shown as it was seen live (issue 12, item 5).

A real runtime runs a session with a denied call, an edit and a cancelled turn; a
new app resumes it, and what the user sees is compared with the live view.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from agent_core.agent.runtime import Runtime, RuntimeOptions
from agent_core.permissions.cli_rules import cli_rules
from mewcode_tui.app import MewCodeApp
from mewcode_tui.screens.diff_screen import DiffScreen
from mewcode_tui.transcript import (
    AssistantEntry,
    NoticeEntry,
    ToolRoundEntry,
    Transcript,
    UserEntry,
)
from mewcode_tui.widgets.tool_call_view import call_line
from tests.helpers.scripted import ScriptedProvider, Step
from tests.tui.conftest import wait_until


def app_over_runtime(
    options, provider: ScriptedProvider, allow: tuple[str, ...] = ("Edit", "Bash(sleep:*)")
) -> MewCodeApp:
    """The app over a real Runtime with the built-in tools: edits allowed, `rm` denied."""

    async def opener(opts, prov):
        return await Runtime.open(
            RuntimeOptions(
                cwd=opts.cwd,
                paths=opts.paths,
                settings=opts.settings,
                provider=prov,
                resume_id=opts.resume_id or None,
                cli_rules=cli_rules(list(allow), ["Bash(rm:*)"]),
            )
        )

    return MewCodeApp(options, provider=provider, opener=opener, clock=lambda: 0.0)


async def resumed_screen(pilot, app: MewCodeApp):
    """The main screen once the resumed conversation is shown."""
    screen = app.main_screen
    await wait_until(pilot, lambda: screen.session_ready)
    await wait_until(
        pilot,
        lambda: any(
            isinstance(e, NoticeEntry) and e.text.startswith("Resumed session")
            for e in screen.transcript.entries
        ),
    )
    return screen


async def cancel_when_running(pilot, screen, call_id: str) -> None:
    """Esc once the call runs; returns when the turn has ended cancelled."""
    await wait_until(
        pilot,
        lambda: (
            call_id in screen.transcript.calls
            and screen.transcript.calls[call_id].status == "running"
        ),
        timeout=20,
    )
    await pilot.press("escape")
    await wait_until(pilot, lambda: not screen.turn_active, timeout=20)
    await wait_until(pilot, lambda: "Turn cancelled." in str(seen(screen.transcript)))


def seen(transcript: Transcript) -> list[tuple]:
    """What the user reads, from the first prompt on (start-up notices aside)."""
    shown: list[tuple] = []
    for entry in transcript.entries:
        if isinstance(entry, UserEntry):
            shown.append(("user", entry.text))
        elif not shown:
            continue
        elif isinstance(entry, AssistantEntry):
            shown.append(("assistant", entry.text.strip()))
        elif isinstance(entry, NoticeEntry) and not entry.text.startswith("Resumed session"):
            shown.append(("notice", entry.level, entry.text))
        elif isinstance(entry, ToolRoundEntry):
            for c in entry.calls:
                shown.append(
                    (c.tool, c.summary, c.status, c.reason, c.duration_ms)
                    + (c.diff, c.diff_path, c.added, c.removed)
                )
    return shown


@pytest.mark.slow
async def test_a_resumed_session_shows_denials_diffs_durations_and_cancels_as_live(
    options, paths, project
):
    target = project / "app.py"
    target.write_text("x = 1\nprint(x)\n")
    provider = ScriptedProvider(
        [
            Step(calls=[("r1", "Read", {"file_path": str(target)})]),
            Step(
                calls=[
                    (
                        "e1",
                        "Edit",
                        {"file_path": str(target), "old_string": "x = 1", "new_string": "x = 2"},
                    ),
                    ("b1", "Bash", {"command": "rm app.py", "description": "Remove the file"}),
                ]
            ),
            Step(text="Edited; removing was refused."),
            Step(calls=[("b2", "Bash", {"command": "sleep 30"})]),
        ]
    )
    live_app = app_over_runtime(options, provider)
    async with live_app.run_test(size=(110, 40)) as pilot:
        screen = live_app.main_screen
        await wait_until(pilot, lambda: screen.session_ready)
        await pilot.press(*"change x", "enter")
        await wait_until(
            pilot, lambda: not screen.turn_active and len(screen.starter.runtime.history) == 6
        )
        await pilot.press(*"wait a bit", "enter")
        await cancel_when_running(pilot, screen, "b2")
        live = seen(screen.transcript)
        lines = [call_line(c, live_app).plain for c in screen.transcript.all_calls()]
        session_id = screen.starter.runtime.session_id

    calls = [row for row in live if len(row) > 3]
    assert [(tool, status) for tool, _, status, *_ in calls] == [
        ("Read", "ok"),
        ("Edit", "ok"),
        ("Bash", "denied"),
        ("Bash", "cancelled"),
    ]
    edit, denied = calls[1], calls[2]
    assert edit[4] is not None and (edit[6], edit[7], edit[8]) == ("app.py", 1, 1)
    assert denied[3].startswith("denied by rule Bash(rm:*)")
    assert live[-1] == ("notice", "warning", "Turn cancelled.")

    resumed_app = app_over_runtime(replace(options, resume_id=session_id), ScriptedProvider([]))
    async with resumed_app.run_test(size=(110, 40)) as pilot:
        screen = await resumed_screen(pilot, resumed_app)
        resumed = seen(screen.transcript)
        # Status words, denial reasons, durations, summaries, diffs and +/-: as live.
        assert resumed == live
        assert [call_line(c, resumed_app).plain for c in screen.transcript.all_calls()] == lines
        assert not any("[cancelled by user]" in str(row) for row in resumed)
        # `d` on the edit opens the full diff, with the diff text.
        edit_record = screen.transcript.calls["e1"]
        await wait_until(pilot, lambda: screen.chat.line_for("e1") is not None)
        screen.chat.line_for("e1").focus()
        await pilot.press("d")
        await wait_until(pilot, lambda: isinstance(resumed_app.screen, DiffScreen))
        assert resumed_app.screen.unified_diff == edit_record.diff
        assert "-x = 1" in edit_record.diff and "+x = 2" in edit_record.diff


@pytest.mark.slow
async def test_after_compact_a_resumed_command_turn_shows_the_typed_words_and_no_marker(
    options, paths, project
):
    """/init cancelled, then /compact: the resume shows "/init" and the cancel, as live."""
    from agent_core.context import SUMMARY_HEADINGS
    from tests.tui.test_session_commands import command, wait_for_notice

    summary = "\n".join(f"{h}\n- point" for h in SUMMARY_HEADINGS)
    provider = ScriptedProvider(
        [
            Step(text="Explained. " * 400),  # long enough for its summary to be smaller
            Step(text="Short answer."),
            Step(text="Another short answer."),
            Step(calls=[("b1", "Bash", {"command": "sleep 30"})]),
            Step(text=summary),
        ]
    )
    live_app = app_over_runtime(options, provider)
    async with live_app.run_test(size=(110, 40)) as pilot:
        screen = live_app.main_screen
        await wait_until(pilot, lambda: screen.session_ready)
        for n, prompt in enumerate(["explain the code", "and then?", "one more"], start=1):
            await pilot.press(*prompt, "enter")
            await wait_until(
                pilot,
                lambda n=n: not screen.turn_active and len(screen.starter.runtime.history) == 2 * n,
            )
        await command(pilot, screen, "/init")
        await cancel_when_running(pilot, screen, "b1")
        await command(pilot, screen, "/compact")
        await wait_for_notice(pilot, screen, "Compacted:")
        live = seen(screen.transcript)
        session_id = screen.starter.runtime.session_id
        history = screen.starter.runtime.history
        assert history[-1].text() == "[cancelled by user]"  # kept verbatim by the summary
        assert history[0].text().startswith("[Summary of the earlier conversation]")

    start = live.index(("user", "/init "))
    live_tail = live[start : live.index(("notice", "warning", "Turn cancelled.")) + 1]
    resumed_app = app_over_runtime(replace(options, resume_id=session_id), ScriptedProvider([]))
    async with resumed_app.run_test(size=(110, 40)) as pilot:
        resumed = seen((await resumed_screen(pilot, resumed_app)).transcript)
    assert ("user", "/init ") in resumed
    tail = resumed[resumed.index(("user", "/init ")) :]
    assert tail == live_tail
    assert not any("[cancelled by user]" in str(row) for row in resumed)
    assert not any("Analyse this codebase" in str(row) for row in resumed)
