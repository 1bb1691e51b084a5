"""`mewcode -p --verbose`: what the turn did, one stderr line per step.

Each tool call, the permission verdict on it, its result and time; compactions,
info notices (warnings are shown without ``--verbose``) and the turn's totals.
Stdout stays the answer. Everything quoted is shown with control characters escaped.
"""

from __future__ import annotations

from typing import TextIO

from agent_core import events as ev
from agent_core.terminal_text import visible_text

SUMMARY_CHARS = 200


class VerboseTrail:
    """Writes a ``mewcode: [verbose]`` line for each event worth telling."""

    def __init__(self, err: TextIO) -> None:
        self.err = err
        self.tools: dict[str, str] = {}  # call id -> tool name

    def say(self, text: str) -> None:
        shown = visible_text(text, multiline=False)
        self.err.write(f"mewcode: [verbose] {shown}\n")

    def handle(self, event: ev.Event) -> None:
        match event:
            case ev.TurnStarted(turn_id=turn_id):
                self.say(f"turn {turn_id} started")
            case ev.ToolCall(call_id=call_id, tool=tool, summary=summary):
                self.tools[call_id] = tool
                self.say(f"{tool} {call_id}: {_short(summary)}")
            case ev.PermissionDecision(call_id=cid, decision=decision, layer=layer, reason=why):
                rule = f" [{event.rule}]" if event.rule else ""
                self.say(f"{self._name(cid)} {cid}: {decision} by {layer}{rule}: {_short(why)}")
            case ev.ToolResult(call_id=cid, is_error=is_error, duration_ms=ms):
                outcome = "failed" if is_error else "done"
                self.say(f"{self._name(cid)} {cid}: {outcome} in {ms} ms")
            case ev.Compaction(layer=layer, tokens_before=before, tokens_after=after):
                self.say(f"compaction ({layer}): {before} -> {after} tokens")
            case ev.Notice(level="info", message=message):
                self.say(f"notice: {message}")
            case ev.TurnCompleted(stop_reason=stop, iterations=rounds, usage=usage):
                self.say(
                    f"turn ended: {stop}, {rounds} round(s), {usage.input_tokens} tokens in, "
                    f"{usage.output_tokens} out"
                )

    def timings(self, duration_ms: int, api_ms: int) -> None:
        self.say(f"took {duration_ms} ms, {api_ms} ms of it waiting on the model")

    def _name(self, call_id: str) -> str:
        return self.tools.get(call_id, "tool")


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= SUMMARY_CHARS else text[: SUMMARY_CHARS - 1] + "…"
