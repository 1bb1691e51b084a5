"""/context's categories are fitted to the one context figure."""

from __future__ import annotations

import pytest

from agent_core.context.breakdown import fit_parts

PARTS = {"system_prompt": 300, "tool_definitions": 600, "summary": 0, "messages": 90,
         "tool_results": 10}  # fmt: skip


@pytest.mark.parametrize("total", [1_000, 1_040, 17, 5_003, 0])
def test_counted_parts_are_scaled_to_the_providers_figure(total: int) -> None:
    fitted = fit_parts(PARTS, total, counted=True)
    assert sum(fitted.values()) == total
    assert fitted["tool_definitions"] >= fitted["system_prompt"] >= fitted["messages"]
    assert fitted["summary"] == 0


def test_an_estimate_gives_message_framing_to_messages() -> None:
    fitted = fit_parts(PARTS, 1_040, counted=False)
    assert fitted == {**PARTS, "messages": 130}


def test_nothing_estimated_yet_puts_the_figure_under_messages() -> None:
    empty = dict.fromkeys(PARTS, 0)
    assert fit_parts(empty, 25, counted=True) == {**empty, "messages": 25}
