"""Settings fail closed, per entry (docs/configuration.md#broken-settings-fail-closed).

An invalid entry is reported with file and line and dropped alone; deny rules
apply whenever they parse; what the permission rules cannot do without stops
mewcode with one line naming the file and line.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_core.config.credentials import saved_api_key
from agent_core.config.rule_syntax import rule_problem
from agent_core.config.settings import (
    PermissionsUnreadable,
    RuleEntry,
    append_rule,
    load_settings,
    load_settings_file,
)
from agent_core.errors import ConfigError


def write(path: Path, content: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    return path


def rules(settings, kind: str) -> list[str]:
    return [r.rule for r in settings.rules if r.kind == kind]


# --- one bad entry is dropped alone ---------------------------------------------------


def test_a_schema_error_drops_only_its_entry_and_names_its_line(paths) -> None:
    write(
        paths.user_settings,
        "model: m1\n"
        "permissions:\n"
        "  deny: ['Bash(git push:*)']\n"
        "limits:\n"
        "  max_iterations: lots\n"
        "  max_concurrency: 2\n"
        "theme: 5\n",
    )
    settings = load_settings(paths)
    assert rules(settings, "deny") == ["Bash(git push:*)"]
    assert settings.model == "m1" and settings.limits.max_concurrency == 2
    assert settings.limits.max_iterations == 25  # the default, not "lots"
    assert settings.theme is None
    assert settings.problems == [
        f"{paths.user_settings} line 5: limits.max_iterations: expected int, got str ('lots'); "
        "ignored",
        f"{paths.user_settings} line 7: theme: expected str, got int (5); ignored",
    ]


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("model: m\nlimits:\n  bash_timeout_ms: [1]\n", 3, "limits.bash_timeout_ms"),
        ("limits:\n  nope: 3\n", 2, "limits.nope: unknown setting"),
        ("sandbox:\n  network: maybe\n", 2, "sandbox.network: expected bool"),
        ("model: 2024-13-45\n", 1, "model: month must be in 1..12"),
        ("\n\nwhatever: 1\n", 3, "whatever: unknown setting"),
        ("hooks: [a]\n", 1, "hooks: expected mapping, got list"),
        ("permissions:\n  additionalDirectories: [../lib, 3]\n", 2, "additionalDirectories"),
        ("limits: 3\n", 1, "limits: expected a mapping"),
    ],
)
def test_each_kind_of_bad_entry_is_reported_on_its_line(paths, text, line, words) -> None:
    write(paths.user_settings, text + "permissions:\n  deny: [Bash(rm:*)]\n")
    settings = load_settings(paths)
    assert rules(settings, "deny") == ["Bash(rm:*)"]
    assert len(settings.problems) == 1
    assert settings.problems[0].startswith(f"{paths.user_settings} line {line}: ")
    assert words in settings.problems[0]


def test_only_the_bad_item_of_a_list_is_dropped(paths) -> None:
    write(
        paths.user_settings,
        "permissions:\n  additionalDirectories:\n    - ../lib\n    - {a: 1}\n    - ../docs\n",
    )
    settings = load_settings(paths)
    assert settings.additional_directories == ["../lib", "../docs"]
    assert "line 4" in settings.problems[0]


def test_two_permissions_sections_are_combined_not_overwritten(paths) -> None:
    write(
        paths.user_settings,
        "permissions:\n  deny: [Bash(git push:*)]\n  defaultMode: plan\n"
        "model: m\n"
        "permissions:\n  allow: [Bash(ls:*)]\n  defaultMode: acceptEdits\n",
    )
    settings = load_settings(paths)
    assert rules(settings, "deny") == ["Bash(git push:*)"]
    assert rules(settings, "allow") == ["Bash(ls:*)"]
    assert settings.default_mode == "plan"  # set twice in one file: the stricter


def test_a_key_set_twice_is_reported(paths) -> None:
    write(paths.user_settings, "model: a\nmodel: b\n")
    settings = load_settings(paths)
    assert settings.model == "b"
    assert settings.problems == [
        f"{paths.user_settings} line 2: model is set again (first on line 1); the last one counts"
    ]


def test_merge_keys_and_anchors_are_read(paths) -> None:
    write(
        paths.user_settings,
        "base: &base\n  deny: [Bash(rm:*)]\npermissions:\n  <<: *base\n  ask: [Bash(git:*)]\n",
    )
    settings = load_settings(paths)
    assert rules(settings, "deny") == ["Bash(rm:*)"] and rules(settings, "ask") == ["Bash(git:*)"]


# --- what the permission rules cannot do without stops mewcode -----------------------------


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("permissions: [Bash]\n", 1, "permissions: expected a mapping"),
        ("permissions: deny\n", 1, "permissions: expected a mapping"),
        ("model: m\npermissions:\n  deny: [Bash(rm:*)\n", 4, "invalid YAML"),
        ("permissions:\n  deny: Bash(rm:*)\n", 2, "permissions.deny: expected a list of rules"),
        ("permissions:\n  ask: {a: 1}\n", 2, "permissions.ask: expected a list of rules"),
        ("permissions:\n  denny: [Bash(rm:*)]\n", 2, "permissions.denny: unknown key"),
        ("permissions:\n  defaultMode: planning\n", 2, "'planning' is not a mode"),
        ("model: m\npermission:\n  deny: [Bash(rm:*)]\n", 2, "did you mean permissions?"),
        ("permissions:\n  deny:\n    - 12\n", 3, "12: not a rule"),
        ("permissions:\n  deny: [!!binary aGk=]\n", 2, "not a rule"),
        ("- permissions\n", 1, "expected a mapping of settings"),
    ],
)
def test_an_unreadable_permissions_section_stops_with_file_and_line(
    paths, text, line, words
) -> None:
    write(paths.project_settings, text)
    with pytest.raises(PermissionsUnreadable) as info:
        load_settings(paths)
    message = str(info.value)
    assert message.startswith(f"{paths.project_settings} line {line}: ")
    assert words in message and "\n" not in message


def test_yaml_that_does_not_parse_without_permissions_is_skipped_with_its_line(paths) -> None:
    write(paths.user_settings, "permissions:\n  deny: [Bash(rm:*)]\n")
    write(paths.project_settings, "model: m\ntheme: [dark\n")
    settings = load_settings(paths)
    assert rules(settings, "deny") == ["Bash(rm:*)"]
    assert settings.problems[0].startswith(f"{paths.project_settings} line 3: invalid YAML")
    assert settings.problems[0].endswith("the file is ignored")


# --- binary and non-UTF-8 files --------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "line", "words"),
    [
        (b"model: m\npermissions:\n  deny: [Bash(rm:*)]\n\x00\x01\x02", 4, "NUL byte"),
        (b"permissions:\n  deny:\n    - Bash(rm \xff:*)\n", 3, "not UTF-8 text (byte 0xff)"),
        ("permissions:\n  deny: [Bash(rm:*)]\n".encode("utf-16"), 1, "NUL byte"),
        (b"\x89PNG\r\n\x1a\n\x00\x00 permissions", 3, "NUL byte"),
    ],
)
def test_an_undecodable_file_that_mentions_permissions_stops(paths, content, line, words) -> None:
    write(paths.local_settings, content)
    with pytest.raises(PermissionsUnreadable) as info:
        load_settings(paths)
    message = str(info.value)
    assert message.startswith(f"{paths.local_settings} line {line}: ")
    assert words in message and "\n" not in message


@pytest.mark.parametrize(
    ("content", "line"),
    [(b"model: m\ntheme: caf\xe9\n", 2), (b"\x7fELF\x02\x01\x01\x00\x00", 1)],
)
def test_an_undecodable_file_without_permissions_is_skipped(paths, content, line) -> None:
    write(paths.user_settings, "permissions:\n  deny: [Bash(rm:*)]\n")
    write(paths.project_settings, content)
    settings = load_settings(paths)
    assert rules(settings, "deny") == ["Bash(rm:*)"]
    assert settings.problems == [
        settings.problems[0]  # one line
    ] and settings.problems[0].startswith(f"{paths.project_settings} line {line}: not ")


def test_a_utf8_byte_order_mark_is_fine(paths) -> None:
    write(paths.user_settings, "\ufeffpermissions:\n  deny: [Bash(rm:*)]\n".encode())
    assert rules(load_settings(paths), "deny") == ["Bash(rm:*)"]


def test_a_settings_file_that_cannot_be_read_stops(paths) -> None:
    paths.project_settings.mkdir(parents=True)  # a directory where the file should be
    with pytest.raises(PermissionsUnreadable, match=r"settings.yaml: cannot read it"):
        load_settings(paths)


def test_editing_a_non_utf8_file_is_refused_without_a_traceback(paths) -> None:
    write(paths.local_settings, b"model: caf\xe9\n")
    with pytest.raises(ConfigError, match="not UTF-8"):
        append_rule(paths.local_settings, "allow", "Bash(ls:*)")
    assert paths.local_settings.read_bytes() == b"model: caf\xe9\n"


def test_binary_credentials_are_no_key_rather_than_a_crash(mewcode_home) -> None:
    write(mewcode_home / "credentials.yaml", b"anthropic:\n  api_key: \xff\xfe\n")
    assert saved_api_key({"MEWCODE_HOME": str(mewcode_home)}, "anthropic") is None
    write(mewcode_home / "credentials.yaml", b"\x00\x01")
    assert saved_api_key({"MEWCODE_HOME": str(mewcode_home)}, "anthropic") is None


def test_load_settings_file_keeps_what_is_valid(tmp_path) -> None:
    raw = load_settings_file(write(tmp_path / "s.yaml", "theme: dark\nmodel: [x]\n"))
    assert raw is not None and raw.theme == "dark" and raw.model is None
    assert len(raw.problems) == 1 and "line 2: model" in raw.problems[0]
    assert load_settings_file(tmp_path / "missing.yaml") is None


# --- malformed rules ---------------------------------------------------------------------------

MALFORMED = [
    ("bash(git push:*)", "unknown tool bash (did you mean Bash?)"),
    ("Bash(git push:*", "unbalanced parenthesis"),
    ("Bash git push:*)", "unbalanced parenthesis"),
    ("Read()", "empty specifier"),
    ("WebFetch(example.com)", "WebFetch rules take domain:HOST"),
    ("mcp__github__create_issue(x)", "MCP rules take no specifier"),
    ("mcp__", "expected mcp__server"),
    ("Shell(ls)", "unknown tool Shell"),
    ("WebSerch", "did you mean WebFetch?"),
    ("rm -rf", "not a permission rule"),
]
VALID = [
    "Bash",
    "Bash(npm run test:*)",
    "Bash(ls *)",
    "Bash(echo a))",
    "Read(src/**)",
    "Read(//etc/passwd)",
    "Read(~/.ssh/**)",
    "Edit(./notes.md)",
    "WebFetch(domain:example.com)",
    "mcp__github",
    "mcp__github__*",
    "mcp__github__create_issue",
    "TodoWrite",
]


@pytest.mark.parametrize(("rule", "reason"), MALFORMED)
def test_rule_problem_names_the_rule_and_the_reason(rule, reason) -> None:
    problem = rule_problem(rule)
    assert problem is not None and problem.startswith(rule) and reason in problem


@pytest.mark.parametrize("rule", VALID)
def test_valid_rules_have_no_problem(rule) -> None:
    assert rule_problem(rule) is None


@pytest.mark.parametrize("kind", ["deny", "ask"])
@pytest.mark.parametrize(("rule", "reason"), MALFORMED)
def test_a_malformed_deny_or_ask_rule_stops(paths, kind, rule, reason) -> None:
    write(paths.user_settings, f"permissions:\n  {kind}:\n    - Bash(rm:*)\n    - '{rule}'\n")
    with pytest.raises(PermissionsUnreadable) as info:
        load_settings(paths)
    message = str(info.value)
    assert message.startswith(f"{paths.user_settings} line 4: {kind} rule {rule}: ")
    assert reason in message and "\n" not in message


@pytest.mark.parametrize("kind", ["deny", "ask", "allow"])
def test_a_rule_for_a_claude_code_tool_mewcode_lacks_is_dropped_with_a_warning(paths, kind) -> None:
    # A deny on a tool that does not exist here cannot be slipped past: dropping it is safe.
    write(paths.user_settings, f"permissions:\n  {kind}:\n    - NotebookEdit\n    - Bash(rm:*)\n")
    settings = load_settings(paths)
    assert rules(settings, kind) == ["Bash(rm:*)"]
    assert settings.problems == [
        f"{paths.user_settings} line 3: {kind} rule NotebookEdit: NotebookEdit is a Claude Code"
        " tool that MewCode does not have; ignored"
    ]


@pytest.mark.parametrize(("rule", "reason"), MALFORMED)
def test_a_malformed_allow_rule_is_dropped_with_a_warning(paths, rule, reason) -> None:
    write(
        paths.user_settings,
        f"permissions:\n  deny: [Bash(rm:*)]\n  allow:\n    - '{rule}'\n    - Bash(ls:*)\n",
    )
    settings = load_settings(paths)
    assert settings.rules == [
        RuleEntry("Bash(rm:*)", "deny", str(paths.user_settings)),
        RuleEntry("Bash(ls:*)", "allow", str(paths.user_settings)),
    ]
    assert len(settings.problems) == 1
    assert settings.problems[0].startswith(f"{paths.user_settings} line 4: allow rule {rule}: ")
    assert reason in settings.problems[0]
