"""Model facts: context window, max output and USD prices per million tokens.

Looked up by the longest matching prefix, so dated ids ("claude-sonnet-4-5-20250929",
"gpt-4.1-2025-04-14") and router prefixes ("openai/gpt-4o") find their family.
Prices are the vendors' published standard rates (5-minute cache writes for Claude);
an unknown model gets a 128k window and a price of zero rather than a guess, so a cost
budget cannot hold for it: the loop sends it no request under one (``unenforceable_budget``).
"""

from __future__ import annotations

import msgspec

from agent_core.usage import Usage


class ModelInfo(msgspec.Struct, frozen=True):
    """What the runtime needs to know about a model; prices are USD per million tokens."""

    model: str  # the table entry that matched ("" for the default)
    context_window: int
    max_output_tokens: int
    input: float = 0.0
    output: float = 0.0
    cache_write: float = 0.0
    cache_read: float = 0.0


K = 1_000
M = 1_000_000

# prefix: (context window, max output, input, output, cache write, cache read)
_TABLE: dict[str, tuple[int, int, float, float, float, float]] = {
    # --- Anthropic ---------------------------------------------------------------
    "claude-fable-5": (M, 128 * K, 10.0, 50.0, 12.5, 1.0),
    "claude-fable-5-1": (M, 128 * K, 10.0, 50.0, 12.5, 0.25),
    "claude-mythos-5": (M, 128 * K, 10.0, 50.0, 12.5, 1.0),
    "claude-mythos-5-1": (M, 128 * K, 10.0, 50.0, 12.5, 0.25),
    "claude-opus-5": (M, 128 * K, 5.0, 25.0, 6.25, 0.5),
    "claude-opus-5-5": (M, 128 * K, 4.0, 20.0, 5.0, 0.2),
    "claude-opus-4": (200 * K, 32 * K, 15.0, 75.0, 18.75, 1.5),
    "claude-opus-4-1": (200 * K, 32 * K, 15.0, 75.0, 18.75, 1.5),
    "claude-opus-4-5": (200 * K, 64 * K, 5.0, 25.0, 6.25, 0.5),
    "claude-opus-4-6": (M, 128 * K, 5.0, 25.0, 6.25, 0.5),
    "claude-opus-4-7": (M, 128 * K, 5.0, 25.0, 6.25, 0.5),
    "claude-opus-4-8": (M, 128 * K, 5.0, 25.0, 6.25, 0.5),
    "claude-sonnet-5": (M, 128 * K, 2.0, 10.0, 2.5, 0.2),
    "claude-sonnet-5-5": (M, 128 * K, 2.0, 10.0, 2.5, 0.1),
    "claude-sonnet-4": (200 * K, 64 * K, 3.0, 15.0, 3.75, 0.3),
    "claude-sonnet-4-6": (M, 64 * K, 3.0, 15.0, 3.75, 0.3),
    "claude-haiku-5-5": (M, 128 * K, 0.1, 0.5, 0.125, 0.01),
    "claude-haiku-4-5": (200 * K, 64 * K, 1.0, 5.0, 1.25, 0.1),
    "claude-3-7-sonnet": (200 * K, 64 * K, 3.0, 15.0, 3.75, 0.3),
    "claude-3-5-sonnet": (200 * K, 8192, 3.0, 15.0, 3.75, 0.3),
    "claude-3-5-haiku": (200 * K, 8192, 0.8, 4.0, 1.0, 0.08),
    "claude-3-opus": (200 * K, 4096, 15.0, 75.0, 18.75, 1.5),
    "claude-3-haiku": (200 * K, 4096, 0.25, 1.25, 0.3, 0.03),
    # --- OpenAI (no cache-write surcharge: writes cost the input price) ----------
    "gpt-5.5": (M, 128 * K, 5.0, 30.0, 5.0, 0.5),
    "gpt-5.4": (M, 128 * K, 2.5, 15.0, 2.5, 0.25),
    "gpt-5.4-mini": (M, 128 * K, 0.75, 4.5, 0.75, 0.075),
    "gpt-5.4-nano": (M, 128 * K, 0.2, 1.25, 0.2, 0.02),
    "gpt-5.2": (400 * K, 128 * K, 1.75, 14.0, 1.75, 0.175),
    "gpt-5.1": (400 * K, 128 * K, 1.25, 10.0, 1.25, 0.125),
    "gpt-5": (400 * K, 128 * K, 1.25, 10.0, 1.25, 0.125),
    "gpt-5-mini": (400 * K, 128 * K, 0.25, 2.0, 0.25, 0.025),
    "gpt-5-nano": (400 * K, 128 * K, 0.05, 0.4, 0.05, 0.005),
    "gpt-4.1": (1_047_576, 32_768, 2.0, 8.0, 2.0, 0.5),
    "gpt-4.1-mini": (1_047_576, 32_768, 0.4, 1.6, 0.4, 0.1),
    "gpt-4.1-nano": (1_047_576, 32_768, 0.1, 0.4, 0.1, 0.025),
    "gpt-4o": (128 * K, 16_384, 2.5, 10.0, 2.5, 1.25),
    "gpt-4o-mini": (128 * K, 16_384, 0.15, 0.6, 0.15, 0.075),
    "o1": (200 * K, 100 * K, 15.0, 60.0, 15.0, 7.5),
    "o1-mini": (128 * K, 65_536, 1.1, 4.4, 1.1, 0.55),
    "o3": (200 * K, 100 * K, 2.0, 8.0, 2.0, 0.5),
    "o3-mini": (200 * K, 100 * K, 1.1, 4.4, 1.1, 0.55),
    "o4-mini": (200 * K, 100 * K, 1.1, 4.4, 1.1, 0.275),
    # --- DeepSeek (cache miss / cache hit) -----------------------------------------
    "deepseek-chat": (128 * K, 8 * K, 0.28, 0.42, 0.28, 0.028),
    "deepseek-reasoner": (128 * K, 64 * K, 0.28, 0.42, 0.28, 0.028),
}

