"""Context management: token accounting, spill to disk, LLM summaries (docs/manual.md#sessions-and-context)."""

from agent_core.context.compaction import SUMMARY_HEADINGS, compaction_budget, plan_split
from agent_core.context.manager import CompactionError, CompactionOutcome, ContextManager
from agent_core.context.spill import SpillLedger
from agent_core.context.summarizer import SummaryError, summarise
from agent_core.context.tokens import estimate_message_tokens, estimate_tokens

__all__ = [
    "SUMMARY_HEADINGS",
    "CompactionError",
    "CompactionOutcome",
    "ContextManager",
    "SpillLedger",
    "SummaryError",
    "compaction_budget",
    "estimate_message_tokens",
    "estimate_tokens",
    "plan_split",
    "summarise",
]
