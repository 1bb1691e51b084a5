"""What one hook's exit code and output mean, and what several hooks decide together (pure).

Claude Code's contract: exit 0 goes on and its stdout may be JSON (``continue``,
``stopReason``, ``systemMessage``, ``decision``/``reason``, ``hookSpecificOutput``
with ``permissionDecision``/``permissionDecisionReason``/``additionalContext``);
plain stdout is context for UserPromptSubmit and SessionStart. Exit 2 blocks, with
stderr as the reason. Any other exit code, or a timeout, is a warning and goes on.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

from agent_core.decision import Decision as Decision  # re-exported for the hooks

CONTEXT_CHARS = 10_000  # one hook's context for the model, at most (as Claude Code)
_CONTEXT_EVENTS = ("UserPromptSubmit", "SessionStart")
_DECISIONS: dict[Any, Decision] = {"allow": "allow", "deny": "deny", "ask": "ask"}
_OLD_DECISIONS: dict[Any, Decision] = {"approve": "allow", "block": "deny"}
_RANK: dict[Decision | None, int] = {None: 0, "allow": 1, "ask": 2, "deny": 3}


class HookRun(msgspec.Struct, frozen=True):
    """How one hook process ended: its exit code (None: timed out or not started) and output."""

    label: str
    exit_code: int | None
    stdout: str = ""
    stderr: str = ""
    timed_out: bool = False
    timeout_s: float = 0.0
    error: str = ""  # it could not be started


class HookOutcome(msgspec.Struct):
    """What the hooks of one event decided, and what the user and the model are told."""

    blocked: bool = False  # exit 2 or decision "block": the prompt, call or stop is refused
    reason: str = ""  # why (stderr of exit 2, or the JSON reason)
    decision: Decision | None = None  # PreToolUse only
    decision_reason: str = ""
    decided_by: str = ""  # the label of the hook whose block or decision won
    stop: bool = False  # continue: false — the turn ends
    stop_reason: str = ""
    system_messages: list[str] = []
    context: list[str] = []
    warnings: list[str] = []


def interpret(event: str, run: HookRun) -> HookOutcome:
    """The outcome of one hook run of ``event``."""
    if run.error:
        return HookOutcome(warnings=[f"{run.label} could not start: {run.error}"])
    if run.timed_out:
        return HookOutcome(
            warnings=[f"{run.label} timed out after {run.timeout_s:g} s and was killed"]
        )
    stderr = run.stderr.strip()
    if run.exit_code == 2:
        return _exit_two(event, run.label, stderr)
    if run.exit_code != 0:
        detail = f": {_first_line(stderr)}" if stderr else ""
        return HookOutcome(warnings=[f"{run.label} exited {run.exit_code}{detail}"])
    data = _json_object(run.stdout)
    if data is None:
        text = run.stdout.strip()
        context = [text[:CONTEXT_CHARS]] if text and event in _CONTEXT_EVENTS else []
        return HookOutcome(context=context)
    return _from_json(event, run.label, data)


def _exit_two(event: str, label: str, stderr: str) -> HookOutcome:
    if event in ("PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop"):
        reason = stderr or f"blocked by {label}"
        return HookOutcome(blocked=True, reason=reason, decided_by=label)
    # The other events cannot be blocked: stderr is for the user.
    detail = f": {_first_line(stderr)}" if stderr else ""
    return HookOutcome(warnings=[f"{label} exited 2{detail}"])


def _from_json(event: str, label: str, data: dict[str, Any]) -> HookOutcome:
    out = HookOutcome()
    if data.get("continue") is False:
        out.stop = True
        out.stop_reason = _text(data.get("stopReason")) or f"stopped by {label}"
    if message := _text(data.get("systemMessage")):
        out.system_messages.append(message)
    specific = data.get("hookSpecificOutput")
    specific = specific if isinstance(specific, dict) else {}
    if context := _text(specific.get("additionalContext")):
        out.context.append(context[:CONTEXT_CHARS])
    decision, reason = data.get("decision"), _text(data.get("reason"))
    if event == "PreToolUse":
        verdict = _DECISIONS.get(specific.get("permissionDecision"))
        why = _text(specific.get("permissionDecisionReason"))
        if verdict is None:  # the older top-level form
            verdict, why = _OLD_DECISIONS.get(decision), reason
        if verdict is not None:
            out.decision, out.decision_reason, out.decided_by = verdict, why, label
    elif decision == "block":
        out.blocked, out.reason, out.decided_by = True, reason or f"blocked by {label}", label
    return out


def combine(outcomes: list[HookOutcome]) -> HookOutcome:
    """All hooks of one event together: any block wins; deny > ask > allow."""
    total = HookOutcome()
    for one in outcomes:
        if one.blocked:
            if not total.blocked:
                total.decided_by = one.decided_by
            total.blocked = True
            total.reason = "\n".join(r for r in (total.reason, one.reason) if r)
        if _RANK[one.decision] > _RANK[total.decision]:
            total.decision, total.decision_reason = one.decision, one.decision_reason
            if not total.blocked:
                total.decided_by = one.decided_by
        if one.stop and not total.stop:
            total.stop, total.stop_reason = True, one.stop_reason
        total.system_messages.extend(one.system_messages)
        total.context.extend(one.context)
        total.warnings.extend(one.warnings)
    return total


def _json_object(stdout: str) -> dict[str, Any] | None:
    text = stdout.strip()
    if not text.startswith("{"):
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def _first_line(text: str) -> str:
    line = text.splitlines()[0] if text else ""
    return line[:300]
