"""What one turn starts from: the prompt as recorded, the files it mentions, the facts
its requests carry and its limits."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from pathlib import Path

from agent_core.agent.attachments import (
    AttachmentBudget,
    PromptAttachments,
    ReadGate,
    attach_mentions,
)
from agent_core.agent.loop import LoopLimits
from agent_core.agent.prompt import git_summary
from agent_core.agent.prompt_context import PromptContext
from agent_core.agent.request_builder import TurnFacts
from agent_core.config.settings import Limits
from agent_core.memory.files import MemoryReach, load_memory
from agent_core.messages import TextBlock, user_text
from agent_core.sandbox.policy import SandboxPolicy
from agent_core.session.store import SessionStore


def sized_prompt(store: SessionStore, text: str) -> str:
    """A prompt over the spill limit becomes a preview and a file, as a tool result does."""
    shaped = store.at_rest_size(user_text(text))
    block = shaped.content[0] if len(shaped.content) == 1 else None
    return block.text if isinstance(block, TextBlock) else text


async def prompt_attachments(
    text: str, cwd: Path, gate: ReadGate, limits: Limits, hook_context: Sequence[str]
) -> PromptAttachments:
    """The files ``text`` mentions that Read allows, then what UserPromptSubmit hooks added."""
    budget = AttachmentBudget(limits.attach_file_bytes, limits.attach_prompt_bytes)
    attached = await asyncio.to_thread(attach_mentions, text, cwd, gate, budget)
    for context in hook_context:  # UserPromptSubmit hooks' context rides with the prompt
        attached.blocks.append(TextBlock(f"Context from a UserPromptSubmit hook:\n{context}"))
    return attached


async def turn_facts(
    cwd: Path,
    policy: SandboxPolicy,
    reach: MemoryReach,
    contexts: Sequence[PromptContext],
    prompt: str,
    overhead_tokens: Callable[[], int],
) -> TurnFacts:
    """Git state (git runs inside ``policy``, made read-only), memory files and each context's
    block for ``prompt``, read in threads at once."""
    git, memory, *chosen = await asyncio.gather(
        asyncio.to_thread(git_summary, cwd, policy),
        asyncio.to_thread(load_memory, reach),
        *(asyncio.to_thread(c.block_for, prompt) for c in contexts),
    )
    return TurnFacts(git, memory, overhead_tokens(), chosen)


def loop_limits(
    limits: Limits, max_iterations: int | None, max_budget_usd: float | None = None
) -> LoopLimits:
    """The loop's bounds: ``max_iterations`` (the command line's) over the settings' own."""
    return LoopLimits(
        max_iterations or limits.max_iterations,
        limits.hallucination_rounds,
        limits.max_concurrency,
        max_budget_usd,
    )
