"""The skills index a prompt gets (pure): the top few names and descriptions, within budgets."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from agent_core.skills.scoring import SkillCard

CUT = "…"
HEADER = (
    "<skills>\n"
    "Skills that may help with this request. To use one, call the Skill tool with its name"
    " before you start; its instructions arrive with the next tool results.\n"
)
FOOTER = "</skills>"


@dataclass(frozen=True)
class IndexBudget:
    """The index's limits: how many skills, and how many characters each entry and the index."""

    top: int = 5
    entry_chars: int = 300
    index_chars: int = 4_000


DEFAULT_BUDGET = IndexBudget()


def entry(card: SkillCard, chars: int) -> str:
    """``- name: description`` cut to ``chars`` characters (the cut marked)."""
    line = f"- {card.name}: {card.description}"
    return line if len(line) <= chars else line[: chars - len(CUT)] + CUT


def skills_index(ranked: Sequence[SkillCard], budget: IndexBudget = DEFAULT_BUDGET) -> str:
    """The index block for the best ``budget.top`` cards; "" when there are none.

    Entries that would take the whole block past ``index_chars`` are left out whole.
    """
    lines: list[str] = []
    size = len(HEADER) + len(FOOTER)
    for card in ranked[: budget.top]:
        line = entry(card, budget.entry_chars) + "\n"
        if size + len(line) > budget.index_chars:
            break
        lines.append(line)
        size += len(line)
    return HEADER + "".join(lines) + FOOTER if lines else ""
