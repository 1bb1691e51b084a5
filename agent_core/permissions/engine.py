"""The permission engine: blacklist -> sandbox -> rules -> mode, in that fixed order.

One exception to the order: in plan mode a call with a mutating step is denied even when
an ask rule matches it (a deny rule still wins and names itself).

Pure: a request and a policy in, a verdict out. Layer 5 (the human) is the
agent loop's job when the verdict is "ask".
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

import msgspec

from agent_core.config.settings import RuleEntry
from agent_core.decision import Decision
from agent_core.modes import Mode
from agent_core.permissions.actions import Action, Scope, bash_actions
from agent_core.permissions.blacklist import check_blacklist, unknown_reach
from agent_core.permissions.modes import PLAN_REASON, mode_decision, plan_forbids, protected_write
from agent_core.permissions.paths import protected_name, real, sandbox_roots
from agent_core.permissions.rules import RuleScope, first_match
from agent_core.permissions.sandbox import sandbox_denial
from agent_core.permissions.shell.facts import analyze
from agent_core.permissions.suggest import suggestions
from agent_core.permissions.tool_actions import tool_actions


class PermissionRequest(msgspec.Struct):
    """What the loop asks about: one validated tool call."""

    tool: str  # canonical name: "Bash", "Edit", "mcp__github__create_issue"
    input: dict[str, Any]
    read_only: bool  # the tool's read-only flag (MCP: readOnlyHint)
    kind: str  # read | edit | bash | web | other (tools/base.py PermissionKind)
    # False when read_only is only the tool's own claim (an MCP server's readOnlyHint the
    # user has not chosen to trust): it still decides batching and plan mode, not approval.
    read_only_trusted: bool = True


class PermissionPolicy(msgspec.Struct):
    """Everything a decision depends on."""

    project_root: Path
    additional_dirs: list[Path]
    rules: list[RuleEntry]  # settings rules plus session and CLI rules
    mode: Mode  # default | acceptEdits | plan | bypassPermissions
    home: Path  # for ~ expansion
    read_dirs: list[Path] = []  # readable, never writable: the session's own tool-results/
    # More directories whose writes ask in every mode (git's core.hooksPath).
    protected_dirs: list[Path] = []
    network: bool = True  # sandbox.network: off turns WebFetch off
    # Where relative paths start (the folder the session was started in, where commands
    # run); None: the project root. Rules stay relative to the project root.
    cwd: Path | None = None


class PermissionVerdict(msgspec.Struct):
    """The decision, the layer that made it, and why (fed to the model on deny)."""

    decision: Decision
    layer: Literal["blacklist", "sandbox", "rules", "mode"]
    reason: str
    rule: str | None = None
    suggested_rules: list[str] = []
    # (resolved path, root holding it) of each file a file tool's call was checked for: the
    # tool opens exactly these, no symlink followed (tools/nofollow.py). "/" for no root.
    checked: list[tuple[str, str]] = []


NETWORK_OFF = "WebFetch is off: sandbox.network is false in your settings"


def scope_of(policy: PermissionPolicy) -> Scope:
    """The resolved project root, home and sandbox roots of a policy."""
    roots = sandbox_roots(policy.project_root, list(policy.additional_dirs), policy.home)
    cwd = real(policy.cwd) if policy.cwd is not None else roots[0]
    return Scope(roots[0], policy.home, roots, cwd)


def _command(request: PermissionRequest) -> str:
    command = request.input.get("command", "")
    return command if isinstance(command, str) else ""


def decide(request: PermissionRequest, policy: PermissionPolicy) -> PermissionVerdict:
    """Run the four automatic layers and return the first decisive verdict."""
    scope = scope_of(policy)
    uncertain: list[str] = []
    risky: list[str] = []
    if request.tool == "Bash" or request.kind == "bash":
        parsed = analyze(_command(request))
        hit = check_blacklist(parsed, str(scope.cwd), str(policy.home))
        if hit is not None:
            return PermissionVerdict("deny", "blacklist", f"blocked: {hit.reason}", hit.entry)
        # A word built at run time that could make a blacklisted command is a doubt too.
        reach = unknown_reach(parsed, str(scope.cwd), str(policy.home))
        uncertain = [*parsed.uncertain, *reach]
        risky = [*parsed.risky, *reach]
        actions = bash_actions(parsed, scope)
    else:
        actions = _tool_actions(request, scope)
        if request.kind == "web" and not policy.network:
            return PermissionVerdict("deny", "sandbox", NETWORK_OFF)
    if denial := sandbox_denial(actions, scope.root, policy.read_dirs):
        return PermissionVerdict("deny", "sandbox", denial)
    verdict = _rules_then_mode(actions, policy, scope, uncertain, risky)
    if request.kind in ("read", "edit") and request.tool != "Bash":
        verdict.checked = [
            (str(t.path), str(t.root) if t.root is not None else "/")
            for a in actions
            for t in (*a.reads, *a.writes)
        ]
    return verdict


def _names_protected(entry: RuleEntry, action: Action, extra: Sequence[Path]) -> bool:
    """An allow rule covers a protected write only when it spells the protected name."""
    names = [protected_name(t, extra) for t in action.writes]
    return all(n is None or n.casefold() in entry.rule.casefold() for n in names)


def _rules_then_mode(
    actions: list[Action],
    policy: PermissionPolicy,
    scope: Scope,
    uncertain: list[str],
    risky: Sequence[str] = (),
) -> PermissionVerdict:
    rule_scope = RuleScope(scope.root, policy.home)
    asked: RuleEntry | None = None
    allowed_by: list[str] = []
    uncovered: list[Action] = []
    for action in actions:
        entry = first_match(action, policy.rules, rule_scope)
        if entry is None:
            uncovered.append(action)
        elif entry.kind == "deny":
            return PermissionVerdict(
                "deny", "rules", f"denied by rule {entry.rule} (from {entry.source})", entry.rule
            )
        elif entry.kind == "ask":
            asked = asked or entry
        elif (
            uncertain
            or (policy.mode == "plan" and not action.read_only)
            or (
                protected_write(action, policy.protected_dirs)
                and not _names_protected(entry, action, policy.protected_dirs)
            )
        ):
            uncovered.append(action)
        elif entry.rule not in allowed_by:
            allowed_by.append(entry.rule)
    if asked is not None:
        # Plan mode's "no mutating step" comes before a question: an ask rule cannot
        # offer the user a step that plan mode would not run.
        if policy.mode == "plan" and plan_forbids(actions, uncertain):
            return PermissionVerdict("deny", "mode", PLAN_REASON)
        return PermissionVerdict(
            "ask", "rules", f"rule {asked.rule} asks for approval (from {asked.source})", asked.rule
        )
    if actions and not uncovered:
        rules = ", ".join(allowed_by)
        return PermissionVerdict("allow", "rules", f"allowed by rule {rules}", rules)
    outcome = mode_decision(uncovered, policy.mode, uncertain, risky, policy.protected_dirs)
    verdict = PermissionVerdict(outcome.decision, "mode", outcome.reason)  # type: ignore[arg-type]
    if verdict.decision == "allow" and allowed_by:
        verdict.rule = ", ".join(allowed_by)
        verdict.reason = f"{outcome.reason}; the rest allowed by rule {verdict.rule}"
    if verdict.decision == "ask":
        verdict.suggested_rules = suggestions(uncovered, scope.root, bool(uncertain))
    return verdict


def suggest_rules(request: PermissionRequest, policy: PermissionPolicy) -> list[str]:
    """The exact "always allow" rules for a call: one per command part or edited path."""
    scope = scope_of(policy)
    if request.tool == "Bash" or request.kind == "bash":
        parsed = analyze(_command(request))
        reach = unknown_reach(parsed, str(scope.cwd), str(policy.home))
        uncertain = not parsed.certain or bool(reach)
        return suggestions(bash_actions(parsed, scope), scope.root, uncertain)
    return suggestions(_tool_actions(request, scope), scope.root, False)


def _tool_actions(request: PermissionRequest, scope: Scope) -> list[Action]:
    return tool_actions(
        request.tool,
        request.input,
        request.read_only,
        request.kind,
        scope,
        request.read_only_trusted,
    )
