"""Long-term memory as one project sees it: its own facts plus the global ones (docs/configuration.md#long-term-memory)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Literal

from agent_core.config.paths import MewcodePaths
from agent_core.memory import recall as pure
from agent_core.memory.recall import Fact, RecallWeights
from agent_core.memory.store import Added, MemoryStore

GLOBAL = "global"
MemoryScope = Literal["project", "global"]
MAX_FACT_CHARS = 1_000  # a fact is a sentence or two, not a document


class LongTermMemory:
    """The facts of one project and the global scope, in ``MEWCODE_HOME/memory.db``."""

    def __init__(
        self,
        paths: MewcodePaths,
        clock: Callable[[], float] = time.time,
        weights: RecallWeights | None = None,
    ) -> None:
        self.store = MemoryStore(paths.home / "memory.db", clock)
        self.project = paths.project_key
        self.clock = clock
        self.weights = weights or RecallWeights()

    @property
    def problem(self) -> str | None:
        """Why memory is off for this session, or None."""
        return self.store.problem

    @property
    def scopes(self) -> tuple[str, str]:
        return (self.project, GLOBAL)

    def scope_key(self, scope: MemoryScope) -> str:
        return GLOBAL if scope == "global" else self.project

    def remember(
        self,
        fact: str,
        scope: MemoryScope = "project",
        *,
        ttl_seconds: int | None = None,
        importance: float = 0.5,
    ) -> Added:
        """Store ``fact``; ValueError for a blank or overlong one. Raises MemoryUnavailable."""
        text = fact.strip()
        if not text:
            raise ValueError("the fact is empty")
        if len(text) > MAX_FACT_CHARS:
            raise ValueError(f"the fact is {len(text)} characters; keep it under {MAX_FACT_CHARS}")
        return self.store.add(
            self.scope_key(scope), text, importance=importance, ttl_seconds=ttl_seconds
        )

    def recall(self, prompt: str) -> list[Fact]:
        """The facts worth offering for ``prompt`` (each counted as recalled)."""
        chosen = pure.recall(prompt, self.store.facts(self.scopes), self.clock(), self.weights)
        self.store.touch(f.id for f in chosen)
        return chosen

    def listing(self) -> list[Fact]:
        """This project's and the global facts, newest first."""
        return self.store.facts(self.scopes)

    def search(self, text: str) -> list[Fact]:
        return pure.search(text, self.store.facts(self.scopes), self.clock(), self.weights)

    def delete(self, fact_id: int) -> bool:
        """Delete a fact of this project or the global scope; False when there is none."""
        return self.store.delete(fact_id, self.scopes)

    def close(self) -> None:
        self.store.close()
