"""Blocks chosen for each user prompt and added to the environment block (docs/configuration.md#long-term-memory, docs/configuration.md#skills).

Long-term memory recall and the skills index both score what they hold against
the prompt and offer the best few to the model. Each is a ``PromptContext``;
``session_prompt_contexts`` is the one list of them a session uses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from agent_core.config.paths import MewcodePaths
    from agent_core.config.settings import Settings


class PromptContext(Protocol):
    """Adds text to the environment block for one user prompt (called in a thread)."""

    def block_for(self, prompt: str) -> str:
        """The block for ``prompt``; "" when nothing is relevant."""
        ...


def session_prompt_contexts(paths: MewcodePaths, settings: Settings) -> list[PromptContext]:
    """Every prompt context of a session, in the order their blocks appear."""
    from agent_core.memory.long_term import LongTermMemory
    from agent_core.memory.recall_context import MemoryRecall
    from agent_core.skills.loader import SkillLibrary
    from agent_core.skills.skills_context import SkillsContext

    contexts: list[PromptContext] = [SkillsContext(SkillLibrary.for_session(paths))]
    contexts.append(MemoryRecall(LongTermMemory(paths)))
    return contexts
