"""Token usage figures shared by providers, events and the cost table."""

from __future__ import annotations

import msgspec


class Usage(msgspec.Struct, omit_defaults=False):
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.input_tokens + other.input_tokens,
            self.output_tokens + other.output_tokens,
            self.cache_read_tokens + other.cache_read_tokens,
            self.cache_write_tokens + other.cache_write_tokens,
        )

    @property
    def prompt_tokens(self) -> int:
        """All tokens the model read this request (fresh + cached)."""
        return self.input_tokens + self.cache_read_tokens + self.cache_write_tokens
