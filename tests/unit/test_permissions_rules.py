"""Rule syntax and matching, suggested "always allow" rules, and CLI rule lists."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_core.config.settings import RuleEntry
from agent_core.errors import ConfigError
from agent_core.permissions import (
    PermissionPolicy,
    PermissionRequest,
    cli_rules,
    decide,
    parse_rule,
    rule_problem,
    split_rules,
    suggest_rules,
)
from agent_core.permissions.bash_specifiers import bash_matches
from agent_core.permissions.check import tool_profile
from agent_core.permissions.rules import path_matches
from agent_core.permissions.suggest import bash_rule
from agent_core.tool_table import BUILTIN_TOOLS


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    path.mkdir()
    return path


def make_policy(
    project: Path, home: Path, mode: str = "default", **lists: list[str]
) -> PermissionPolicy:
    rules = [RuleEntry(rule, kind, "test") for kind in ("deny", "ask", "allow")
             for rule in lists.get(kind, [])]  # fmt: skip
    return PermissionPolicy(project, [], rules, mode, home)


def call(tool: str, **data: object) -> PermissionRequest:
    kind, read_only = tool_profile(tool) if tool in BUILTIN_TOOLS else ("other", False)
    return PermissionRequest(tool, dict(data), read_only, kind)


def test_parse_rule_forms() -> None:
    assert parse_rule("Bash") == ("Bash", None)
    assert parse_rule("Bash(npm run test:*)") == ("Bash", "npm run test:*")
    assert parse_rule(" Edit( docs/*.md ) ") == ("Edit", "docs/*.md")
    assert parse_rule("mcp__github__*") == ("mcp__github__*", None)
    assert parse_rule("Bash(") is None
    assert parse_rule("not a rule") is None


def test_rule_problem_explains_bad_rules() -> None:
    assert rule_problem("Bash(ls:*)") is None
    assert "expected Tool or Tool(specifier)" in (rule_problem("Bash(ls") or "")
    assert "domain:" in (rule_problem("WebFetch(example.com)") or "")


@pytest.mark.parametrize(
    ("spec", "command", "matches"),
    [
        ("npm run test:*", "npm run test", True),
        ("npm run test:*", "npm run test -- -x", True),
        ("npm run test:*", "npm run testing", False),
        ("npm run test:*", "npm run", False),
        ("ls *", "ls", True),
        ("ls *", "ls -la", True),
        ("ls *", "lsof", False),
        ("ls*", "lsof", True),
        ("git status", "git status", True),
        ("git status", "git status --short", False),
        ("git * main", "git push origin main", True),
        ("git * main", "git push origin main --force", False),
        ('git commit -m "fix bug"', "git commit -m 'fix bug'", True),
        ("*", "anything at all", True),
    ],
)
def test_bash_specifiers(spec: str, command: str, matches: bool) -> None:
    assert bash_matches(spec, [command]) is matches


@pytest.mark.parametrize(
    ("spec", "rel", "matches"),
    [
        ("src/**", "src/a/b.py", True),
        ("src/**", "lib/src/a.py", False),
        ("docs/*.md", "docs/x.md", True),
        ("docs/*.md", "docs/sub/x.md", False),
        ("*.py", "deep/down/x.py", True),
        ("/top.py", "top.py", True),
        ("/top.py", "sub/top.py", False),
        ("./top.py", "top.py", True),
        ("./top.py", "sub/top.py", False),
    ],
)
def test_path_specifiers_are_gitignore_patterns_from_the_root(
    project: Path, home: Path, spec: str, rel: str, matches: bool
) -> None:
    assert path_matches(spec, project / rel, project, home) is matches


def test_absolute_and_home_path_specifiers(project: Path, home: Path) -> None:
    assert path_matches("//etc/**", Path("/etc/hosts"), project, home)
    assert not path_matches("//etc/**", Path("/usr/hosts"), project, home)
    assert path_matches("~/notes/*.txt", home.resolve() / "notes" / "a.txt", project, home)


@pytest.mark.parametrize(
    ("rule", "url", "matches"),
    [
        ("WebFetch(domain:example.com)", "https://example.com/x", True),
        ("WebFetch(domain:example.com)", "https://docs.example.com/x", True),
        ("WebFetch(domain:example.com)", "https://EXAMPLE.com:8443/x", True),
        ("WebFetch(domain:example.com)", "https://badexample.com/", False),
        ("WebFetch(domain:example.com)", "https://example.com.evil.io/", False),
        ("WebFetch(domain:*.example.com)", "https://example.com/", False),
        ("WebFetch(domain:*.example.com)", "https://a.example.com/", True),
        ("WebFetch", "https://anything.io/", True),
    ],
)
def test_webfetch_domain_rules(
    project: Path, home: Path, rule: str, url: str, matches: bool
) -> None:
    verdict = decide(call("WebFetch", url=url, prompt="p"), make_policy(project, home, deny=[rule]))
    assert (verdict.decision == "deny") is matches


@pytest.mark.parametrize(
    ("rule", "tool", "matches"),
    [
        ("mcp__github", "mcp__github__create_issue", True),
        ("mcp__github__*", "mcp__github__list", True),
        ("mcp__github__create_issue", "mcp__github__create_issue", True),
        ("mcp__github__create_issue", "mcp__github__create_issue_comment", False),
        ("mcp__github", "mcp__githubx__t", False),
        ("mcp__github__*", "mcp__githubx__t", False),
        ("mcp__git", "mcp__github__t", False),
        ("github", "mcp__github__t", False),
    ],
)
def test_mcp_rules_match_the_full_tool_name(
    project: Path, home: Path, rule: str, tool: str, matches: bool
) -> None:
    verdict = decide(PermissionRequest(tool, {}, False, "other"),
                     make_policy(project, home, allow=[rule]))  # fmt: skip
    assert (verdict.decision == "allow") is matches


def test_deny_then_ask_then_allow_whatever_the_list_order(project: Path, home: Path) -> None:
    rules = [
        RuleEntry("Bash(git:*)", "allow", "a"),
        RuleEntry("Bash(git push:*)", "ask", "b"),
        RuleEntry("Bash(git push --force:*)", "deny", "c"),
    ]
    pol = PermissionPolicy(project, [], rules, "default", home)
    assert decide(call("Bash", command="git push --force"), pol).decision == "deny"
    assert decide(call("Bash", command="git push"), pol).decision == "ask"
    assert decide(call("Bash", command="git fetch"), pol).decision == "allow"


def test_tool_names_compare_exactly(project: Path, home: Path) -> None:
    pol = make_policy(project, home, allow=["bash"])
    assert decide(call("Bash", command="npm test"), pol).decision == "ask"


def test_a_read_rule_covers_every_tool_that_declares_it_reads(project: Path, home: Path) -> None:
    (project / "secret.txt").write_text("s")
    (project / "src").mkdir(exist_ok=True)
    pol = make_policy(project, home, deny=["Read(secret.txt)"], allow=["Grep", "LS", "Glob"])
    assert decide(call("Read", file_path="secret.txt"), pol).decision == "deny"
    assert decide(call("LS", path="secret.txt"), pol).decision == "deny"
    assert decide(call("Grep", pattern="s", path="secret.txt"), pol).decision == "deny"
    assert decide(call("LS", path="src"), pol).decision == "allow"


def test_rules_for_claude_code_tools_mewcode_lacks_say_so() -> None:
    assert rule_problem("NotebookEdit(x.ipynb)") == (
        "NotebookEdit(x.ipynb): NotebookEdit is a Claude Code tool that MewCode does not have"
    )
    assert "unknown tool Recall" in (rule_problem("Recall") or "")


def test_deny_verdict_names_rule_and_source(project: Path, home: Path) -> None:
    pol = PermissionPolicy(project, [], [RuleEntry("Bash(curl:*)", "deny", "/p/settings.yaml")],
                           "default", home)  # fmt: skip
    verdict = decide(call("Bash", command="curl https://x.io"), pol)
    assert verdict.rule == "Bash(curl:*)"
    assert verdict.reason == "denied by rule Bash(curl:*) (from /p/settings.yaml)"


@pytest.mark.parametrize(
    ("words", "rule"),
    [
        ("npm run test -- -x", "Bash(npm run test:*)"),
        ("git commit -m x", "Bash(git commit:*)"),
        ("ls -la", "Bash(ls:*)"),
        ("python3 -m pytest -q", "Bash(python3 -m pytest:*)"),
        ("npx prettier --write .", "Bash(npx prettier:*)"),
        ("gh pr create --fill", "Bash(gh pr create:*)"),
        ("docker compose up -d", "Bash(docker compose up:*)"),
        ("make", "Bash(make:*)"),
        ("sudo apt install x", "Bash(sudo apt install x)"),
    ],
)
def test_bash_rule_suggestions(words: str, rule: str) -> None:
    assert bash_rule(words.split()) == rule


def test_suggestions_one_per_part_and_per_edited_path(project: Path, home: Path) -> None:
    pol = make_policy(project, home)
    verdict = decide(call("Bash", command="npm run build && ls && git push > push.log"), pol)
    assert verdict.decision == "ask"
    assert verdict.suggested_rules == [
        "Bash(npm run build:*)",
        "Bash(git push)",  # a push publishes: only this one is allowed again
        "Edit(./push.log)",
    ]
    assert suggest_rules(call("Edit", file_path="src/a.py"), pol) == ["Edit(src/a.py)"]
    assert suggest_rules(call("WebFetch", url="https://x.io/a"), pol) == ["WebFetch(domain:x.io)"]
    mcp = PermissionRequest("mcp__gh__issue", {}, False, "other")
    assert suggest_rules(mcp, pol) == ["mcp__gh__issue"]


def test_no_suggestion_for_uncertain_commands(project: Path, home: Path) -> None:
    verdict = decide(call("Bash", command="$RUNNER test"), make_policy(project, home))
    assert verdict.decision == "ask"
    assert verdict.suggested_rules == []


@pytest.mark.parametrize(
    "command",
    [
        "npm run test -- -x",
        "cargo build --release && cargo test",
        "git add -A && git commit -m 'a b'",
        "pytest -q > out.log",
        "make build; ./gradlew check",
    ],
)
def test_saving_the_suggested_rules_allows_the_same_call(
    project: Path, home: Path, command: str
) -> None:
    first = decide(call("Bash", command=command), make_policy(project, home))
    assert first.decision == "ask" and first.suggested_rules
    again = decide(call("Bash", command=command),
                   make_policy(project, home, allow=first.suggested_rules))  # fmt: skip
    assert again.decision == "allow", again


def test_split_rules_keeps_parentheses_together() -> None:
    assert split_rules("Bash(git:*) Edit") == ["Bash(git:*)", "Edit"]
    assert split_rules("Bash(npm run test:*), Read") == ["Bash(npm run test:*)", "Read"]
    assert split_rules("Bash(git commit -m a,b)  mcp__gh") == ["Bash(git commit -m a,b)", "mcp__gh"]


def test_cli_rules_become_cli_sourced_entries() -> None:
    entries = cli_rules(["Bash(git:*) Edit"], ["Bash(rm:*)"])
    assert entries == [
        RuleEntry("Bash(rm:*)", "deny", "cli"),
        RuleEntry("Bash(git:*)", "allow", "cli"),
        RuleEntry("Edit", "allow", "cli"),
    ]


@pytest.mark.parametrize("value", ["Bash(git:*", "Bash(git))", "WebFetch(example.com)"])
def test_cli_rules_reject_malformed_values_in_one_line(value: str) -> None:
    with pytest.raises(ConfigError) as info:
        cli_rules([value])
    assert "\n" not in str(info.value)
    assert str(info.value).startswith("--allowedTools:")
