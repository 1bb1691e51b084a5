"""The config and environment MewCode's own git runs under (agent_core.git), as pure data.

What the values really do to git is tested against git itself, contained, in
tests/integration/test_git_contained.py.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent_core.git.environment import git_environment, trusted_path
from agent_core.git.overrides import (
    INERT_PREFIXES,
    canonical,
    config_env,
    config_overrides,
    parse_config_names,
    split_key,
)
from agent_core.permissions.shell.git_config_keys import GIT_COMMAND_KEY


@pytest.mark.parametrize(
    ("name", "parts"),
    [
        ("core.fsmonitor", ("core", None, "fsmonitor")),
        ("filter.evil.clean", ("filter", "evil", "clean")),
        ("filter.a.b.c.clean", ("filter", "a.b.c", "clean")),
        ("filter.x=y.clean", ("filter", "x=y", "clean")),
        ("credential.https://example.com.helper", ("credential", "https://example.com", "helper")),
    ],
)
def test_a_key_splits_at_its_first_and_last_dot_as_git_does(name, parts) -> None:
    assert split_key(name) == parts


def test_the_config_names_are_read_from_nul_separated_output() -> None:
    raw = b"core.bare\0filter.Evil One.clean\0diff.\xff.textconv\0"
    assert parse_config_names(raw) == ["core.bare", "filter.Evil One.clean", "diff.\udcff.textconv"]


def _as_dict(names: list[str]) -> dict[str, str]:
    return {canonical(k): v for k, v in config_overrides(names)}


def test_programs_that_need_no_config_to_name_are_always_off() -> None:
    chosen = _as_dict([])
    assert chosen["core.fsmonitor"] == "false"
    assert chosen["core.hookspath"] == "/dev/null"
    assert chosen["diff.external"] == ""
    assert chosen["protocol.allow"] == "never"
    assert chosen["protocol.ext.allow"] == "never"
    assert chosen["credential.helper"] == ""


@pytest.mark.parametrize("driver", ["evil", "Evil Driver", "x=y", "a.b"])
def test_every_driver_the_config_names_is_neutralised_by_name(driver) -> None:
    chosen = _as_dict([f"filter.{driver}.clean", f"diff.{driver}.funcname", f"merge.{driver}.name"])
    assert chosen[f"filter.{driver}.clean"] == ""
    assert chosen[f"filter.{driver}.smudge"] == ""
    assert chosen[f"filter.{driver}.process"] == ""
    assert chosen[f"filter.{driver}.required"] == "false"
    # A driver seen through any of its keys gets its program keys emptied.
    assert chosen[f"diff.{driver}.textconv"] == ""
    assert chosen[f"diff.{driver}.command"] == ""
    assert chosen[f"merge.{driver}.driver"] == ""


def test_a_protocol_the_config_allows_is_forbidden_by_name() -> None:
    assert _as_dict(["protocol.evil.allow"])["protocol.evil.allow"] == "never"


def test_a_url_scoped_credential_helper_is_emptied() -> None:
    chosen = _as_dict(["credential.https://example.com.helper"])
    assert chosen["credential.https://example.com.helper"] == ""


# Keys the engine's list says run a program, one per kind it names.
PROGRAM_KEYS = [
    "core.pager",
    "core.editor",
    "core.sshCommand",
    "core.fsmonitor",
    "core.askPass",
    "core.gitProxy",
    "core.hooksPath",
    "core.alternateRefsCommand",
    "sequence.editor",
    "credential.helper",
    "credential.https://h.example.helper",
    "diff.external",
    "diff.x.textconv",
    "diff.x.command",
    "merge.x.driver",
    "filter.x.clean",
    "filter.x.smudge",
    "filter.x.process",
    "gpg.program",
    "gpg.ssh.program",
    "remote.origin.uploadpack",
    "remote.origin.receivepack",
    "remote.origin.proxy",
    "protocol.x.allow",
    "mergetool.x.cmd",
    "difftool.x.cmd",
]


@pytest.mark.parametrize("key", PROGRAM_KEYS)
def test_every_program_key_the_engine_knows_gets_a_neutral_value(key) -> None:
    assert GIT_COMMAND_KEY.match(key)
    value = _as_dict([key])[canonical(key)]
    assert value in ("", "false", "never", "/dev/null", "cat", ":")


@given(
    st.sampled_from(["alias", "tool", "filter", "diff", "newsection"]),
    st.text(st.characters(blacklist_characters="\0\n", blacklist_categories=["Cs"]), max_size=8),
    st.sampled_from(["cmd", "command", "program", "helper", "driver", "textconv", "process"]),
)
def test_no_program_key_in_the_config_is_left_with_its_value(section, sub, variable) -> None:
    name = f"{section}.{sub}.{variable}" if sub else f"{section}.{variable}"
    chosen = _as_dict([name])
    if GIT_COMMAND_KEY.match(name) and not canonical(name).startswith(INERT_PREFIXES):
        assert canonical(name) in chosen


def test_inert_keys_are_left_alone() -> None:
    assert "alias.st" not in _as_dict(["alias.st"])
    assert "include.path" not in _as_dict(["include.path"])


def test_the_overrides_travel_as_numbered_variables() -> None:
    env = config_env([("filter.x=y.clean", ""), ("core.fsmonitor", "false")])
    assert env == {
        "GIT_CONFIG_COUNT": "2",
        "GIT_CONFIG_KEY_0": "filter.x=y.clean",
        "GIT_CONFIG_VALUE_0": "",
        "GIT_CONFIG_KEY_1": "core.fsmonitor",
        "GIT_CONFIG_VALUE_1": "false",
    }
    assert config_env([]) == {"GIT_CONFIG_COUNT": "0"}


def test_path_keeps_only_absolute_directories_outside_the_writable_roots(tmp_path) -> None:
    project = tmp_path / "project"
    (project / ".venv" / "bin").mkdir(parents=True)
    system = tmp_path / "usr-bin"
    system.mkdir()
    path = ":".join(["", ".", str(project / ".venv" / "bin"), str(system), str(system)])
    assert trusted_path(path, [str(project)]) == [str(system.resolve())]


def test_the_environment_drops_every_git_variable_and_secrets() -> None:
    inherited = {
        "HOME": "/home/u",
        "LC_ALL": "fr_FR.UTF-8",
        "GIT_DIR": "/elsewhere",
        "GIT_EXTERNAL_DIFF": "/evil",
        "GIT_CONFIG_PARAMETERS": "'core.fsmonitor'='/evil'",
        "ANTHROPIC_API_KEY": "sk-secret",
        "PATH": "/project/.venv/bin:/usr/bin",
    }
    env = git_environment(inherited, ["/usr/bin"], {"GIT_CONFIG_COUNT": "0"})
    assert env["HOME"] == "/home/u" and env["LC_ALL"] == "C"
    assert env["PATH"] == "/usr/bin"
    assert env["GIT_TERMINAL_PROMPT"] == "0" and env["GIT_CONFIG_COUNT"] == "0"
    assert not {"GIT_DIR", "GIT_EXTERNAL_DIFF", "GIT_CONFIG_PARAMETERS"} & env.keys()
    assert "ANTHROPIC_API_KEY" not in env
