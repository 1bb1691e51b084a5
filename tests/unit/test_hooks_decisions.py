"""Hooks: matcher, exit codes and JSON output, combining, and the settings shape (docs/configuration.md#hooks)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent_core.hooks.config import HookCommand, load_hooks, parse_hooks
from agent_core.hooks.matcher import matcher_problem, matches
from agent_core.hooks.outcome import HookOutcome, HookRun, combine, interpret

L = "hook f PreToolUse `x`"


@pytest.mark.parametrize(
    ("matcher", "target", "expected"),
    [
        ("", "Bash", True),
        ("*", "Edit", True),
        ("Bash", "Bash", True),
        ("Bash", "BashOutput", False),  # plain names match exactly, not as a prefix
        ("Bash", "bash", False),
        ("Edit|Write", "Write", True),
        ("Edit|Write", "MultiEdit", False),
        ("Edit | Write", "Write", True),
        ("mcp__github__.*", "mcp__github__create_issue", True),
        ("mcp__github__.*", "mcp__gitlab__x", False),
        ("Notebook.*", "NotebookEdit", True),
        ("^Bash$", "Bash", True),
        ("^Bash$", "BashOutput", False),
        ("Ed.t", "MultiEdit", True),  # a regular expression is searched, unanchored
        ("manual", "auto", False),
    ],
)
def test_matcher(matcher: str, target: str, expected: bool) -> None:
    assert matches(matcher, target) is expected


def test_an_invalid_regex_is_a_config_problem() -> None:
    assert "not a valid regular expression" in (matcher_problem("Edit(") or "")
    assert matcher_problem("Edit|Write") is None and matcher_problem("mcp__.*") is None


@given(st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,20}", fullmatch=True))
def test_a_plain_name_matches_itself_and_nothing_longer(name: str) -> None:
    assert matches(name, name) and not matches(name, name + "X")
    assert matches(f"Other|{name}", name)


def run(code: int | None, out: str = "", err: str = "", **kw) -> HookRun:
    return HookRun(L, code, out, err, **kw)


def pre(**specific) -> str:
    return json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", **specific}})


@pytest.mark.parametrize(
    ("event", "hook_run", "expected"),
    [
        ("PreToolUse", run(0), HookOutcome()),
        ("PreToolUse", run(0, "hello"), HookOutcome()),  # plain stdout: not context here
        ("UserPromptSubmit", run(0, "today is Monday\n"), HookOutcome(context=["today is Monday"])),
        ("SessionStart", run(0, "branch main"), HookOutcome(context=["branch main"])),
        (
            "PreToolUse",
            run(2, "", "no rm here\n"),
            HookOutcome(blocked=True, reason="no rm here", decided_by=L),
        ),
        (
            "PreToolUse",
            run(2),
            HookOutcome(blocked=True, reason=f"blocked by {L}", decided_by=L),
        ),
        (
            "UserPromptSubmit",
            run(2, "ignored stdout", "secrets in prompt"),
            HookOutcome(blocked=True, reason="secrets in prompt", decided_by=L),
        ),
        ("SessionStart", run(2, "", "cannot"), HookOutcome(warnings=[f"{L} exited 2: cannot"])),
        (
            "PreToolUse",
            run(1, "", "jq: not found\nmore"),
            HookOutcome(warnings=[f"{L} exited 1: jq: not found"]),
        ),
        ("Stop", run(127), HookOutcome(warnings=[f"{L} exited 127"])),
        (
            "PreToolUse",
            run(None, timed_out=True, timeout_s=1.0),
            HookOutcome(warnings=[f"{L} timed out after 1 s and was killed"]),
        ),
        (
            "PreToolUse",
            run(None, error="No such file"),
            HookOutcome(warnings=[f"{L} could not start: No such file"]),
        ),
        (
            "PreToolUse",
            run(0, pre(permissionDecision="deny", permissionDecisionReason="not on main")),
            HookOutcome(decision="deny", decision_reason="not on main", decided_by=L),
        ),
        (
            "PreToolUse",
            run(0, pre(permissionDecision="allow")),
            HookOutcome(decision="allow", decided_by=L),
        ),
        (
            "PreToolUse",
            run(0, pre(permissionDecision="ask", permissionDecisionReason="check")),
            HookOutcome(decision="ask", decision_reason="check", decided_by=L),
        ),
        (
            "PreToolUse",
            run(0, json.dumps({"decision": "approve", "reason": "old form"})),
            HookOutcome(decision="allow", decision_reason="old form", decided_by=L),
        ),
        (
            "PreToolUse",
            run(0, json.dumps({"decision": "block", "reason": "old deny"})),
            HookOutcome(decision="deny", decision_reason="old deny", decided_by=L),
        ),
        ("PreToolUse", run(0, pre(permissionDecision="maybe")), HookOutcome()),
        (
            "PostToolUse",
            run(0, json.dumps({"decision": "block", "reason": "lint failed"})),
            HookOutcome(blocked=True, reason="lint failed", decided_by=L),
        ),
        (
            "Stop",
            run(0, json.dumps({"decision": "block", "reason": "tests fail"})),
            HookOutcome(blocked=True, reason="tests fail", decided_by=L),
        ),
        (
            "Stop",
            run(0, json.dumps({"continue": False, "stopReason": "enough"})),
            HookOutcome(stop=True, stop_reason="enough"),
        ),
        (
            "Stop",
            run(0, json.dumps({"continue": False})),
            HookOutcome(stop=True, stop_reason=f"stopped by {L}"),
        ),
        (
            "PostToolUse",
            run(0, json.dumps({"systemMessage": "formatted 2 files"})),
            HookOutcome(system_messages=["formatted 2 files"]),
        ),
        (
            "UserPromptSubmit",
            run(0, json.dumps({"hookSpecificOutput": {"additionalContext": "ticket ABC-1"}})),
            HookOutcome(context=["ticket ABC-1"]),
        ),
        ("UserPromptSubmit", run(0, "{not json"), HookOutcome(context=["{not json"])),
        # JSON is read only on exit 0: exit 1 with a deny is a warning, and the call goes on.
        (
            "PreToolUse",
            run(1, pre(permissionDecision="deny")),
            HookOutcome(warnings=[f"{L} exited 1"]),
        ),
    ],
)
def test_interpret(event: str, hook_run: HookRun, expected: HookOutcome) -> None:
    assert interpret(event, hook_run) == expected


def test_context_is_bounded() -> None:
    out = interpret("SessionStart", run(0, "x" * 50_000))
    assert len(out.context[0]) == 10_000


def test_combine_any_block_wins_and_deny_beats_ask_beats_allow() -> None:
    allow = HookOutcome(decision="allow", decided_by="a")
    ask = HookOutcome(decision="ask", decision_reason="why", decided_by="b")
    deny = HookOutcome(decision="deny", decision_reason="no", decided_by="c")
    block = HookOutcome(blocked=True, reason="stop", decided_by="d")
    assert combine([allow, ask]).decision == "ask" and combine([allow, ask]).decided_by == "b"
    both = combine([ask, deny, allow])
    assert (both.decision, both.decision_reason, both.decided_by) == ("deny", "no", "c")
    blocked = combine([allow, block, HookOutcome(warnings=["w"])])
    assert blocked.blocked and blocked.reason == "stop" and blocked.decided_by == "d"
    assert blocked.warnings == ["w"]
    assert combine([]) == HookOutcome()


@given(st.permutations(["allow", "ask", "deny", None]))
def test_combine_does_not_depend_on_order(order: list) -> None:
    outcomes = [HookOutcome(decision=d, decided_by=str(d)) for d in order]
    assert combine(outcomes).decision == "deny"


def test_parse_hooks_keeps_good_entries_and_names_bad_ones() -> None:
    data = {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "./check.sh"}]},
            {"matcher": "Edit(", "hooks": [{"type": "command", "command": "x"}]},
            {"matcher": "Write", "hooks": [{"type": "command", "command": "y", "timeout": 5}]},
            {"matcher": "Read", "hooks": [{"type": "prompt", "prompt": "z"}, {"command": ""}]},
        ],
        "Stop": [{"hooks": [{"type": "command", "command": "s", "timeout": -1}]}],
        "SubagentStop": [],
        "Notification": "oops",
    }
    hooks, problems = parse_hooks(data, "/p/.claude/settings.json")
    assert hooks == [
        HookCommand("PreToolUse", "Bash", "./check.sh", 60.0, "/p/.claude/settings.json"),
        HookCommand("PreToolUse", "Write", "y", 5.0, "/p/.claude/settings.json"),
    ]
    assert all(p.startswith("/p/.claude/settings.json: hooks.") for p in problems)
    joined = "\n".join(problems)
    assert "PreToolUse[1]: matcher 'Edit(' is not a valid regular expression" in joined
    assert "PreToolUse[3].hooks[0]: type 'prompt' is not supported" in joined
    assert "PreToolUse[3].hooks[1]: command: expected a non-empty string" in joined
    assert "Stop[0].hooks[0]: timeout: expected a number of seconds above 0" in joined
    assert "SubagentStop: not an event MewCode runs" in joined
    assert "Notification: expected a list" in joined
    assert parse_hooks(["x"], "f") == ([], ["f: hooks: expected a mapping of event names to lists"])


@pytest.mark.parametrize("matcher", ["*", " * ", ""])
def test_star_and_empty_matchers_are_valid_and_match_everything(matcher: str) -> None:
    # The issue: "*" was rejected as "not a valid regular expression".
    assert matcher_problem(matcher) is None
    assert all(matches(matcher, name) for name in ("Bash", "mcp__github__x", "startup"))


def test_a_star_matcher_from_a_claude_code_file_loads(paths) -> None:
    claude = paths.project / ".claude"
    claude.mkdir()
    (claude / "settings.json").write_text(
        '{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command",'
        ' "command": "true"}]}, {"hooks": [{"type": "command", "command": "false"}]}]}}'
    )
    found = load_hooks(paths, trusted=True)
    assert found.problems == []
    assert [(h.matcher, h.command) for h in found.active] == [("*", "true"), ("", "false")]
