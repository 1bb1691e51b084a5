"""The model table: prefix lookup, defaults and cost arithmetic."""

from __future__ import annotations

import pytest

from agent_core.llm.pricing import DEFAULT, cost_usd, model_info
from agent_core.usage import Usage


@pytest.mark.parametrize(
    ("model", "entry"),
    [
        ("claude-sonnet-4-5-20250929", "claude-sonnet-4"),
        ("claude-opus-4-5", "claude-opus-4-5"),
        ("claude-opus-4-20250514", "claude-opus-4"),
        ("claude-opus-4-1-20250805", "claude-opus-4-1"),
        ("claude-haiku-4-5-20251001", "claude-haiku-4-5"),
        ("claude-sonnet-4-6[1m]", "claude-sonnet-4-6"),
        ("gpt-4.1-2025-04-14", "gpt-4.1"),
        ("gpt-4.1-mini", "gpt-4.1-mini"),
        ("gpt-4o-mini-2024-07-18", "gpt-4o-mini"),
        ("gpt-5.4-nano-2026-03-17", "gpt-5.4-nano"),
        ("gpt-5-mini-2025-08-07", "gpt-5-mini"),
        ("openai/gpt-4o", "gpt-4o"),
        ("o3-mini-2025-01-31", "o3-mini"),
        ("o4-mini", "o4-mini"),
        ("DeepSeek-Chat", "deepseek-chat"),
    ],
)
def test_dated_and_prefixed_ids_find_their_family(model: str, entry: str) -> None:
    assert model_info(model).model == entry


@pytest.mark.parametrize("model", ["llama3.1:8b", "o30", "gpt-50", "qwen2.5-coder", ""])
def test_unknown_models_get_a_128k_free_default(model: str) -> None:
    info = model_info(model)
    assert info == DEFAULT
    assert info.context_window == 128_000 and cost_usd(model, Usage(10**6, 10**6)) == 0.0


def test_cost_uses_all_four_prices() -> None:
    # Sonnet 4.x: $3 in, $15 out, $3.75 cache write, $0.30 cache read per million.
    usage = Usage(input_tokens=1000, output_tokens=2000, cache_read_tokens=10_000,
                  cache_write_tokens=4000)  # fmt: skip
    expected = (1000 * 3 + 2000 * 15 + 4000 * 3.75 + 10_000 * 0.30) / 1_000_000
    assert cost_usd("claude-sonnet-4-5", usage) == pytest.approx(expected)


def test_opus_price_cut_from_4_5_on() -> None:
    assert model_info("claude-opus-4-1").input == 15.0
    assert model_info("claude-opus-4-5-20251101").input == 5.0


def test_windows_are_large_enough_for_the_families() -> None:
    assert model_info("claude-sonnet-4-5").context_window == 200_000
    assert model_info("gpt-4.1").context_window > 1_000_000
    assert model_info("gpt-4o").max_output_tokens == 16_384


@pytest.mark.parametrize(
    ("model", "known"),
    [("claude-sonnet-4-5", True), ("openrouter/openai/gpt-4o", True), ("acme-7b", False)],
)
def test_a_budget_cannot_hold_for_a_model_with_no_price(model: str, known: bool) -> None:
    from agent_core.llm.pricing import price_known, unenforceable_budget

    assert price_known(model) is known
    reason = unenforceable_budget(model)
    assert (reason is None) is known
    if reason is not None:
        assert reason.startswith(f"no price is known for model {model}, so --max-budget-usd")
        assert "\n" not in reason
