"""Layer 2 planning (docs/manual.md#sessions-and-context): when to summarise, where to cut, what replaces the old part.

Pure functions over messages; the summary request itself is in summarizer.py
and the orchestration in manager.py.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import msgspec

from agent_core.config.settings import Limits
from agent_core.context.tokens import estimate_message_tokens
from agent_core.messages import (
    ImageBlock,
    Message,
    RedactedThinkingBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
    result_text,
)

SUMMARY_HEADINGS: tuple[str, ...] = (
    "1. Primary request and intent",
    "2. Key technical concepts",
    "3. Files and code sections",
    "4. Errors and fixes",
    "5. Problem solving",
    "6. All user messages",
    "7. Pending tasks",
    "8. Current work",
    "9. Next step",
)
SUMMARY_PREAMBLE = (
    "[Summary of the earlier conversation] This session continues an earlier conversation "
    "that ran out of context. The part before the messages that follow is summarised here."
)
RESTORE_SENTENCE = (
    "This is a summary: do not guess code from it; read the files again before editing."
)
ACK_TEXT = "Understood. I will continue from the summary and read files again before editing them."
MIN_KEEP = 6
KEEP_RATIO = 0.55
# Long tool inputs and outputs are cut in the text sent for summarising.
_RENDER_CHARS = 2_000


class SplitPlan(msgspec.Struct, frozen=True):
    """Where history is cut: ``older`` is summarised, ``recent`` kept verbatim."""

    cut: int
    older: list[Message]
    recent: list[Message]


class FileSnapshot(msgspec.Struct, frozen=True):
    """A file's current contents (possibly cut) for the restore block."""

    path: str
    text: str
    truncated: bool = False


def compaction_budget(limits: Limits, context_window: int, max_output: int) -> int:
    """Tokens of input allowed before a summary: min(ratio × input budget, window − output − margin).

    The input budget is what the window leaves after the reply: window − max output.
    """
    input_budget = max(context_window - max_output, 0)
    by_ratio = int(limits.compaction_budget_ratio * input_budget)
    by_margin = context_window - max_output - limits.compaction_safety_margin
    return max(min(by_ratio, by_margin), 1)


def compaction_reason(tokens: int, message_count: int, budget: int, limits: Limits) -> str | None:
    """Why layer 2 should run now ("tokens" / "cap"), or None."""
    if tokens > budget:
        return "tokens"
    if message_count > limits.history_cap_messages:
        return "cap"
    return None


def is_turn_start(msg: Message) -> bool:
    """A user message the person wrote (not one carrying tool results)."""
    return msg.role == "user" and not any(isinstance(b, ToolResultBlock) for b in msg.content)


def is_summary(msg: Message) -> bool:
    """The user message a previous compaction put at the start of history."""
    return msg.role == "user" and msg.text().startswith(SUMMARY_PREAMBLE)


def summary_head(history: Sequence[Message]) -> int:
    """How many messages at the start of ``history`` a compaction put there (summary, ack)."""
    head = 0
    for msg in history[:2]:
        if not (is_summary(msg) if head == 0 else _is_ack(msg)):
            break
        head += 1
    return head


def plan_split(
    history: Sequence[Message],
    budget: int,
    *,
    min_keep: int = MIN_KEEP,
    keep_ratio: float = KEEP_RATIO,
    max_keep: int | None = None,
) -> SplitPlan | None:
    """Choose the cut: keep the most recent messages that fit ``keep_ratio × budget``.

    At least ``min_keep`` messages are kept. The cut is before a user turn (a
    user message that is not tool results), so calls and results stay paired.
    Only when no such boundary meets the target is a cut before an assistant
    message (after a complete user message) used: pairs stay whole there too.
    When nothing meets the target, the latest boundary is used. ``max_keep``
    (if given) also caps how many messages count as fitting, so a compaction
    forced by the message cap ends well under it.
    Returns None when there is nothing worth summarising.
    """
    n = len(history)
    last = n - min_keep
    if last < 1:
        return None
    suffix = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        suffix[i] = suffix[i + 1] + estimate_message_tokens([history[i]])
    target = keep_ratio * budget
    first_allowed = 1 if max_keep is None else max(1, n - max(max_keep, min_keep))
    turns = [i for i in range(first_allowed, last + 1) if is_turn_start(history[i])]
    replies = [
        i
        for i in range(first_allowed, last + 1)
        if history[i].role == "assistant" and history[i - 1].role == "user"
    ]
    cut = _first_fitting(turns, suffix, target)
    if cut is None:
        cut = _first_fitting(sorted(turns + replies), suffix, target)
    if cut is None:
        # Nothing fits the target: keep as little as allowed.
        if not (turns or replies):
            return None
        cut = max(turns + replies)
    older = list(history[:cut])
    if all(is_summary(m) or _is_ack(m) for m in older):
        return None  # only an earlier summary: summarising it again gains nothing
    return SplitPlan(cut, older, list(history[cut:]))


