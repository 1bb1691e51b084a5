"""The recalled facts for one prompt, as a block of the environment block (a ``PromptContext``)."""

from __future__ import annotations

from agent_core.memory.long_term import GLOBAL, LongTermMemory
from agent_core.memory.recall import Fact
from agent_core.memory.store import MemoryUnavailable

HEADING = "Things the user asked you to remember (long-term memory; may be out of date):"


def recall_block(facts: list[Fact]) -> str:
    """The block for ``facts``; "" when there are none."""
    if not facts:
        return ""
    lines = [f"- {f.content}" + (" (global)" if f.scope == GLOBAL else "") for f in facts]
    return "\n".join([HEADING, *lines])


class MemoryRecall:
    """Offers the facts relevant to each prompt; nothing when memory is off."""

    def __init__(self, memory: LongTermMemory) -> None:
        self.memory = memory

    def block_for(self, prompt: str) -> str:
        try:
            return recall_block(self.memory.recall(prompt))
        except MemoryUnavailable:  # logged once by the store; a turn never fails over memory
            return ""
