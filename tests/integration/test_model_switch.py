"""Switching the model mid-session (`/model`) through the session interface (issue 11).

The new model's window decides when automatic compaction runs, and the old
provider's HTTP client is closed.
"""

from __future__ import annotations

import pytest

from agent_core.agent.runtime import Runtime, RuntimeOptions
from agent_core.config.settings import load_settings
from agent_core.errors import MewCodeError
from agent_core.llm.anthropic_provider import AnthropicProvider
from tests.integration.test_runtime_context import SUMMARY, is_summary_request, run

BIG = {"input_tokens": 300_000, "output_tokens": 10}  # within 1M, over a 200k window


async def open_on_large_window(fake_llm, project, paths) -> Runtime:
    provider = AnthropicProvider(  # claude-sonnet-4-6: a 1M-token window
        "claude-sonnet-4-6", api_key="test-key", base_url=fake_llm.anthropic_base_url, retries=0
    )
    env = {"ANTHROPIC_API_KEY": "test-key", "ANTHROPIC_BASE_URL": fake_llm.anthropic_base_url}
    return await Runtime.open(
        RuntimeOptions(
            cwd=project, paths=paths, settings=load_settings(paths), provider=provider, env=env
        )
    )


async def test_a_smaller_window_after_model_switch_triggers_compaction(
    fake_llm, project, paths
) -> None:
    fake_llm.responder = lambda body: (
        {"text": SUMMARY} if is_summary_request(body) else {"text": "ok", "usage": BIG}
    )
    runtime = await open_on_large_window(fake_llm, project, paths)
    try:
        for n in range(4):  # enough turns that older ones can be summarised
            await run(runtime, f"question {n}")
        assert not any(is_summary_request(r.body) for r in fake_llm.requests)
        budget_before = runtime.context_breakdown()["compaction_budget"]
        old = runtime.provider

        await runtime.switch_model("claude-3-5-haiku")  # a 200k-token window

        assert runtime.provider.model == "claude-3-5-haiku" and runtime.provider is not old
        assert old._client is None  # the old client was closed, not leaked
        assert runtime.context_window == 200_000
        assert runtime.context_breakdown()["compaction_budget"] < min(budget_before, 200_000)
        await run(runtime, "third question")
        summaries = [r for r in fake_llm.requests if is_summary_request(r.body)]
        assert len(summaries) == 1, "the 300k-token history must be summarised for a 200k window"
        assert summaries[0].body["model"] == "claude-3-5-haiku"
    finally:
        await runtime.close()


async def test_a_failed_switch_keeps_the_current_model(fake_llm, project, paths) -> None:
    runtime = await open_on_large_window(fake_llm, project, paths)
    try:
        with pytest.raises(MewCodeError, match="no API key configured"):
            await runtime.switch_model("gpt-4.1", "openai")
        assert runtime.provider.model == "claude-sonnet-4-6"
        assert runtime.context_window == 1_000_000
    finally:
        await runtime.close()
