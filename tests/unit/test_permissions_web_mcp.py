"""WebFetch and MCP read-only hints in the permission engine: what asks, what a rule allows."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent_core.config.rule_syntax import rule_problem
from agent_core.config.settings import RuleEntry
from agent_core.permissions.engine import PermissionPolicy, PermissionRequest, decide, suggest_rules
from agent_core.permissions.rules import web_hosts_named
from tests.unit.test_permissions_rules import make_policy

MODES = ("default", "acceptEdits", "plan", "bypassPermissions")


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path


def network_off(pol: PermissionPolicy) -> PermissionPolicy:
    return msgspec.structs.replace(pol, network=False)


def fetch(url: str) -> PermissionRequest:
    return PermissionRequest("WebFetch", {"url": url, "prompt": "p"}, True, "web")


def mcp(tool: str, *, hint: bool, trusted: bool = False) -> PermissionRequest:
    return PermissionRequest(tool, {}, hint, "other", read_only_trusted=trusted)


@pytest.mark.parametrize(
    ("mode", "expected"),
    [("default", "ask"), ("acceptEdits", "ask"), ("plan", "ask"), ("bypassPermissions", "allow")],
)
def test_webfetch_asks_in_every_mode_but_bypass(project, home, mode, expected) -> None:
    verdict = decide(fetch("https://example.com/a"), make_policy(project, home, mode))
    assert (verdict.decision, verdict.layer) == (expected, "mode")
    if expected == "ask":
        assert verdict.suggested_rules == ["WebFetch(domain:example.com)"]
        assert "example.com" in verdict.reason


@pytest.mark.parametrize("mode", MODES)
def test_a_domain_rule_lets_webfetch_run_in_every_mode(project, home, mode) -> None:
    pol = make_policy(project, home, mode, allow=["WebFetch(domain:example.com)"])
    assert decide(fetch("https://docs.example.com/a"), pol).decision == "allow"
    assert decide(fetch("https://example.org/a"), pol).decision == (
        "allow" if mode == "bypassPermissions" else "ask"
    )


def test_the_suggested_rule_names_the_normalised_host(project, home) -> None:
    pol = make_policy(project, home)
    assert suggest_rules(fetch("https://DOCS.Example\u3002com./x"), pol) == [
        "WebFetch(domain:docs.example.com)"
    ]
    assert suggest_rules(fetch("http://0x7f.1:8000/"), pol) == ["WebFetch(domain:127.0.0.1)"]


@pytest.mark.parametrize(
    ("rule", "url"),
    [
        ("WebFetch(domain:example.com)", "https://EXAMPLE\uff0ecom/"),
        ("WebFetch(domain:example.com)", "https://docs.example\u3002com./"),
        ("WebFetch(domain:example\uff61com)", "https://example.com/"),  # the rule's own spelling
        ("WebFetch(domain:127.0.0.1)", "http://2130706433/"),
        ("WebFetch(domain:127.0.0.1)", "http://0177.0.0.1/"),
        ("WebFetch(domain:0x7f.1)", "http://127.0.0.1/"),
        ("WebFetch(domain:b\u00fccher.de)", "https://xn--bcher-kva.de/"),
        ("WebFetch(domain:xn--bcher-kva.de)", "https://B\u00dcCHER.de/"),
        ("WebFetch(domain:::1)", "http://[0:0::1]/"),
        ("WebFetch(domain:*.example.com)", "https://a.EXAMPLE\u3002com/"),
    ],
)
@pytest.mark.parametrize("mode", MODES)
def test_deny_rules_match_every_spelling_of_their_host(project, home, rule, url, mode) -> None:
    verdict = decide(fetch(url), make_policy(project, home, mode, deny=[rule], allow=["WebFetch"]))
    assert (verdict.decision, verdict.rule) == ("deny", rule)


@st.composite
def spelled(draw: st.DrawFn) -> tuple[str, str]:
    """A host name, and a spelling of it: any case, any of the dots IDNA reads as '.'."""
    labels = draw(
        st.lists(st.from_regex(r"[a-z][a-z0-9]{0,8}", fullmatch=True), min_size=2, max_size=4)
    )
    dots = draw(st.lists(st.sampled_from([".", "\u3002", "\uff0e", "\uff61"]), min_size=len(labels), max_size=len(labels)))  # fmt: skip
    cased = [draw(st.sampled_from([label, label.upper(), label.title()])) for label in labels]
    text = "".join(c + d for c, d in zip(cased, dots, strict=True))
    trailing = draw(st.booleans())
    return ".".join(labels), text if trailing else text[:-1]


@given(spelled())
def test_no_spelling_of_a_denied_host_runs_in_bypass_mode(case: tuple[str, str]) -> None:
    host, spelling = case
    pol = PermissionPolicy(Path("/nonexistent/p"), [], [RuleEntry(f"WebFetch(domain:{host})", "deny", "t")], "bypassPermissions", Path("/nonexistent/h"))  # fmt: skip
    assert decide(fetch(f"https://{spelling}/x"), pol).decision == "deny"


@given(st.text(max_size=40), st.sampled_from(["http://", "https://", ""]))
def test_any_url_gets_a_verdict(text: str, scheme: str) -> None:
    pol = PermissionPolicy(Path("/nonexistent/p"), [], [RuleEntry("WebFetch(domain:evil.com)", "deny", "t")], "default", Path("/nonexistent/h"))  # fmt: skip
    assert decide(fetch(scheme + text), pol).decision in ("ask", "deny")


def test_a_host_that_cannot_be_read_meets_deny_rules_not_allow_rules(project, home) -> None:
    url = "http://08.0.0.1/"  # a resolver might read it as a name, a browser refuses it
    denied = decide(fetch(url), make_policy(project, home, deny=["WebFetch(domain:evil.com)"]))
    assert denied.decision == "deny" and "cannot be read exactly" in denied.reason
    asked = decide(fetch(url), make_policy(project, home, allow=["WebFetch(domain:evil.com)"]))
    assert asked.decision == "ask" and asked.suggested_rules == []


@pytest.mark.parametrize("mode", MODES)
def test_sandbox_network_off_turns_webfetch_off(project, home, mode) -> None:
    pol = network_off(make_policy(project, home, mode, allow=["WebFetch"]))
    verdict = decide(fetch("https://example.com/"), pol)
    assert (verdict.decision, verdict.layer) == ("deny", "sandbox")
    assert "sandbox.network is false" in verdict.reason


def test_only_allow_rules_naming_a_host_exactly_let_it_be_private() -> None:
    rules = [
        RuleEntry("WebFetch(domain:LOCALHOST)", "allow", "t"),
        RuleEntry("WebFetch(domain:0x7f.1)", "allow", "t"),
        RuleEntry("WebFetch(domain:*.internal.corp)", "allow", "t"),
        RuleEntry("WebFetch(domain:10.0.0.9)", "deny", "t"),
        RuleEntry("WebFetch(domain:wiki.corp)", "ask", "t"),
        RuleEntry("WebFetch", "allow", "t"),
    ]
    assert web_hosts_named(rules) == {"localhost", "127.0.0.1"}


@pytest.mark.parametrize(
    "rule", ["WebFetch(domain:exa mple.com)", "WebFetch(domain:08.0.0.1)", "WebFetch(domain:)"]
)
def test_a_domain_rule_that_names_no_host_is_malformed(rule: str) -> None:
    assert rule_problem(rule) is not None


# --- MCP tools that claim readOnlyHint ----------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_a_read_only_hint_alone_asks_in_every_mode(project, home, mode) -> None:
    verdict = decide(mcp("mcp__db__query", hint=True), make_policy(project, home, mode))
    assert verdict.decision == "ask", verdict
    assert "server's word" in verdict.reason
    assert verdict.suggested_rules == ["mcp__db__query"]


@pytest.mark.parametrize("mode", MODES)
def test_a_rule_lets_a_hinted_tool_run(project, home, mode) -> None:
    for rule in ("mcp__db", "mcp__db__*", "mcp__db__query"):
        pol = make_policy(project, home, mode, allow=[rule])
        assert decide(mcp("mcp__db__query", hint=True), pol).decision == "allow"


@pytest.mark.parametrize(("mode", "expected"), [("default", "allow"), ("acceptEdits", "allow"), ("plan", "allow"), ("bypassPermissions", "allow")])  # fmt: skip
def test_a_trusted_hint_runs_like_a_read_only_tool(project, home, mode, expected) -> None:
    verdict = decide(
        mcp("mcp__db__query", hint=True, trusted=True), make_policy(project, home, mode)
    )
    assert verdict.decision == expected


def test_without_a_hint_trust_changes_nothing(project, home) -> None:
    for mode, expected in (("default", "ask"), ("plan", "deny"), ("bypassPermissions", "ask")):
        verdict = decide(
            mcp("mcp__db__drop", hint=False, trusted=True), make_policy(project, home, mode)
        )
        assert verdict.decision == expected, (mode, verdict)


def test_a_deny_rule_beats_a_trusted_hint(project, home) -> None:
    pol = make_policy(project, home, deny=["mcp__db__query"])
    assert decide(mcp("mcp__db__query", hint=True, trusted=True), pol).decision == "deny"
