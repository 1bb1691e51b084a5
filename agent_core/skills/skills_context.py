"""The skills index as a per-prompt block (a ``PromptContext``, docs/configuration.md#skills)."""

from __future__ import annotations

from agent_core.skills.index import DEFAULT_BUDGET, IndexBudget, skills_index
from agent_core.skills.loader import SkillLibrary
from agent_core.skills.scoring import SkillCard, rank


class SkillsContext:
    """Names the skills that fit each prompt; the model loads one with the Skill tool."""

    def __init__(self, library: SkillLibrary, budget: IndexBudget = DEFAULT_BUDGET) -> None:
        self.library = library
        self.budget = budget

    def block_for(self, prompt: str) -> str:
        skills = self.library.load().skills.values()
        cards = [SkillCard(s.name, s.description, s.tags) for s in skills]
        return skills_index(rank(cards, prompt), self.budget)
