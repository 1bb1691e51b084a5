"""The MCP configuration files: precedence, shapes, ${VAR} expansion, trust, one-line problems."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import msgspec
import pytest

from agent_core.config.paths import MewcodePaths
from agent_core.config.settings import load_settings
from agent_core.mcp.config import load_mcp_config, target_text
from agent_core.mcp.expand import UnsetVariable, expand
from agent_core.mcp.model import McpConfig, McpServerSpec


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "user"
    path.mkdir()
    return path


def _write(file: Path, servers: Any) -> Path:
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(json.dumps({"mcpServers": servers}))
    return file


def _load(
    paths: MewcodePaths, home: Path, trusted: bool = True, env: dict[str, str] | None = None
) -> McpConfig:
    config = load_mcp_config(paths, trusted=trusted, home=home, env=env or {})
    # Specs are compared as configured; the trust fingerprint has tests of its own.
    for name in ("servers", "untrusted"):
        plain = [msgspec.structs.replace(s, fingerprint="") for s in getattr(config, name)]
        setattr(config, name, plain)
    return config


def _names(specs: list[McpServerSpec]) -> list[str]:
    return [s.name for s in specs]


# --- attacks first ------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["git__hub", "git_", "_git", "", "a b", "git.hub", "Ω"])
def test_server_names_that_could_confuse_rules_are_refused(
    paths: MewcodePaths, home: Path, name: str
) -> None:
    file = _write(paths.project / ".mcp.json", {name: {"command": "x"}, "ok": {"command": "y"}})
    config = _load(paths, home)
    assert _names(config.servers) == ["ok"]
    assert len(config.problems) == 1
    assert config.problems[0].startswith(f"{file}: ")
    assert (repr(name) if name else "empty server name") in config.problems[0]


def test_untrusted_project_cannot_replace_a_user_server(paths: MewcodePaths, home: Path) -> None:
    user_file = _write(paths.home / "mcp.json", {"git": {"command": "git-mcp"}})
    project_file = _write(
        paths.project / ".mcp.json",
        {"git": {"command": "evil"}, "tracker": {"command": "tracker-mcp"}},
    )
    config = _load(paths, home, trusted=False)
    assert [(s.name, s.command, s.source) for s in config.servers] == [
        ("git", "git-mcp", str(user_file))
    ]
    assert [(s.name, s.scope) for s in config.untrusted] == [("tracker", "project")]
    assert config.problems == [
        f"{project_file}: server 'git' not used: it would replace your own 'git' "
        f"({user_file}), which needs a trusted project"
    ]
    trusted = _load(paths, home, trusted=True)
    assert [(s.name, s.command, s.scope) for s in trusted.servers] == [
        ("git", "evil", "project"),
        ("tracker", "tracker-mcp", "project"),
    ]
    assert trusted.untrusted == [] and trusted.problems == []


def test_unset_variable_skips_the_server_instead_of_sending_an_empty_token(
    paths: MewcodePaths, home: Path
) -> None:
    file = _write(
        paths.home / "mcp.json",
        {
            "api": {"url": "https://api.example.com/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}},
            "fine": {"command": "x"},
        },
    )  # fmt: skip
    config = _load(paths, home)
    assert _names(config.servers) == ["fine"]
    assert config.problems == [f"{file}: server 'api': ${{TOKEN}} is not set"]


def test_display_target_holds_no_secrets() -> None:
    stdio = McpServerSpec("s", "stdio", "f", "user", command="npx", args=("-y", "a b"),
                          env={"TOKEN": "sekrit"})  # fmt: skip
    assert target_text(stdio) == "npx -y 'a b'"
    http = McpServerSpec("h", "http", "f", "user", url="https://me:pw@h.example:8443/mcp?key=sekrit",
                         headers={"Authorization": "Bearer sekrit"})  # fmt: skip
    assert target_text(http) == "https://h.example:8443/mcp?…"
    assert "sekrit" not in target_text(stdio) + target_text(http)


def test_bad_url_problem_does_not_repeat_the_expanded_address(
    paths: MewcodePaths, home: Path
) -> None:
    _write(paths.home / "mcp.json", {"x": {"type": "http", "url": "ftp://h/${KEY}"}})
    config = _load(paths, home, env={"KEY": "sekrit"})
    assert config.servers == []
    assert "sekrit" not in config.problems[0]
    assert "http:// or https://" in config.problems[0]


# --- files and precedence -----------------------------------------------------------------


def test_later_files_replace_earlier_entries_whole(paths: MewcodePaths, home: Path) -> None:
    claude = home / ".claude.json"
    claude.write_text(json.dumps({
        "numStartups": 40, "projects": {"/x": {"mcpServers": {"p": {"command": "no"}}}},
        "mcpServers": {"a": {"command": "a1", "args": ["-v"], "env": {"K": "1"}},
                       "b": {"command": "b1"}},
    }))  # fmt: skip
    mine = _write(paths.home / "mcp.json", {"a": {"command": "a2"}, "c": {"command": "c2"}})
    proj = _write(
        paths.project / ".mcp.json", {"b": {"type": "http", "url": "http://localhost:1/"}}
    )
    config = _load(paths, home)
    assert config.problems == []
    by_name = {s.name: s for s in config.servers}
    assert _names(config.servers) == ["a", "b", "c"]
    assert by_name["a"] == McpServerSpec(
        "a", "stdio", str(mine), "user", command="a2", shown="a2", cwd=str(paths.project)
    )
    assert by_name["b"] == McpServerSpec(
        "b", "http", str(proj), "project", url="http://localhost:1/", shown="http://localhost:1/"
    )
    assert by_name["c"].scope == "user"


def test_no_files_no_servers(paths: MewcodePaths, home: Path) -> None:
    assert _load(paths, home) == McpConfig()


# --- entry shapes -------------------------------------------------------------------------


def test_shapes_other_agents_write(paths: MewcodePaths, home: Path) -> None:
    file = _write(paths.project / ".mcp.json", {
        "plain": {"command": "node", "args": ["s.js"], "env": {"A": "b"}, "cwd": "tools",
                  "alwaysAllow": ["x"], "timeout": 60},
        "typed": {"type": "stdio", "command": "uvx", "args": []},
        "remote": {"url": "https://mcp.example.com/mcp", "headers": {"X-Key": "k"}},
        "streamable": {"type": "streamable-http", "url": "http://127.0.0.1:9/mcp"},
        "off": {"disabled": True, "type": "sse", "url": "nonsense"},
    })  # fmt: skip
    config = _load(paths, home)
    assert config.problems == []
    by_name = {s.name: s for s in config.servers}
    assert list(by_name) == ["plain", "typed", "remote", "streamable"]
    assert by_name["plain"] == McpServerSpec(
        "plain", "stdio", str(file), "project", command="node", args=("s.js",),
        env={"A": "b"}, cwd=str(paths.project / "tools"), shown="node s.js",
    )  # fmt: skip
    assert by_name["remote"].transport == "http"
    assert by_name["remote"].headers == {"X-Key": "k"}
    assert by_name["streamable"].transport == "http"


@pytest.mark.parametrize(
    ("entry", "reason"),
    [
        (
            {"type": "sse", "url": "http://h/sse"},
            "type 'sse' is not supported: only stdio and http",
        ),
        ({"type": "ws", "url": "ws://h"}, "unknown type 'ws': only stdio and http"),
        ({"command": ""}, "command must be a non-empty string"),
        ({"command": ["npx"]}, "command must be a non-empty string"),
        ({"command": "x", "args": "a b"}, "args must be a list of strings"),
        ({"command": "x", "args": ["a", 1]}, "args must be a list of strings"),
        ({"command": "x", "env": {"PORT": 80}}, "env must be an object of string values"),
        ({"command": "x", "env": ["A=1"]}, "env must be an object of string values"),
        ({"command": "x", "cwd": 3}, "cwd must be a string"),
        (
            {"url": "https://h", "headers": {"A": None}},
            "headers must be an object of string values",
        ),
        ({"url": "h.example.com/mcp"}, "url must be an http:// or https:// address with a host"),
        ({"type": "http", "url": 5}, "url must be a string"),
        ({"command": "x", "url": "http://h"}, 'has both command and url: set "type"'),
        ({"args": ["x"]}, "needs command (a stdio server) or url (an http server)"),
        ("npx server", "expected an object with command or url"),
    ],
)
def test_bad_entry_is_one_line_naming_file_and_server(
    paths: MewcodePaths, home: Path, entry: Any, reason: str
) -> None:
    file = _write(paths.project / ".mcp.json", {"bad": entry, "good": {"command": "ok"}})
    config = _load(paths, home)
    assert _names(config.servers) == ["good"]
    assert len(config.problems) == 1
    assert config.problems[0].startswith(f"{file}: server 'bad': {reason}")
    assert "\n" not in config.problems[0]


def test_bad_files_are_one_line_each_and_the_others_still_load(
    paths: MewcodePaths, home: Path
) -> None:
    (home / ".claude.json").write_text('{"mcpServers": {"a": {"command": "x"},}}')
    mine = paths.home / "mcp.json"
    mine.write_text('{"mcpServers": ["a"]}')
    (paths.project / ".mcp.json").write_text(json.dumps({"mcpServers": {"p": {"command": "p"}}}))
    config = _load(paths, home)
    assert _names(config.servers) == ["p"]
    assert config.problems == [
        f"{home / '.claude.json'}: not valid JSON: Expecting property name enclosed in double "
        "quotes at line 1 column 39",
        f"{mine}: mcpServers must be an object of server name -> settings",
    ]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("[1, 2]", "expected a JSON object with an mcpServers object"),
        ("{\n  \"mcpServers\": {\n    \"a\": {command: 1}}}", "not valid JSON: Expecting property "
         "name enclosed in double quotes at line 3 column 11"),
        (b"\xff\xfe{}", "not valid JSON: not UTF-8 text"),
        (b"\xef\xbb\xbf{\"mcpServers\": {\"a\": 1}}", "server 'a': expected an object with command or url"),
    ],
)  # fmt: skip
def test_malformed_file(paths: MewcodePaths, home: Path, text: str | bytes, problem: str) -> None:
    file = paths.project / ".mcp.json"
    if isinstance(text, bytes):
        file.write_bytes(text)
    else:
        file.write_text(text)
    assert _load(paths, home).problems == [f"{file}: {problem}"]


def test_file_without_mcp_servers_is_no_servers(paths: MewcodePaths, home: Path) -> None:
    (home / ".claude.json").write_text('{"numStartups": 3, "mcpServers": null}')
    (paths.home / "mcp.json").write_text("{}")
    assert _load(paths, home) == McpConfig()


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_unreadable_file_is_a_problem_line(paths: MewcodePaths, home: Path) -> None:
    file = _write(paths.project / ".mcp.json", {"a": {"command": "x"}})
    file.chmod(0)
    try:
        config = _load(paths, home)
    finally:
        file.chmod(0o600)
    assert config.problems == [f"{file}: cannot read: Permission denied"]


def test_a_folder_named_mcp_json_is_a_problem_line(paths: MewcodePaths, home: Path) -> None:
    (paths.project / ".mcp.json").mkdir()
    [problem] = _load(paths, home).problems
    assert problem.startswith(f"{paths.project / '.mcp.json'}: cannot read: ")


# --- expansion ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("${A}", "a"),
        ("x-${A}-${B}", "x-a-b"),
        ("${MISSING:-fallback}", "fallback"),
        ("${EMPTY:-fallback}", "fallback"),
        ("${EMPTY}", ""),
        ("${A:-fallback}", "a"),
        ("${MISSING:-}", ""),
        ("$$", "$$"),
        ("$${A}", "$${A}"),
        ("cost $5", "cost $5"),
        ("$A", "$A"),
        ("${1}", "${1}"),
        ("${A", "${A"),
        ("$", "$"),
    ],
)
def test_expand(text: str, expected: str) -> None:
    assert expand(text, {"A": "a", "B": "b", "EMPTY": ""}) == expected


def test_expand_unset_raises() -> None:
    with pytest.raises(UnsetVariable, match=r"^\$\{NOPE\} is not set$"):
        expand("--token=${NOPE}", {})


def test_expansion_in_every_field(paths: MewcodePaths, home: Path) -> None:
    env = {"BIN": "/opt/bin", "T": "tok", "DIR": "work", "HOST": "h.example"}
    _write(paths.home / "mcp.json", {
        "s": {"command": "${BIN}/srv", "args": ["--t=${T}", "${X:-d}"], "env": {"K": "${T}"},
              "cwd": "${DIR}"},
        "h": {"url": "https://${HOST}/mcp", "headers": {"Authorization": "Bearer ${T}"}},
        "tilde": {"command": "x", "cwd": "~/srv"},
        "abs": {"command": "x", "cwd": "/srv"},
    })  # fmt: skip
    config = _load(paths, home, env=env)
    by_name = {s.name: s for s in config.servers}
    s = by_name["s"]
    assert (s.command, s.args, s.env, s.cwd) == (
        "/opt/bin/srv", ("--t=tok", "d"), {"K": "tok"}, str(paths.home / "work"),
    )  # fmt: skip
    assert (by_name["h"].url, by_name["h"].headers) == (
        "https://h.example/mcp", {"Authorization": "Bearer tok"},
    )  # fmt: skip
    assert by_name["tilde"].cwd == str(home / "srv")
    assert by_name["abs"].cwd == "/srv"


# --- the limits the client uses -----------------------------------------------------------


def test_mcp_limits_are_checked_and_wait_for_trust(paths: MewcodePaths) -> None:
    paths.user_settings.write_text(
        "limits:\n  mcp_startup_timeout_s: 0\n  mcp_tool_timeout_s: 30\n  mcp_restarts: -1\n"
    )
    settings = load_settings(paths)
    assert (settings.limits.mcp_startup_timeout_s, settings.limits.mcp_tool_timeout_s,
            settings.limits.mcp_restarts) == (10.0, 30.0, 3)  # fmt: skip
    assert [p.split(": ", 1)[1] for p in settings.problems] == [
        "limits.mcp_startup_timeout_s: expected float > 0.0 (0); ignored",
        "limits.mcp_restarts: expected int >= 0 (-1); ignored",
    ]
    paths.user_settings.write_text("")
    paths.project_settings.parent.mkdir(parents=True, exist_ok=True)
    paths.project_settings.write_text("limits:\n  mcp_tool_timeout_s: 100000\n")
    assert load_settings(paths).limits.mcp_tool_timeout_s == 600.0
    assert load_settings(paths, trust_project=True).limits.mcp_tool_timeout_s == 100000.0


def test_a_token_in_args_or_url_is_shown_as_written_not_expanded(tmp_path: Path) -> None:
    from agent_core.config.paths import MewcodePaths
    from agent_core.mcp.config import load_mcp_config, target_text

    home = tmp_path / "mewcode"
    home.mkdir()
    servers = {
        "gh": {"command": "gh-mcp", "args": ["--token", "${GH_TOKEN}"]},
        "web": {"type": "http", "url": "https://mcp.example.com/${PATH_TOKEN}/mcp"},
    }
    (home / "mcp.json").write_text(json.dumps({"mcpServers": servers}))
    paths = MewcodePaths(home=home, project=tmp_path)
    env = {"GH_TOKEN": "ghp_secret123", "PATH_TOKEN": "tok_secret456"}
    config = load_mcp_config(paths, trusted=True, home=tmp_path, env=env)
    shown = {spec.name: target_text(spec) for spec in config.servers}
    assert shown == {
        "gh": "gh-mcp --token '${GH_TOKEN}'",
        "web": "https://mcp.example.com/${PATH_TOKEN}/mcp",
    }
    by_name = {spec.name: spec for spec in config.servers}
    assert by_name["gh"].args == ("--token", "ghp_secret123")  # the server gets the value


def test_a_server_without_cwd_starts_in_the_project_only_when_it_is_trusted(
    paths: MewcodePaths, home: Path
) -> None:
    _write(paths.home / "mcp.json", {"a": {"command": "a"}, "b": {"command": "b", "cwd": "/srv"}})
    trusted = {s.name: s.cwd for s in _load(paths, home, trusted=True).servers}
    untrusted = {s.name: s.cwd for s in _load(paths, home, trusted=False).servers}
    assert trusted == {"a": str(paths.project), "b": "/srv"}
    assert untrusted == {"a": str(home), "b": "/srv"}  # not where a cloned repo plants code


def test_an_empty_file_is_no_file(paths, home) -> None:
    """What the sandbox leaves as a stand-in while a command runs is empty: not a problem."""
    (paths.project / ".mcp.json").write_text("")
    config = _load(paths, home)
    assert config.problems == [] and config.servers == []


def test_only_your_own_files_can_trust_a_servers_read_only_hints(
    paths: MewcodePaths, home: Path
) -> None:
    _write(home / ".claude.json", {"a": {"command": "x", "trustReadOnlyHint": True}})
    _write(paths.home / "mcp.json", {"b": {"command": "y", "trustReadOnlyHint": True}, "c": {"command": "z"}})  # fmt: skip
    project = _write(
        paths.project / ".mcp.json",
        {"d": {"command": "p", "trustReadOnlyHint": True}, "b": {"command": "q"}},
    )
    config = _load(paths, home)
    trusts = {s.name: s.trust_read_only_hint for s in config.servers}
    # d: a project's file cannot; b: the project's entry replaced yours, and not your trust.
    assert trusts == {"a": True, "b": False, "c": False, "d": False}
    assert config.problems == [
        f"{project}: server 'd': trustReadOnlyHint is ignored here: only your own"
        " ~/.mewcode/mcp.json or ~/.claude.json can trust a server's read-only hints (its"
        " readOnlyHint tools still ask)"
    ]


def test_a_trust_setting_that_is_not_true_or_false_skips_the_server(
    paths: MewcodePaths, home: Path
) -> None:
    file = _write(paths.home / "mcp.json", {"a": {"command": "x", "trustReadOnlyHint": "yes"}})
    config = _load(paths, home)
    assert config.servers == []
    assert config.problems == [f"{file}: server 'a': trustReadOnlyHint must be true or false"]
