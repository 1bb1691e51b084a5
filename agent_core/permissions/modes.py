"""Layer 4: what the permission mode decides for actions no rule settled."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from agent_core.modes import Mode
from agent_core.permissions.actions import Action
from agent_core.permissions.families import edit_family
from agent_core.permissions.paths import protected_name

PLAN_REASON = "plan mode: only read-only tools are available; call ExitPlanMode with your plan"


class ModeDecision(NamedTuple):
    decision: str  # allow | deny | ask
    reason: str


def protected_write(action: Action, extra: Sequence[Path] = ()) -> str | None:
    """``name: path`` of the first protected path the action writes, if any."""
    for target in action.writes:
        if name := protected_name(target, extra):
            return f"{name} ({target.raw})"
    return None


def plan_forbids(actions: Sequence[Action], uncertain: Sequence[str] = ()) -> bool:
    """Plan mode runs no step that may change anything: a write, an unknown path or a
    command that cannot be checked makes the whole call one it denies."""
    return bool(uncertain) or any(not a.read_only or a.unknown_paths for a in actions)


def _needs_approval(action: Action, mode: Mode) -> bool:
    if action.asks:
        return True
    if action.read_only and not action.unknown_paths:
        return False
    if mode == "acceptEdits" and action.tool in edit_family() and not action.unknown_paths:
        return False  # the sandbox already confined the path to the project
    return True


def mode_decision(
    actions: list[Action],
    mode: Mode,
    uncertain: list[str],
    risky: Sequence[str] = (),
    protected: Sequence[Path] = (),
) -> ModeDecision:
    """Decide the actions left over by the rules layer.

    A command that cannot be checked with certainty asks; in bypassPermissions, where
    nobody is asked, it is denied when its unknown part could amount to a blacklisted
    command (``risky``) and otherwise left to the OS sandbox.
    """
    if uncertain:
        if mode == "plan":
            return ModeDecision("deny", PLAN_REASON)
        if mode != "bypassPermissions":
            return ModeDecision(
                "ask", f"the command cannot be checked with certainty: {uncertain[0]}"
            )
        if risky:
            return ModeDecision(
                "deny",
                "bypassPermissions mode: the command cannot be checked with certainty and "
                f"could amount to a blacklisted command: {risky[0]}"[:400],
            )
    for action in actions:
        if written := protected_write(action, protected):
            if mode == "plan":
                return ModeDecision("deny", PLAN_REASON)
            return ModeDecision("ask", f"writes to a protected path: {written}")
    if mode == "plan":
        if plan_forbids(actions):
            return ModeDecision("deny", PLAN_REASON)
        if asking := next((a for a in actions if a.asks), None):
            return ModeDecision("ask", f"plan mode: needs approval: {_what(asking)}"[:300])
        return ModeDecision("allow", "plan mode: read-only")
    mcp = next(
        (a for a in actions if a.tool.startswith("mcp__") and (a.asks or not a.read_only)), None
    )
    if mcp is not None:  # an MCP call asks in every mode, bypass included, unless a rule allows it
        if mcp.asks:
            return ModeDecision("ask", f"MCP tool {mcp.tool} is {mcp.asks}: needs approval")
        return ModeDecision("ask", f"MCP tool {mcp.tool} is not marked read-only: needs approval")
    if mode == "bypassPermissions":
        return ModeDecision("allow", "bypassPermissions mode")
    pending = [a for a in actions if _needs_approval(a, mode)]
    if not pending:
        if any(a.tool in edit_family() for a in actions):
            return ModeDecision("allow", "acceptEdits mode: edit inside the project")
        return ModeDecision("allow", f"{mode} mode: read-only")
    return ModeDecision("ask", f"{mode} mode: needs approval: {_what(pending[0])}"[:300])


def _what(action: Action) -> str:
    what = f"Bash command {action.label}" if action.tool == "Bash" else action.label
    if action.asks:
        return f"{what} ({action.asks})"
    if action.why and not action.why.startswith(action.label):
        return f"{what} ({action.why})"
    return what