_BOUNDARY = ("", "-", ".", ":", "@", "[", "_", " ")
DEFAULT = ModelInfo(model="", context_window=128 * K, max_output_tokens=8192)


def _normalise(model: str) -> str:
    """Lower-case, without a router prefix ("openrouter/openai/gpt-4o" -> "gpt-4o")."""
    return model.strip().lower().rsplit("/", 1)[-1]


def _matches(name: str, prefix: str) -> bool:
    # The prefix must end at a word boundary: "o3" claims "o3-2025-04-16", not "o30".
    return name.startswith(prefix) and name[len(prefix) : len(prefix) + 1] in _BOUNDARY


def model_info(model: str) -> ModelInfo:
    """Facts for ``model`` by longest prefix match; a 128k, zero-price default when unknown."""
    name = _normalise(model)
    best = max((p for p in _TABLE if _matches(name, p)), key=len, default=None)
    if best is None:
        return DEFAULT
    window, max_out, inp, out, write, read = _TABLE[best]
    return ModelInfo(best, window, max_out, inp, out, write, read)


def price_known(model: str) -> bool:
    """Whether the table has a price for ``model`` (else its cost counts as zero)."""
    return model_info(model) is not DEFAULT


def unenforceable_budget(model: str) -> str | None:
    """Why a cost budget cannot hold for ``model`` (no price for it), else None."""
    if price_known(model):
        return None
    return (
        f"no price is known for model {model}, so --max-budget-usd cannot be enforced; "
        "use a model MewCode has a price for (agent_core/llm/pricing.py), "
        "or run without --max-budget-usd"
    )


def cost_usd(model: str, usage: Usage) -> float:
    """The price of one request's ``usage`` on ``model``, in US dollars."""
    info = model_info(model)
    return (
        usage.input_tokens * info.input
        + usage.output_tokens * info.output
        + usage.cache_write_tokens * info.cache_write
        + usage.cache_read_tokens * info.cache_read
    ) / M
