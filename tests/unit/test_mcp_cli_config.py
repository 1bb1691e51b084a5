"""``--mcp-config``: the user's own servers for one run, checked whole; ``--strict`` only those."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from agent_core.errors import ConfigError
from agent_core.mcp.cli_config import read_cli_mcp_config
from agent_core.mcp.config import load_mcp_config


def entry(arg: str) -> dict:
    return {"command": sys.executable, "args": [arg]}


def test_json_text_and_a_file_are_both_read(tmp_path: Path) -> None:
    (tmp_path / "m.json").write_text(json.dumps({"mcpServers": {"f": entry("1")}}))
    from_file = read_cli_mcp_config("m.json", tmp_path, tmp_path, {})
    from_text = read_cli_mcp_config(
        '{"mcpServers": {"t": {"command": "x"}}}', tmp_path, tmp_path, {}
    )
    assert (from_file.source, list(from_file.servers)) == (str(tmp_path / "m.json"), ["f"])
    assert (from_text.source, list(from_text.servers)) == ("--mcp-config", ["t"])


@pytest.mark.parametrize(
    ("value", "error"),
    [
        ("{not json", "--mcp-config: not valid JSON"),
        ('{"mcpServers": {}}', "--mcp-config: no servers"),
        ('{"mcpServers": {"a": {"command": "x", "args": "y"}}}', "server 'a': args must be a list"),
        ('{"mcpServers": {"a": {"command": "${NOPE_UNSET}"}}}', "server 'a':"),
    ],
)
def test_any_problem_in_a_value_is_an_error(tmp_path: Path, value: str, error: str) -> None:
    with pytest.raises(ConfigError, match=error.replace("$", r"\$").replace("(", r"\(")):
        read_cli_mcp_config(value, tmp_path, tmp_path, {})


def test_cli_servers_start_in_an_untrusted_project_and_strict_reads_no_file(
    paths, tmp_path: Path
) -> None:
    paths.home.mkdir(parents=True, exist_ok=True)
    (paths.home / "mcp.json").write_text(json.dumps({"mcpServers": {"mine": entry("m")}}))
    (paths.project / ".mcp.json").write_text(json.dumps({"mcpServers": {"given": entry("p")}}))
    given = read_cli_mcp_config(
        json.dumps({"mcpServers": {"given": entry("c")}}), tmp_path, tmp_path, {}
    )
    config = load_mcp_config(paths, trusted=False, home=tmp_path, env={}, cli=[given])
    assert sorted(s.name for s in config.servers) == ["given", "mine"]
    assert next(s for s in config.servers if s.name == "given").args == ("c",)
    assert config.untrusted == []  # the project's same-named server cannot replace it
    strict = load_mcp_config(paths, trusted=True, home=tmp_path, env={}, cli=[given], strict=True)
    assert [(s.name, s.args) for s in strict.servers] == [("given", ("c",))]
