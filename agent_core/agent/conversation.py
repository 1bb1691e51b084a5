"""The history the model sees, with every change handed to a persistence sink."""

from __future__ import annotations

from collections.abc import Callable

from agent_core.messages import Message, TextBlock, ToolResultBlock


class Conversation:
    """An append-only list of messages; compaction replaces it wholesale."""

    def __init__(
        self,
        messages: list[Message] | None = None,
        on_append: Callable[[Message], None] | None = None,
        on_replace: Callable[[list[Message]], None] | None = None,
    ) -> None:
        self.messages: list[Message] = list(messages or [])
        self._on_append = on_append
        self._on_replace = on_replace

    def append(self, message: Message) -> None:
        self.messages.append(message)
        if self._on_append:
            self._on_append(message)

    def replace(self, messages: list[Message]) -> None:
        self.messages = list(messages)
        if self._on_replace:
            self._on_replace(self.messages)

    def close_open_ends(self, note: str) -> None:
        """Make the history valid for the next request, whatever happened.

        Every tool use gets a result, and the history ends with an assistant
        message (so a following user message keeps roles alternating).
        """
        if not self.messages:
            return
        last = self.messages[-1]
        if last.role == "assistant" and last.tool_uses():
            self.append(
                Message(
                    role="user",
                    content=[
                        ToolResultBlock(
                            tool_use_id=use.id, content=f"not run: {note}", is_error=True
                        )
                        for use in last.tool_uses()
                    ],
                )
            )
            last = self.messages[-1]
        if last.role == "user":
            self.append(Message(role="assistant", content=[TextBlock(f"[{note}]")]))
