"""Make a history read back from disk valid to send to the model again.

Guarantees of ``repair_history`` (what the loop can rely on after a resume):

- messages alternate user / assistant, starting with a user message;
- every ``tool_use`` has exactly one ``tool_result`` in the next message,
  results first and in the order of the calls; a call with no result (crash
  mid-turn, or its result line was damaged) gets an error result
  "not run: the session ended before this tool ran";
- results that answer no call are dropped; empty messages are dropped;
  adjacent messages of one role are merged;
- the history is empty or ends with an assistant message, so the loop can
  append a new user message as is. A crash after the user's prompt (or after
  tool results) gets a short assistant note saying the session ended there.

Only the messages added at the end (``tail``) change what a later load would
compute, so the store appends those to the file; the rest is recomputed the
same way on every load.
"""

from __future__ import annotations

from agent_core.messages import Message, TextBlock, ToolResultBlock, ToolUseBlock

NOT_RUN = "not run: the session ended before this tool ran"
ENDED_NOTE = "(The session ended here before this turn finished.)"
MISSING_START = "(The beginning of this conversation could not be loaded.)"


def repair_history(messages: list[Message]) -> tuple[list[Message], list[Message], list[str]]:
    """Return (valid history, messages appended at the end, notes on what changed)."""
    notes: list[str] = []
    history = list(messages)
    for _ in range(4):  # dropping an empty message can create a new same-role pair
        history, changed = _merge_roles(history, notes)
        history, dropped = _pair_results(history, notes)
        if not (changed or dropped):
            break
    if history and history[0].role == "assistant":
        history.insert(0, Message(role="user", content=[TextBlock(MISSING_START)]))
        notes.append("the first message was not from the user; added a placeholder")
    tail: list[Message] = []
    if history and history[-1].role == "assistant" and history[-1].tool_uses():
        uses = history[-1].tool_uses()
        tail.append(Message(role="user", content=[_not_run(u) for u in uses]))
        notes.append(f"{len(uses)} tool call(s) had no result; marked as not run")
    if (tail or history) and (tail or history)[-1].role == "user":
        tail.append(Message(role="assistant", content=[TextBlock(ENDED_NOTE)]))
        if not notes or "not run" not in notes[-1]:
            notes.append("the last turn was cut short; added a note")
    return history + tail, tail, notes


def _not_run(use: ToolUseBlock) -> ToolResultBlock:
    return ToolResultBlock(tool_use_id=use.id, content=NOT_RUN, is_error=True)


def _merge_roles(history: list[Message], notes: list[str]) -> tuple[list[Message], bool]:
    out: list[Message] = []
    changed = False
    for msg in history:
        if not msg.content:
            changed = True
            continue
        if out and out[-1].role == msg.role:
            out[-1] = Message(role=msg.role, content=[*out[-1].content, *msg.content])
            changed = True
            notes.append(f"merged two adjacent {msg.role} messages")
            continue
        out.append(msg)
    return out, changed


def _pair_results(history: list[Message], notes: list[str]) -> tuple[list[Message], bool]:
    """Give every tool use its result in the next message; drop orphans."""
    out: list[Message] = []
    dropped = False
    for i, msg in enumerate(history):
        if msg.role != "user":
            out.append(msg)
            continue
        uses = history[i - 1].tool_uses() if i > 0 else []
        if _answers_exactly(msg, uses):  # the common case: nothing to do
            out.append(msg)
            continue
        use_ids = {u.id for u in uses}
        results = {b.tool_use_id: b for b in msg.content if isinstance(b, ToolResultBlock)}
        others = [b for b in msg.content if not isinstance(b, ToolResultBlock)]
        missing = sum(1 for u in uses if u.id not in results)
        orphans = sum(1 for k in results if k not in use_ids)
        if missing:
            notes.append(f"{missing} tool call(s) had no result; marked as not run")
        if orphans:
            notes.append(f"dropped {orphans} tool result(s) that answered no call")
        content = [*(results.get(u.id) or _not_run(u) for u in uses), *others]
        if not content:
            dropped = True
            continue
        out.append(Message(role="user", content=content))
    return out, dropped


def _answers_exactly(msg: Message, uses: list[ToolUseBlock]) -> bool:
    """True when the message starts with one result per call, in order, and has no others."""
    content = msg.content
    if len(content) < len(uses):
        return False
    for block, use in zip(content, uses, strict=False):
        if not isinstance(block, ToolResultBlock) or block.tool_use_id != use.id:
            return False
    return not any(isinstance(b, ToolResultBlock) for b in content[len(uses) :])


def history_problems(history: list[Message]) -> list[str]:
    """Why the Anthropic API would reject this history as the start of a request (empty if fine).

    Checks role alternation (starting with user), empty messages, and that the
    results of each assistant's tool calls come first in the next message, one
    per call, with no result answering no call.
    """
    problems: list[str] = []
    for i, msg in enumerate(history):
        expected = "user" if i % 2 == 0 else "assistant"
        if msg.role != expected:
            problems.append(f"message {i}: {msg.role} where {expected} was expected")
        if not msg.content:
            problems.append(f"message {i}: empty")
        uses = [u.id for u in msg.tool_uses()] if msg.role == "assistant" else []
        results = [b.tool_use_id for b in msg.content if isinstance(b, ToolResultBlock)]
        if msg.role == "assistant" and results:
            problems.append(f"message {i}: tool results in an assistant message")
        if msg.role == "user":
            prev_uses = [u.id for u in history[i - 1].tool_uses()] if i > 0 else []
            head = [
                b.tool_use_id
                for b in msg.content[: len(prev_uses)]
                if isinstance(b, ToolResultBlock)
            ]
            if head != prev_uses:
                problems.append(f"message {i}: results {head} do not answer calls {prev_uses}")
            if len(results) != len(prev_uses):
                problems.append(f"message {i}: {len(results)} results for {len(prev_uses)} calls")
        if uses and i == len(history) - 1:
            problems.append(f"message {i}: tool calls without results at the end")
    return problems
