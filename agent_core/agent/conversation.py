"""The history the model sees, with every change handed to a persistence sink."""

from __future__ import annotations

from typing import Protocol

from agent_core.messages import Message, TextBlock, ToolResultBlock


class HistorySink(Protocol):
    """Where every change to the history is persisted (the session file)."""

    def append_message(self, message: Message, /) -> None: ...

    def append_compaction(
        self, history: list[Message], tokens_before: int, tokens_after: int, /
    ) -> None: ...


class Conversation:
    """An append-only list of messages; compaction replaces it wholesale."""

    def __init__(self, messages: list[Message] | None = None, sink: HistorySink | None = None):
        self.messages: list[Message] = list(messages or [])
        self._sink = sink
        # Every tool call id this session has used, kept across compactions.
        self._call_ids = {use.id for m in self.messages for use in m.tool_uses()}

    def unique_call_id(self, proposed: str) -> str:
        """``proposed`` if this session has not used it, else it with a suffix; now taken.

        Some OpenAI-compatible servers number tool calls afresh in every answer
        (``call_0`` each time) or send none. The id pairs a call with its result, its
        approval and its line in the UI, so a repeat would pair the wrong ones; the
        provider accepts any id that matches within the history sent back.
        """
        chosen, n = proposed or "call", 1
        while chosen in self._call_ids:
            n += 1
            chosen = f"{proposed or 'call'}_{n}"
        self._call_ids.add(chosen)
        return chosen

    def append(self, message: Message) -> None:
        self.messages.append(message)
        self._call_ids.update(use.id for use in message.tool_uses())
        if self._sink is not None:
            self._sink.append_message(message)

    def replace(self, messages: list[Message], tokens_before: int, tokens_after: int) -> None:
        """A compaction: ``messages`` (a summary and the recent messages) become the history."""
        self.messages = list(messages)
        self._call_ids.update(use.id for m in self.messages for use in m.tool_uses())
        if self._sink is not None:
            self._sink.append_compaction(self.messages, tokens_before, tokens_after)

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
            self.append(Message(role="assistant", content=[TextBlock(closing_marker(note))]))


def closing_marker(note: str) -> str:
    """The assistant text that ends a history cut short (``[cancelled by user]``)."""
    return f"[{note}]"
