"""An @-mentioned file: sent to the model by the real runtime, and shown as a chip."""

from __future__ import annotations

import pytest

from agent_core.messages import TextBlock
from mewcode_tui.transcript import UserEntry
from mewcode_tui.widgets.message_view import UserMessageView
from tests.helpers.scripted import ScriptedProvider, Step
from tests.tui.conftest import session_started, wait_until
from tests.tui.test_main_real_runtime import make_real_app


@pytest.mark.slow
async def test_the_sent_prompt_shows_a_chip_for_the_attached_file(options, project):
    (project / "a.py").write_text("print('attached marker')\n")
    provider = ScriptedProvider([Step(text="It prints a marker.")])
    app = make_real_app(options, provider)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await session_started(pilot, app)
        await pilot.press(*"explain @a.py please")
        await wait_until(pilot, lambda: not screen.menu.is_open)
        await pilot.press("enter")
        await wait_until(pilot, lambda: provider.requests and not screen.turn_active)
        await pilot.pause()
        first = provider.requests[0].messages[0]
        texts = [b.text for b in first.content if isinstance(b, TextBlock)]
        assert texts[0] == "explain @a.py please"
        assert any("print('attached marker')" in t for t in texts[1:])
        entry = next(e for e in screen.transcript.entries if isinstance(e, UserEntry))
        view = screen.chat.view(entry)
        assert isinstance(view, UserMessageView)
        shown = str(view.render())
        assert "explain @a.py please" in shown
        assert "a.py · 25 B" in shown  # the chip: name and size
        assert "attached marker" not in shown  # the content goes to the model, not the chat


def test_a_resumed_prompt_shows_its_chip_not_the_file_content(paths, project):
    from agent_core.agent.attachments import AttachmentBudget, attach_mentions
    from agent_core.agent.permission_gate import SettingsPermissionGate
    from agent_core.config.settings import Settings
    from agent_core.messages import Message
    from agent_core.protocol.history import report_of
    from mewcode_tui.transcript import transcript_from_history

    (project / "a.py").write_text("print('attached marker')\n")
    gate = SettingsPermissionGate(paths, Settings(), [], lambda: "default")
    got = attach_mentions("explain @a.py", project, gate, AttachmentBudget())
    saved = Message(role="user", content=[TextBlock("explain @a.py"), *got.blocks])
    (entry,) = transcript_from_history(report_of([saved])).entries
    assert isinstance(entry, UserEntry)
    assert entry.text == "explain @a.py"
    assert [(f.path, f.size) for f in entry.attachments] == [("a.py", 25)]
