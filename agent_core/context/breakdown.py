"""What fills the context window, by category, adding up to the one context figure.

The figure (``ContextManager.estimate``) is the provider's count for the last
request plus an estimate of what was appended since, or a whole estimate when
no count applies. Categories can only be estimated from their text (about 4
characters a token), so they are fitted to that figure: message framing, which
no category's text holds, goes to "messages", and a provider's count rescales
them all. ``/status``, ``/context`` and the status bar thus show one number.
"""

from __future__ import annotations

from collections.abc import Sequence

from agent_core.context.compaction import is_summary
from agent_core.context.tokens import estimate_block_tokens, estimate_message_tokens
from agent_core.messages import Message, ToolResultBlock


def estimated_parts(
    history: Sequence[Message], system_tokens: int, tools_tokens: int
) -> dict[str, int]:
    """Each category estimated from its own text."""
    summary = messages = results = 0
    for msg in history:
        if is_summary(msg):
            summary += estimate_message_tokens([msg])
            continue
        for block in msg.content:
            if isinstance(block, ToolResultBlock):
                results += estimate_block_tokens(block)
            else:
                messages += estimate_block_tokens(block)
    return {
        "system_prompt": system_tokens,
        "tool_definitions": tools_tokens,
        "summary": summary,
        "messages": messages,
        "tool_results": results,
    }


def fit_parts(parts: dict[str, int], total: int, *, counted: bool) -> dict[str, int]:
    """``parts`` adjusted to add up to ``total``.

    Not ``counted`` (a whole estimate): the difference is message framing, given to
    "messages". ``counted`` (a provider's figure): every part is scaled, largest
    remainders rounding up, so each keeps its share.
    """
    estimated = sum(parts.values())
    if estimated == total:
        return dict(parts)
    if not counted or estimated == 0:
        return {**parts, "messages": max(0, parts["messages"] + total - estimated)}
    exact = {k: v * total / estimated for k, v in parts.items()}
    fitted = {k: int(v) for k, v in exact.items()}
    short = total - sum(fitted.values())
    for key in sorted(exact, key=lambda k: exact[k] - fitted[k], reverse=True)[:short]:
        fitted[key] += 1
    return fitted
