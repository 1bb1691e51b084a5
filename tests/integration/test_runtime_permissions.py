"""Permissions through the runtime: human answers, saved rules, audit (docs/security.md#permissions)."""

from __future__ import annotations

import asyncio
import json

import yaml

from agent_core import events as ev
from agent_core.agent.runtime import Runtime, RuntimeOptions
from agent_core.channel import RendezvousChannel
from agent_core.config.settings import load_settings
from agent_core.config.trust import record_trust
from tests.helpers.scripted import ScriptedProvider, Step


async def turn(
    paths, project, steps, answer: str | None, env_key: str = ""
) -> tuple[Runtime, list]:
    provider = ScriptedProvider(steps)
    runtime = await Runtime.open(
        RuntimeOptions(cwd=project, paths=paths, settings=load_settings(paths), provider=provider)
    )
    channel: RendezvousChannel = RendezvousChannel()
    seen: list = []

    async def consume() -> None:
        async for event in channel:
            seen.append(event)
            if isinstance(event, ev.ApprovalRequested):
                runtime.answer_approval(event.approval_id, ev.ApprovalReply(answer or "deny"))
            if isinstance(event, ev.TurnCompleted):
                return

    consumer = asyncio.create_task(consume())
    await runtime.run_turn("go", channel, can_ask=answer is not None)
    await consumer
    await runtime.close()
    return runtime, seen


def bash(call_id: str, command: str) -> Step:
    return Step(calls=[(call_id, "Bash", {"command": command})])


async def test_always_allow_is_saved_and_honoured_in_the_next_session(paths, project) -> None:
    _, seen = await turn(
        paths, project, [bash("b1", "touch one.txt"), Step(text="ok")], "allow_always"
    )
    asks = [e for e in seen if isinstance(e, ev.ApprovalRequested)]
    assert len(asks) == 1 and asks[0].suggested_rules == ["Bash(touch:*)"]
    assert (project / "one.txt").exists()
    saved = yaml.safe_load(paths.local_settings.read_text())
    assert saved["permissions"]["allow"] == ["Bash(touch:*)"]

    record_trust(paths)  # settings.local.yaml lives in the checkout: it applies once trusted
    runtime, seen = await turn(
        paths, project, [bash("b2", "touch two.txt"), Step(text="ok")], "deny"
    )
    assert not [e for e in seen if isinstance(e, ev.ApprovalRequested)]
    assert (project / "two.txt").exists()
    decision = next(e for e in seen if isinstance(e, ev.PermissionDecision))
    assert decision.layer == "rules" and decision.rule == "Bash(touch:*)"
    assert any(
        r.rule == "Bash(touch:*)" and r.source == str(paths.local_settings) for r in runtime.rules()
    )


async def test_a_compound_command_saves_one_rule_per_part(paths, project) -> None:
    _, seen = await turn(
        paths, project, [bash("b1", "mkdir -p out && touch out/a"), Step(text="ok")], "allow_always"
    )
    ask = next(e for e in seen if isinstance(e, ev.ApprovalRequested))
    assert ask.suggested_rules == ["Bash(mkdir:*)", "Bash(touch:*)"]
    assert (
        yaml.safe_load(paths.local_settings.read_text())["permissions"]["allow"]
        == ask.suggested_rules
    )


async def test_blacklist_holds_even_in_bypass_mode_and_the_model_is_told(paths, project) -> None:
    provider = ScriptedProvider(
        [bash("b1", "cd / && sudo rm -rf --no-preserve-root /"), Step(text="ok")]
    )
    runtime = await Runtime.open(
        RuntimeOptions(
            cwd=project,
            paths=paths,
            settings=load_settings(paths),
            provider=provider,
            mode="bypassPermissions",
        )
    )
    done = await runtime.run_turn("destroy", None, can_ask=False)
    await runtime.close()
    assert done.stop_reason == "end_turn"
    result = runtime.history[2].content[0]
    assert result.is_error and "blacklist" in result.content


