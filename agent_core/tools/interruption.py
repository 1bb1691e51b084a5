"""How a tool that had started says what it did before the user cancelled it."""

from __future__ import annotations

import asyncio


class ToolInterrupted(asyncio.CancelledError):
    """A cancellation raised by a running tool, carrying the output it had produced.

    It is still a ``CancelledError``, so the turn stops as for any cancel; the
    executor reads ``output`` to tell the model what ran before the stop.
    """

    def __init__(self, output: str) -> None:
        super().__init__(output)
        self.output = output
