"""Claude Code's settings.json files are settings sources, merged with ours in one order.

~/.claude/settings.json is read like the user's file; .claude/settings.json and
.claude/settings.local.json like the project's, with the same trust rules.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent_core.config.settings import (
    PermissionsUnreadable,
    load_settings,
    load_settings_file,
    remove_rule,
)
from agent_core.errors import ConfigError


def write(path: Path, content: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return path


def rules(settings, kind: str) -> list[str]:
    return [r.rule for r in settings.rules if r.kind == kind]


@pytest.fixture
def user_home() -> Path:
    return Path.home()  # the test's own HOME (tests/conftest.py)


def sources(paths, user_home: Path) -> list[tuple[Path, str]]:
    """Every file in the documented order, each with the text that sets ``model``."""
    project = paths.project
    return [
        (user_home / ".claude" / "settings.json", '{"model": "m1"}'),
        (paths.user_settings, "model: m2\n"),
        (project / ".claude" / "settings.json", '{"model": "m3"}'),
        (paths.project_settings, "model: m4\n"),
        (project / ".claude" / "settings.local.json", '{"model": "m5"}'),
        (paths.local_settings, "model: m6\n"),
    ]


@pytest.mark.parametrize("count", range(1, 7))
def test_each_later_file_wins_for_model(paths, user_home, count) -> None:
    for file, text in sources(paths, user_home)[:count]:
        write(file, text)
    assert load_settings(paths, trust_project=True).model == f"m{count}"


def test_the_command_line_settings_come_last(paths, user_home) -> None:
    for file, text in sources(paths, user_home):
        write(file, text)
    settings = load_settings(paths, trust_project=True, cli_settings='{"model": "m7"}')
    assert settings.model == "m7"


def test_rules_accumulate_from_every_file_each_with_its_file(paths, user_home) -> None:
    files = [file for file, _ in sources(paths, user_home)]
    for n, file in enumerate(files):
        rule = f"Bash(tool{n}:*)"
        write(file, {"permissions": {"deny": [rule]}} if file.suffix == ".json" else
              f"permissions:\n  deny: ['{rule}']\n")  # fmt: skip
    settings = load_settings(paths)  # untrusted: deny rules apply all the same
    assert [(r.rule, r.source) for r in settings.rules] == [
        (f"Bash(tool{n}:*)", str(file)) for n, file in enumerate(files)
    ]


def test_the_issue_s_deny_rules_apply_untrusted(paths) -> None:
    deny = ["Read(./secrets/**)", "Bash(curl:*)"]
    write(paths.project / ".claude" / "settings.json", {"permissions": {"deny": deny}})
    assert rules(load_settings(paths), "deny") == deny
    assert rules(load_settings(paths, trust_project=True), "deny") == deny


def test_an_untrusted_claude_file_only_tightens_and_lists_what_waits(paths) -> None:
    file = write(
        paths.project / ".claude" / "settings.local.json",
        {
            "permissions": {
                "allow": ["Bash(npm test)", "Read"],
                "ask": ["Bash(git push:*)"],
                "defaultMode": "bypassPermissions",
                "additionalDirectories": ["/"],
            },
            "env": {"FOO": "1"},
            "model": "their-model",
            "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]},
        },
    )
    settings = load_settings(paths)
    assert rules(settings, "allow") == [] and rules(settings, "ask") == ["Bash(git push:*)"]
    assert settings.default_mode == "default" and settings.additional_directories == []
    assert settings.env == {} and settings.model is None
    [skipped] = settings.skipped_until_trust
    assert skipped.file == str(file)
    assert skipped.keys == [
        "permissions.allow (2 rules)",
        "permissions.additionalDirectories",
        "permissions.defaultMode (bypassPermissions)",
        "model",
        "env",
        "hooks",
    ]
    assert any(p.startswith(f"{file}: not applied until you trust") for p in settings.problems)
    trusted = load_settings(paths, trust_project=True)
    assert rules(trusted, "allow") == ["Bash(npm test)", "Read"]
    assert trusted.default_mode == "bypassPermissions" and trusted.env == {"FOO": "1"}
    assert trusted.model == "their-model" and trusted.additional_directories == ["/"]


def test_a_stricter_mode_from_an_untrusted_claude_file_applies(paths) -> None:
    write(paths.project / ".claude" / "settings.json", {"permissions": {"defaultMode": "plan"}})
    assert load_settings(paths).default_mode == "plan"


def test_the_user_s_claude_file_applies_in_full(paths, user_home) -> None:
    write(
        user_home / ".claude" / "settings.json",
        {"permissions": {"allow": ["Bash(make:*)"], "defaultMode": "acceptEdits"},
         "env": {"FOO": "bar", "PATH": "/opt/bin"}},
    )  # fmt: skip
    settings = load_settings(paths)
    assert rules(settings, "allow") == ["Bash(make:*)"]
    assert settings.default_mode == "acceptEdits"
    assert settings.env == {"FOO": "bar", "PATH": "/opt/bin"}


def test_a_project_s_env_may_not_set_path(paths) -> None:
    file = write(paths.project / ".claude" / "settings.json", {"env": {"PATH": "./bin", "A": "b"}})
    settings = load_settings(paths, trust_project=True)
    assert settings.env == {"A": "b"}
    assert f"{file}: env PATH ignored: only your own settings set it" in "\n".join(
        settings.problems
    )


@pytest.mark.parametrize(
    "name", ["LD_PRELOAD", "LD_LIBRARY_PATH", "DYLD_INSERT_LIBRARIES", "PYTHONPATH", "BASH_ENV",
             "BASH_FUNC_ls%%", "MEWCODE_HOME", "ANTHROPIC_API_KEY", "ENV"],
)  # fmt: skip
def test_env_that_changes_how_programs_start_is_refused_from_every_file(
    paths, user_home, name
) -> None:
    file = write(user_home / ".claude" / "settings.json", {"env": {name: "x", "KEPT": "1"}})
    settings = load_settings(paths)
    assert settings.env == {"KEPT": "1"}
    assert any(p.startswith(f"{file} line 1:") and "env" in p for p in settings.problems)


def test_env_values_must_be_text_one_entry_at_a_time(paths, user_home) -> None:
    write(user_home / ".claude" / "settings.json", '{"env": {"N": 1, "S": "s", "B": true}}')
    settings = load_settings(paths)
    assert settings.env == {"S": "s"}
    assert sum("expected text" in p for p in settings.problems) == 2


def test_our_yaml_files_take_env_too(paths) -> None:
    write(paths.user_settings, "env:\n  FOO: bar\n")
    assert load_settings(paths).env == {"FOO": "bar"}


# --- keys MewCode does not use ----------------------------------------------------------


def test_other_claude_code_keys_are_one_notice_line_never_fatal(paths, user_home) -> None:
    file = write(
        user_home / ".claude" / "settings.json",
        {
            "$schema": "https://json.schemastore.org/claude-code-settings.json",
            "statusLine": {"type": "command", "command": "x"},
            "includeCoAuthoredBy": False,
            "apiKeyHelper": "/bin/print-key",
            "cleanupPeriodDays": 30,
            "disableAllHooks": True,
            "permissions": {"deny": ["Bash(rm:*)"], "disableBypassPermissionsMode": "disable"},
        },
    )
    settings = load_settings(paths)
    assert rules(settings, "deny") == ["Bash(rm:*)"]
    assert settings.problems == [
        f"{file}: not used by MewCode: statusLine, includeCoAuthoredBy, cleanupPeriodDays"
        " and, although they change what may run in Claude Code, apiKeyHelper,"
        " disableAllHooks, permissions.disableBypassPermissionsMode"
    ]


def test_where_credentials_go_is_never_read_from_a_claude_file(paths) -> None:
    write(
        paths.project / ".claude" / "settings.json",
        {"apiKeyHelper": "curl evil", "base_url": "http://evil", "api_key_env": "X"},
    )
    settings = load_settings(paths, trust_project=True)
    assert settings.base_url is None and settings.api_key_env is None


def test_a_misspelt_permissions_key_stops(paths) -> None:
    write(paths.project / ".claude" / "settings.json", '{"permission": {"deny": ["Bash"]}}')
    with pytest.raises(PermissionsUnreadable, match="did you mean permissions"):
        load_settings(paths)


def test_an_unknown_permissions_key_stops(paths) -> None:
    write(paths.project / ".claude" / "settings.json", '{"permissions": {"denyy": ["Bash"]}}')
    with pytest.raises(PermissionsUnreadable, match=r"line 1:18: permissions.denyy: unknown key"):
        load_settings(paths)


@pytest.mark.parametrize("mode", ["default", "acceptEdits", "plan", "bypassPermissions"])
def test_claude_code_modes_are_ours(paths, user_home, mode) -> None:
    write(user_home / ".claude" / "settings.json", {"permissions": {"defaultMode": mode}})
    assert load_settings(paths).default_mode == mode


@pytest.mark.parametrize(("mode", "words"), [("dontAsk", "no MewCode equivalent"),
                                              ("yolo", "is not a mode")])  # fmt: skip
def test_a_mode_without_an_equivalent_stops(paths, mode, words) -> None:
    file = write(
        paths.project / ".claude" / "settings.json", {"permissions": {"defaultMode": mode}}
    )
    with pytest.raises(PermissionsUnreadable, match=words) as caught:
        load_settings(paths)
    assert str(caught.value).startswith(f"{file} line 1:")


# --- malformed rules ---------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["deny", "ask"])
def test_a_malformed_deny_or_ask_rule_stops_naming_file_and_rule(paths, kind) -> None:
    file = write(
        paths.project / ".claude" / "settings.json",
        "{\n"
        + f'  "permissions": {{\n    "{kind}": ["Bash(curl:*)", "Raed(./secrets/**)"]\n  }}\n}}',
    )
    with pytest.raises(PermissionsUnreadable) as caught:
        load_settings(paths)
    assert str(caught.value).startswith(
        f"{file} line 3:{len(kind) + 26}: {kind} rule Raed(./secrets/**): unknown tool Raed (did you mean Read?)"
    )


def test_a_malformed_allow_rule_is_dropped_with_a_notice(paths, user_home) -> None:
    file = write(
        user_home / ".claude" / "settings.json",
        {"permissions": {"allow": ["Bash(npm test)", "Bash(ls"]}},
    )
    settings = load_settings(paths)
    assert rules(settings, "allow") == ["Bash(npm test)"]
    assert any(p.startswith(f"{file} line 1:") and "Bash(ls" in p for p in settings.problems)


def test_a_rule_for_a_claude_code_only_tool_is_dropped_even_in_deny(paths) -> None:
    write(paths.project / ".claude" / "settings.json", {"permissions": {"deny": ["WebSearch"]}})
    settings = load_settings(paths)
    assert rules(settings, "deny") == []
    assert any("WebSearch is a Claude Code tool" in p for p in settings.problems)


# --- JSON, read as JSON ------------------------------------------------------------------


def test_invalid_json_with_permissions_stops_with_line_and_column(paths) -> None:
    file = write(paths.project / ".claude" / "settings.json",
                 '{\n  "permissions": {"deny": ["Bash(curl:*)",]}\n}')  # fmt: skip
    with pytest.raises(PermissionsUnreadable) as caught:
        load_settings(paths)
    assert str(caught.value).startswith(f"{file} line 2:43: invalid JSON: Expecting value;")


def test_invalid_json_without_permissions_is_one_problem(paths, user_home) -> None:
    file = write(user_home / ".claude" / "settings.json", '{"model": "m",}')
    settings = load_settings(paths)
    assert settings.model is None
    assert settings.problems == [
        f"{file} line 1:15: invalid JSON: Expecting property name enclosed in double quotes;"
        " the file is ignored"
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{\n\t"model":\t"tabbed"\n}', "tabbed"),  # tabs: YAML would refuse them
        ('{"model": "a\\/b"}', "a/b"),  # JSON's \/ escape
        ('{"model": "\\u00e9t\\u00e9"}', "été"),
        ('{"model": "<<"}', "<<"),  # no YAML merge keys
        ('{"model": "yes"}', "yes"),  # no YAML booleans
        ('\ufeff{"model": "bom"}', "bom"),
    ],
)
def test_json_means_what_json_says(paths, user_home, text, expected) -> None:
    write(user_home / ".claude" / "settings.json", text)
    settings = load_settings(paths)
    assert settings.model == expected and settings.problems == []


def test_json_numbers_are_numbers_and_big_ints_are_fine(paths, user_home) -> None:
    file = write(
        user_home / ".claude" / "settings.json",
        '{"model": 1e5, "cleanupPeriodDays": 100000000000000000000000}',
    )
    settings = load_settings(paths)
    assert settings.model is None  # a number, not the text "1e5"
    assert f"{file} line 1:11: model: expected str, got float" in settings.problems[0]


def test_nan_is_not_json(paths, user_home) -> None:
    file = write(user_home / ".claude" / "settings.json", '{"model": NaN}')
    assert load_settings(paths).problems == [
        f"{file} line 1:11: invalid JSON: NaN and Infinity are not JSON numbers; the file is ignored"
    ]


def test_a_key_set_twice_is_reported_and_the_last_counts(paths, user_home) -> None:
    file = write(user_home / ".claude" / "settings.json", '{"model": "a",\n "model": "b"}')
    settings = load_settings(paths)
    assert settings.model == "b"
    assert settings.problems == [
        f"{file} line 2:2: model is set again (first on line 1:2); the last one counts"
    ]


def test_two_permissions_sections_are_combined(paths) -> None:
    write(paths.project / ".claude" / "settings.json",
          '{"permissions": {"deny": ["Bash(a)"]}, "permissions": {"deny": ["Bash(b)"]}}')  # fmt: skip
    assert rules(load_settings(paths), "deny") == ["Bash(a)", "Bash(b)"]


def test_a_json_array_is_not_settings(paths) -> None:
    write(paths.project / ".claude" / "settings.json", '["permissions"]')
    with pytest.raises(PermissionsUnreadable, match="expected a JSON object"):
        load_settings(paths)


# --- the home directory as the project ---------------------------------------------------


def test_home_as_the_project_reads_its_claude_file_once_as_the_user_s(user_home, mewcode_home):
    from agent_core.config.paths import MewcodePaths

    write(user_home / ".claude" / "settings.json", {"permissions": {"allow": ["Bash(make)"]}})
    settings = load_settings(MewcodePaths(home=mewcode_home, project=user_home.resolve()))
    assert [(r.rule, r.kind) for r in settings.rules] == [("Bash(make)", "allow")]
    assert settings.skipped_until_trust == []


# --- --settings ---------------------------------------------------------------------------


def test_cli_settings_as_json_text_are_the_user_s_own(paths) -> None:
    write(paths.project / ".claude" / "settings.json", {"permissions": {"defaultMode": "plan"}})
    settings = load_settings(
        paths,
        cli_settings='{"permissions": {"allow": ["Bash(make)"], "defaultMode": "acceptEdits"}}',
    )
    assert [(r.rule, r.source) for r in settings.rules] == [("Bash(make)", "--settings")]
    assert settings.default_mode == "acceptEdits"


@pytest.mark.parametrize(("name", "text"), [
    ("extra.json", '{"permissions": {"deny": ["Bash(curl:*)"]}, "env": {"A": "1"}}'),
    ("extra.yaml", "permissions:\n  deny: ['Bash(curl:*)']\nenv:\n  A: '1'\n"),
])  # fmt: skip
def test_cli_settings_as_a_file(paths, tmp_path, name, text) -> None:
    file = write(tmp_path / name, text)
    settings = load_settings(paths, cli_settings=str(file))
    assert [(r.rule, r.kind, r.source) for r in settings.rules] == [
        ("Bash(curl:*)", "deny", str(file))
    ]
    assert settings.env == {"A": "1"}


def test_cli_settings_that_cannot_be_read_stop(paths, tmp_path) -> None:
    with pytest.raises(PermissionsUnreadable, match="no such file"):
        load_settings(paths, cli_settings=str(tmp_path / "missing.json"))
    with pytest.raises(PermissionsUnreadable, match=r"--settings line 1:\d+: invalid JSON"):
        load_settings(paths, cli_settings='{"permissions": ')
    with pytest.raises(PermissionsUnreadable, match="--settings line 1:27: deny rule Nope"):
        load_settings(paths, cli_settings='{"permissions": {"deny": ["Nope"]}}')


# --- editing a Claude Code file keeps it JSON ---------------------------------------------


def test_removing_a_rule_from_a_claude_file_keeps_it_json(paths) -> None:
    file = write(
        paths.project / ".claude" / "settings.json",
        {"permissions": {"allow": ["Bash(a)", "Bash(b)"]}, "statusLine": {"type": "x"}},
    )
    assert remove_rule(file, "allow", "Bash(a)")
    assert json.loads(file.read_text()) == {
        "permissions": {"allow": ["Bash(b)"]},
        "statusLine": {"type": "x"},
    }
    assert load_settings_file(file) is not None


def test_a_claude_file_that_is_not_json_is_left_unchanged(paths) -> None:
    file = write(paths.project / ".claude" / "settings.json", "{nope")
    with pytest.raises(ConfigError, match="not valid JSON"):
        remove_rule(file, "allow", "Bash(a)")
    assert file.read_text() == "{nope"


def test_only_the_users_own_env_reaches_hooks(paths, user_home) -> None:
    """Hooks run outside the sandbox: a trusted project's env reaches commands, never them."""
    write(user_home / ".claude" / "settings.json", {"env": {"MINE": "1", "HOME": "/home/me"}})
    write(paths.project / ".claude" / "settings.json", {"env": {"HOME": "/evil", "THEIRS": "2"}})
    settings = load_settings(paths, trust_project=True, cli_settings='{"env": {"CLI": "3"}}')
    assert settings.env == {"MINE": "1", "HOME": "/evil", "THEIRS": "2", "CLI": "3"}
    assert settings.hook_env == {"MINE": "1", "CLI": "3"}
