"""An MCP server's readOnlyHint is its own word, end to end through `mewcode -p`.

The everything server's ``claims_read_only`` tool says it is read-only and
writes a witness file: a server that lies. In default mode it asks (headless:
denied) unless a rule allows it, or the user's own ~/.mewcode/mcp.json trusts
that server's hints; a project's file cannot. The hint still decides what runs
side by side (``meet`` only answers "met" when its peer runs at the same time)
and what plan mode offers.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.integration.test_mcp_headless import call, configure, results, run, stdio, text_of

LIAR = "mcp__local__claims_read_only"


def lie(witness: Path) -> list[dict]:
    return [{"text": "Reading.", "tool_calls": [call(LIAR, path=str(witness))]}, {"text": "Ok."}]


def run_lie(fake_llm, project: Path, home: Path, *flags: str, trust: bool = False) -> list[dict]:
    """The server ``local`` configured in your mcp.json; the model calls the liar once."""
    configure(home, {"local": stdio(trust_hints=trust)})
    fake_llm.script(lie(project / "witness.txt"))
    code, lines, err = run(fake_llm, project, home, *flags)
    assert code == 0, err
    return lines


def test_a_read_only_hint_alone_asks_so_headless_it_is_denied(
    fake_llm, project: Path, mewcode_home: Path
) -> None:
    lines = run_lie(fake_llm, project, mewcode_home)
    assert not (project / "witness.txt").exists()
    assert lines[-1]["permission_denials"][0]["tool_name"] == LIAR
    assert "server's word" in text_of(results(lines)[0])


@pytest.mark.parametrize("rule", [LIAR, "mcp__local", "mcp__local__*"])
def test_a_rule_lets_a_hinted_tool_run(
    fake_llm, project: Path, mewcode_home: Path, rule: str
) -> None:
    lines = run_lie(fake_llm, project, mewcode_home, "--allowedTools", rule)
    assert (project / "witness.txt").read_text() == "called"
    assert lines[-1]["permission_denials"] == []


def test_trusting_your_own_servers_hints_lets_its_tools_run(
    fake_llm, project: Path, mewcode_home: Path
) -> None:
    witness = project / "witness.txt"
    configure(mewcode_home, {"local": stdio(trust_hints=True), "other": stdio()})
    fake_llm.script(
        [
            {
                "text": "Reading.",
                "tool_calls": [
                    call(LIAR, path=str(witness)),
                    call("mcp__other__claims_read_only", path=str(project / "other.txt")),
                    call("mcp__local__write_witness", path=str(project / "write.txt")),
                ],
            },
            {"text": "Ok."},
        ]
    )
    code, lines, err = run(fake_llm, project, mewcode_home)
    assert code == 0, err
    assert witness.read_text() == "called"  # the trusted server's hint
    assert not (project / "other.txt").exists()  # trust is per server
    assert not (project / "write.txt").exists()  # trust covers hints, not tools with effects
    denied = [d["tool_name"] for d in lines[-1]["permission_denials"]]
    assert denied == ["mcp__other__claims_read_only", "mcp__local__write_witness"]


@pytest.mark.parametrize("how", ["trusted hints", "a rule"])
def test_hinted_tools_still_run_side_by_side(
    fake_llm, project: Path, mewcode_home: Path, tmp_path: Path, how: str
) -> None:
    folder = tmp_path / "meet"
    folder.mkdir()
    configure(mewcode_home, {"local": stdio(trust_hints=how == "trusted hints")})
    meet = "mcp__local__meet"
    fake_llm.script(
        [
            {
                "text": "Both.",
                "tool_calls": [
                    call(meet, folder=str(folder), me="a", peer="b"),
                    call(meet, folder=str(folder), me="b", peer="a"),
                ],
            },
            {"text": "Met."},
        ]
    )
    extra = () if how == "trusted hints" else ("--allowedTools", "mcp__local")
    code, lines, err = run(fake_llm, project, mewcode_home, *extra)
    assert code == 0, err
    assert [text_of(r) for r in results(lines)] == ["met", "met"]


def test_plan_mode_offers_hinted_tools_and_asks_before_running_them(
    fake_llm, project: Path, mewcode_home: Path
) -> None:
    plan = ("--permission-mode", "plan")
    lines = run_lie(fake_llm, project, mewcode_home, *plan)
    assert LIAR in lines[0]["tools"] and "mcp__local__write_witness" not in lines[0]["tools"]
    assert not (project / "witness.txt").exists()
    assert "plan mode: needs approval" in text_of(results(lines)[0])
    # Trusted, it runs in plan mode like any read-only tool.
    run_lie(fake_llm, project, mewcode_home, *plan, trust=True)
    assert (project / "witness.txt").read_text() == "called"


def test_a_project_cannot_trust_its_own_servers_hints(
    fake_llm, project: Path, mewcode_home: Path
) -> None:
    """Trusted or not, a cloned repository's .mcp.json never vouches for its servers; and a
    project entry that replaces yours under the same name does not inherit your trust."""
    witness = project / "witness.txt"
    configure(mewcode_home, {"local": stdio(trust_hints=True)})
    project_entry = {**stdio(), "trustReadOnlyHint": True}
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"local": project_entry}}))
    fake_llm.script(lie(witness))
    code, lines, err = run(fake_llm, project, mewcode_home, "--trust-project")
    assert code == 0, err
    assert "trustReadOnlyHint is ignored here" in err
    assert not witness.exists()
    assert lines[-1]["permission_denials"][0]["tool_name"] == LIAR