async def test_audit_log_records_decisions_and_runs_without_secrets(
    paths, project, monkeypatch
) -> None:
    secret = "sk-ant-api03-SECRETSECRETSECRET"
    monkeypatch.setenv("ANTHROPIC_API_KEY", secret)
    runtime, _ = await turn(
        paths,
        project,
        [bash("b1", f"echo {secret} > key.txt; exit 3"), Step(text="ok")],
        "allow_once",
    )
    lines = [
        json.loads(line) for line in (runtime.store.dir / "audit.jsonl").read_text().splitlines()
    ]
    decision = next(r for r in lines if r["kind"] == "decision")
    assert (
        decision["decision"] == "allow"
        and decision["layer"] == "user"
        and decision["who"] == "user"
    )
    executed = next(r for r in lines if r["kind"] == "exec")
    assert executed["exit_code"] == 3 and executed["duration_ms"] >= 0 and "command" in executed
    raw = (runtime.store.dir / "audit.jsonl").read_text() + runtime.store.path.read_text()
    assert secret not in raw


async def test_always_allow_with_a_broken_local_settings_file_loses_nothing(paths, project) -> None:
    paths.local_settings.parent.mkdir(parents=True)
    # Broken, but without rules (a broken file that may hold rules stops mewcode).
    paths.local_settings.write_text("model: [unclosed\n")
    _, seen = await turn(
        paths, project, [bash("b1", "touch one.txt"), Step(text="ok")], "allow_always"
    )
    assert (project / "one.txt").exists()  # the user's yes still counts
    notices = [e.message for e in seen if isinstance(e, ev.Notice)]
    assert any("rule not saved" in n and "settings.local.yaml" in n for n in notices)
    assert paths.local_settings.read_text() == "model: [unclosed\n"


async def test_an_edit_waiting_for_approval_carries_its_diff_and_a_denial_changes_nothing(
    paths, project
) -> None:
    (project / "a.py").write_text("x = 1\n")
    edit = {"file_path": "a.py", "old_string": "x = 1", "new_string": "x = 2"}
    steps = [Step(calls=[("e1", "Read", {"file_path": "a.py"}), ("e0", "Glob", {"pattern": "*"})])]
    steps += [Step(calls=[("e2", "Edit", edit)]), Step(text="ok")]
    _, seen = await turn(paths, project, steps, "deny")
    ask = next(e for e in seen if isinstance(e, ev.ApprovalRequested))
    assert ask.kind == "tool" and ask.tool == "Edit"
    assert ask.diff is not None and "-x = 1" in ask.diff and "+x = 2" in ask.diff
    assert (project / "a.py").read_text() == "x = 1\n"


async def test_an_approval_is_answered_by_id_through_the_session(paths, project) -> None:
    # A front end answers by approval id; the first answer wins, a plan's answer never fits.
    provider = ScriptedProvider([bash("b1", "touch by-id.txt"), Step(text="ok")])
    runtime = await Runtime.open(
        RuntimeOptions(cwd=project, paths=paths, settings=load_settings(paths), provider=provider)
    )
    channel: RendezvousChannel = RendezvousChannel()
    answers: list[bool] = []

    async def consume() -> None:
        async for event in channel:
            if isinstance(event, ev.ApprovalRequested):
                assert runtime.approvals.waiting() == [event.approval_id]
                assert not runtime.answer_approval("appr_unknown", ev.ApprovalReply("deny"))
                plan = ev.PlanAnswer("accept_edits")
                assert not runtime.answer_approval(event.approval_id, plan)  # not a plan's
                reply = ev.ApprovalReply("allow_once")
                answers.append(runtime.answer_approval(event.approval_id, reply))
                answers.append(runtime.answer_approval(event.approval_id, reply))
            if isinstance(event, ev.TurnCompleted):
                return

    consumer = asyncio.create_task(consume())
    done = await runtime.run_turn("go", channel)
    await consumer
    await runtime.close()
    assert done.stop_reason == "end_turn"
    assert answers == [True, False]  # the first answer wins; a second finds nothing waiting
    assert (project / "by-id.txt").exists()
    assert runtime.approvals.waiting() == []
