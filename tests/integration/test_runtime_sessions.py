"""Runtime session switching: /clear, /resume and /context figures (docs/manual.md#sessions-and-context, issue 5)."""

from __future__ import annotations

from agent_core.agent.runtime import Runtime, RuntimeOptions
from agent_core.config.settings import load_settings
from agent_core.session import list_sessions
from tests.helpers.scripted import ScriptedProvider, Step


async def test_clear_starts_a_new_session_and_resume_brings_the_old_one_back(
    paths, project
) -> None:
    provider = ScriptedProvider([Step(text="kiwi noted"), Step(text="fresh start")])
    rt = await Runtime.open(
        RuntimeOptions(cwd=project, paths=paths, settings=load_settings(paths), provider=provider)
    )
    await rt.run_turn("remember kiwi", None)
    first = rt.session_id
    await rt.new_session()
    assert rt.session_id != first and rt.history == []
    await rt.run_turn("hello", None)
    listed = {s.session_id: s for s in list_sessions(paths)}
    assert listed[first].first_prompt == "remember kiwi"

    warnings = await rt.resume(first)
    assert warnings == []
    assert rt.session_id == first
    assert [m.text() for m in rt.history] == ["remember kiwi", "kiwi noted "]
    breakdown = rt.context_breakdown()
    assert breakdown["system_prompt"] > 100 and breakdown["tool_definitions"] > 500
    assert breakdown["messages"] > 0 and breakdown["context_window"] == rt.context_window
    await rt.close()


async def test_a_resumed_session_reports_its_context_use_before_the_first_turn(
    paths, project
) -> None:
    provider = ScriptedProvider([Step(text="noted " * 200)])
    rt = await Runtime.open(
        RuntimeOptions(cwd=project, paths=paths, settings=load_settings(paths), provider=provider)
    )
    await rt.run_turn("remember this " * 100, None)
    session_id = rt.session_id
    await rt.close()
    resumed = await Runtime.open(
        RuntimeOptions(
            cwd=project,
            paths=paths,
            settings=load_settings(paths),
            provider=ScriptedProvider([]),
            resume_id=session_id,
        )
    )
    # System prompt + tool definitions + the two messages, estimated.
    assert resumed.context_tokens > resumed.context_breakdown()["tool_definitions"] + 300
    await resumed.close()