def _first_fitting(candidates: list[int], suffix: list[int], target: float) -> int | None:
    return next((i for i in candidates if suffix[i] <= target), None)


def _is_ack(msg: Message) -> bool:
    return msg.role == "assistant" and msg.text() == ACK_TEXT


def turn_groups(messages: Sequence[Message]) -> list[list[Message]]:
    """Split messages into user-turn groups (each starts at a user turn)."""
    groups: list[list[Message]] = []
    for msg in messages:
        if not groups or is_turn_start(msg):
            groups.append([])
        groups[-1].append(msg)
    return groups


def groups_to_drop(retry: int, total_groups: int) -> int:
    """How many more of the oldest groups to drop on the n-th retry (1-based).

    One per retry for the first three, then 20 % of the groups per retry.
    """
    if retry <= 3:
        return 1
    return max(1, math.ceil(total_groups * 0.2))


def render_transcript(messages: Sequence[Message]) -> str:
    """The messages as plain text for the summary request."""
    parts: list[str] = []
    for msg in messages:
        for block in msg.content:
            line = _render_block(msg.role, block)
            if line:
                parts.append(line)
    return "\n\n".join(parts)


def _render_block(role: str, block: object) -> str:
    if isinstance(block, TextBlock):
        return f"{role.upper()}: {block.text}"
    if isinstance(block, ToolUseBlock):
        args = msgspec.json.encode(block.input).decode()
        return f"TOOL CALL {block.name} ({block.id}): {_cut(args)}"
    if isinstance(block, ToolResultBlock):
        status = "TOOL ERROR" if block.is_error else "TOOL RESULT"
        return f"{status} ({block.tool_use_id}): {_cut(result_text(block))}"
    if isinstance(block, ImageBlock):
        return f"{role.upper()}: [image {block.media_type}]"
    if isinstance(block, ThinkingBlock | RedactedThinkingBlock):
        return ""  # private reasoning; the answers carry what matters
    return ""


def _cut(text: str) -> str:
    if len(text) <= _RENDER_CHARS:
        return text
    return f"{text[:_RENDER_CHARS]} [... {len(text) - _RENDER_CHARS} chars left out]"


def summary_request_text(transcript: str, instructions: str = "", dropped_groups: int = 0) -> str:
    """The user message asking for the nine-section summary."""
    headings = "\n".join(SUMMARY_HEADINGS)
    lines = [
        "<conversation>",
        transcript,
        "</conversation>",
        "",
        "Summarise the conversation above so that the work can go on from the summary alone.",
        "Write exactly these nine sections, with these headings, in this order:",
        headings,
        "",
        "Be specific: name files, functions, commands, errors and decisions. In section 6 list "
        "every message the user wrote (not tool results), verbatim when short. In sections 8 "
        "and 9 say precisely what was being done last and what comes next.",
    ]
    if dropped_groups:
        lines.append(
            f"The {dropped_groups} oldest user turn(s) were left out because the whole "
            "conversation was too long to summarise at once."
        )
    if instructions.strip():
        lines += ["", f"Additional instructions: {instructions.strip()}"]
    return "\n".join(lines)


def restore_block(snapshots: Sequence[FileSnapshot], tool_names: Sequence[str]) -> str:
    """Files read recently (as they are now), the tools available, and the warning sentence."""
    parts: list[str] = []
    if snapshots:
        parts.append("Files read most recently, as they are on disk now:")
        for snap in snapshots:
            cut = " (cut)" if snap.truncated else ""
            parts.append(f'<file path="{snap.path}"{cut}>\n{snap.text}\n</file>')
    if tool_names:
        parts.append("Tools available now: " + ", ".join(tool_names) + ".")
    parts.append(RESTORE_SENTENCE)
    return "\n\n".join(parts)


def build_compacted_history(summary: str, restore: str, recent: Sequence[Message]) -> list[Message]:
    """Summary message (+ acknowledgement when needed) followed by the kept messages.

    The result alternates roles and starts with a user message, as the
    Anthropic API requires.
    """
    head = Message(
        role="user", content=[TextBlock(f"{SUMMARY_PREAMBLE}\n\n{summary.strip()}\n\n{restore}")]
    )
    history = [head]
    if not recent or recent[0].role == "user":
        history.append(Message(role="assistant", content=[TextBlock(ACK_TEXT)]))
    history.extend(recent)
    return history
