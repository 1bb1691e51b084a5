"""Compaction through the real Anthropic SDK and provider against the fake LLM server."""

from __future__ import annotations

import re

from agent_core.config.settings import Limits
from agent_core.context import SUMMARY_HEADINGS, ContextManager
from agent_core.llm.anthropic_provider import AnthropicProvider
from agent_core.messages import Message, TextBlock, user_text
from agent_core.session.repair import history_problems

SUMMARY = "\n".join(f"## {h}\n- point" for h in SUMMARY_HEADINGS)
FITS = 12  # turns the fake model accepts in one summary request


def turns_in(body: dict) -> int:
    text = "".join(b.get("text", "") for b in body["messages"][0]["content"])
    return len(re.findall(r"^USER: question \d+", text, re.M))


def answer(body: dict) -> dict:
    if turns_in(body) > FITS:
        return {"status": 400, "message": "prompt is too long: 210000 tokens > 200000 maximum"}
    return {"text": SUMMARY, "usage": {"input_tokens": 900, "output_tokens": 120}}


async def test_summary_over_the_wire_with_too_long_retries(fake_llm, tmp_path):
    fake_llm.responder = answer
    provider = AnthropicProvider(
        "claude-test", api_key="test-key", base_url=fake_llm.anthropic_base_url, retries=0
    )
    mgr = ContextManager(Limits(), 40_000, 8_000, tmp_path)
    history: list[Message] = []
    for i in range(30):
        history += [
            user_text(f"question {i} " + "q" * 2_000),
            Message(role="assistant", content=[TextBlock(f"answer {i} " + "a" * 2_000)]),
        ]

    outcome = await mgr.before_round(history, provider=provider, tool_names=["Read", "Edit"])

    assert outcome is not None and outcome.compacted, outcome and outcome.warning
    counts = [turns_in(r.body) for r in fake_llm.requests]
    assert counts[0] > FITS
    assert all(a - b == 1 for a, b in zip(counts[:4], counts[1:4], strict=False))
    assert counts[-1] <= FITS < counts[-2]
    assert counts[3] - counts[4] > 1  # then 20 % of the groups per retry
    head = outcome.new_history[0].text()
    assert all(h in head for h in SUMMARY_HEADINGS)
    assert history_problems(outcome.new_history) == []
    assert outcome.new_history[-2:] == history[-2:]
    # The summary request went out as a plain request: no tools, our own system prompt.
    body = fake_llm.requests[-1].body
    assert "tools" not in body or body["tools"] == []
    assert "summaries of coding sessions" in str(body["system"])


def short_history(turns: int = 8, size: int = 100) -> list[Message]:
    history: list[Message] = []
    for i in range(turns):
        history += [
            user_text(f"question {i} " + "q" * size),
            Message(role="assistant", content=[TextBlock(f"answer {i} " + "a" * size)]),
        ]
    return history


async def test_a_summary_longer_than_what_it_replaces_is_not_used(fake_llm, tmp_path):
    long_summary = "\n".join(f"## {h}\n" + "- a long point " * 200 for h in SUMMARY_HEADINGS)
    fake_llm.script([{"text": long_summary}])
    provider = AnthropicProvider(
        "claude-test", api_key="test-key", base_url=fake_llm.anthropic_base_url, retries=0
    )
    mgr = ContextManager(Limits(), 40_000, 8_000, tmp_path)
    history = short_history()

    outcome = await mgr.compact(history, provider=provider, tool_names=["Read"])

    assert not outcome.compacted and outcome.new_history is history
    assert outcome.warning is not None
    found = re.fullmatch(
        r"not compacted: the summary \(([\d,]+) tokens\) would not be smaller than "
        r"what it replaces \(([\d,]+)\)",
        outcome.warning,
    )
    assert found, outcome.warning
    summary_tokens, replaced = (int(g.replace(",", "")) for g in found.groups())
    assert summary_tokens >= replaced > 0
    assert len(fake_llm.requests) == 1


async def test_before_and_after_are_counted_the_same_way(fake_llm, tmp_path):
    """The provider counted 10 tokens for the old history: the figures ignore that count."""
    from agent_core.context.tokens import estimate_message_tokens
    from agent_core.usage import Usage

    fake_llm.script([{"text": SUMMARY}])
    provider = AnthropicProvider(
        "claude-test", api_key="test-key", base_url=fake_llm.anthropic_base_url, retries=0
    )
    mgr = ContextManager(Limits(), 40_000, 8_000, tmp_path)
    history = short_history(20, size=1_000)
    await mgr.before_round(history, provider=provider, tool_names=[], overhead_tokens=500)
    mgr.note_usage(Usage(input_tokens=10, output_tokens=5))  # a scripted model's figure

    outcome = await mgr.compact(history, provider=provider, tool_names=[], overhead_tokens=500)

    assert outcome.compacted
    assert outcome.tokens_before == 500 + estimate_message_tokens(history)
    assert outcome.tokens_after == 500 + estimate_message_tokens(outcome.new_history)
    assert outcome.tokens_after < outcome.tokens_before
    assert mgr.estimate(outcome.new_history, 500) == outcome.tokens_after  # the status bar's
