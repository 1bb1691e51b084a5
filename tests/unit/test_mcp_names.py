"""``mcp__server__tool`` names: the server-name rule, safe tool names, parsing back."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent_core.mcp.names import MAX_NAME, McpName, parse, server_name_problem, tool_name
from agent_core.permissions.rules import _mcp_matches

SERVERS = st.from_regex(r"[A-Za-z0-9-]{1,8}(_[A-Za-z0-9-]{1,8}){0,2}", fullmatch=True)
TOOLS = st.text(min_size=1, max_size=90)


@pytest.mark.parametrize(
    "name", ["git__hub", "git_", "_git", "__", "_", "", "a b", "git.hub", "gït", "a/b", "x" * 50]
)
def test_bad_server_names(name: str) -> None:
    assert server_name_problem(name) is not None


@pytest.mark.parametrize("name", ["git", "git_hub", "git-hub", "a_b_c", "GitHub", "0", "x" * 49])
def test_good_server_names(name: str) -> None:
    assert server_name_problem(name) is None


@pytest.mark.parametrize(
    ("name", "parsed"),
    [
        ("mcp__git__status", McpName("git", "status")),
        ("mcp__git__hub__issue", McpName("git", "hub__issue")),
        ("mcp__git___x", McpName("git", "_x")),
        ("mcp__git_hub__x", McpName("git_hub", "x")),
        ("mcp__git", None),
        ("mcp__git__", None),
        ("mcp____x", None),
        ("mcp___git__x", None),
        ("mcp__git_", None),
        ("MCP__git__x", None),
        ("Read", None),
        ("mcp__g.t__x", None),
    ],
)
def test_parse(name: str, parsed: McpName | None) -> None:
    assert parse(name) == parsed


def test_unsafe_or_long_tool_names_keep_a_hash() -> None:
    assert tool_name("git", "status") == "mcp__git__status"
    dotted = tool_name("git", "read.file")
    assert re.fullmatch(r"mcp__git__read_file_[0-9a-f]{6}", dotted)
    assert dotted != tool_name("git", "read_file") != tool_name("git", "read-file")
    long = tool_name("git", "t" * 100)
    assert len(long) == MAX_NAME and long != tool_name("git", "t" * 99)


@given(SERVERS, TOOLS)
def test_every_tool_name_is_safe_and_parses_back_to_its_server(server: str, tool: str) -> None:
    name = tool_name(server, tool)
    assert re.fullmatch(r"[A-Za-z0-9_-]{1,64}", name)
    parsed = parse(name)
    assert parsed is not None and parsed.server == server


@given(SERVERS, SERVERS, TOOLS)
def test_a_server_rule_never_reaches_another_servers_tools(
    rule_server: str, server: str, tool: str
) -> None:
    name = tool_name(server, tool)
    for rule in (f"mcp__{rule_server}", f"mcp__{rule_server}__*"):
        assert _mcp_matches(rule, name) is (rule_server == server)


@given(SERVERS, TOOLS, TOOLS)
def test_distinct_tools_of_a_server_get_distinct_names(server: str, a: str, b: str) -> None:
    if a != b:
        assert tool_name(server, a) != tool_name(server, b)
