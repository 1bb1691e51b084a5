"""An "always allow" on a destructive command saves that command, not every use of its program."""

from __future__ import annotations

import yaml

from agent_core import events as ev
from agent_core.config.trust import record_trust
from tests.helpers.scripted import Step
from tests.integration.test_runtime_permissions import bash, turn


async def test_always_on_rm_saves_exactly_that_rm_and_the_next_rm_still_asks(
    paths, project
) -> None:
    (project / "a.txt").write_text("a")
    (project / "b.txt").write_text("b")
    _, seen = await turn(paths, project, [bash("r1", "rm a.txt"), Step(text="ok")], "allow_always")
    ask = next(e for e in seen if isinstance(e, ev.ApprovalRequested))
    assert ask.suggested_rules == ["Bash(rm a.txt)"]  # what the dialog says "always" saves
    assert not (project / "a.txt").exists()
    saved = yaml.safe_load(paths.local_settings.read_text())
    assert saved["permissions"]["allow"] == ["Bash(rm a.txt)"]

    record_trust(paths)  # settings.local.yaml applies once the project is trusted
    _, seen = await turn(paths, project, [bash("r2", "rm b.txt"), Step(text="ok")], "deny")
    asks = [e for e in seen if isinstance(e, ev.ApprovalRequested)]
    assert len(asks) == 1 and asks[0].tool == "Bash"
    assert (project / "b.txt").exists()  # denied: the saved rule did not cover it
