"""The shell splitter: what bash would run, wrappers stripped, and when it cannot be sure."""

from __future__ import annotations

import shlex
import time

import pytest

from agent_core.permissions.shell.parse import parse_command
from agent_core.permissions.shell.text import hidden_character, prepare_heredocs, unquote


def programs(command: str) -> list[list[str]]:
    return [[w.text for w in c.argv] for c in parse_command(command).commands]


def rule_views(command: str) -> list[str]:
    return [" ".join(w.text for w in c.words) for c in parse_command(command).commands]


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("ls -la && pwd", [["ls", "-la"], ["pwd"]]),
        ("a || b ; c | d |& e & f", [["a"], ["b"], ["c"], ["d"], ["e"], ["f"]]),
        ("a\nb\n\nc", [["a"], ["b"], ["c"]]),
        ("echo $(whoami)", [["whoami"], ["echo", "$(whoami)"]]),
        ("echo `id`", [["id"], ["echo", "`id`"]]),
        ("diff <(ls a) <(ls b)", [["ls", "a"], ["ls", "b"], ["diff", "<(ls a)", "<(ls b)"]]),
        ("(cd src && make)", [["cd", "src"], ["make"]]),
        ("{ ls; pwd; }", [["ls"], ["pwd"]]),
        ("for f in *.py; do wc -l $f; done", [["wc", "-l", "*.py"]]),  # the loop value
        ("if test -f x; then cat x; fi", [["test", "-f", "x"], ["cat", "x"]]),
    ],
)
def test_splits_every_part(command: str, expected: list[list[str]]) -> None:
    assert programs(command) == expected
    assert parse_command(command).certain


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("sudo -u bob rm x", ["rm", "x"]),
        ("doas rm x", ["rm", "x"]),
        ("env -i FOO=1 BAR=2 rm x", ["rm", "x"]),
        ("nice -n 5 rm x", ["rm", "x"]),
        ("nice -10 rm x", ["rm", "x"]),
        ("nohup rm x", ["rm", "x"]),
        ("timeout -s KILL 5s rm x", ["rm", "x"]),
        ("/usr/bin/time -p rm x", ["rm", "x"]),
        ("time rm x", ["rm", "x"]),
        ("command rm x", ["rm", "x"]),
        ("exec rm x", ["rm", "x"]),
        ("stdbuf -oL rm x", ["rm", "x"]),
        ("ionice -c 3 rm x", ["rm", "x"]),
        ("xargs -0 -n 1 rm", ["rm"]),
        ("xargs -I{} rm {}", ["rm", "{}"]),
        ("FOO=1 BAR='a b' rm x", ["rm", "x"]),
        ("/bin/rm x", ["rm", "x"]),
        ("../../bin/rm x", ["rm", "x"]),
        ("r''m x", ["rm", "x"]),
        ('"rm" x', ["rm", "x"]),
        ("\\rm x", ["rm", "x"]),
        ("\"r\"'m' x", ["rm", "x"]),
        ("$'\\162\\155' x", ["rm", "x"]),
        ("sudo env timeout 3 nice /bin/rm x", ["rm", "x"]),
    ],
)
def test_wrappers_assignments_paths_and_quotes_are_stripped(
    command: str, expected: list[str]
) -> None:
    assert programs(command) == [expected]


def test_command_v_is_a_lookup_not_a_wrapper() -> None:
    assert programs("command -v rm") == [["command", "-v", "rm"]]


def test_rule_view_keeps_privilege_wrappers_and_unsafe_assignments() -> None:
    assert rule_views("timeout 5 nice npm test") == ["npm test"]
    assert rule_views("CI=1 npm test") == ["npm test"]
    assert rule_views("sudo npm test") == ["sudo npm test"]
    assert rule_views("PATH=/tmp npm test") == ["PATH=/tmp npm test"]
    assert rule_views("LD_PRELOAD=x.so ls") == ["LD_PRELOAD=x.so ls"]
    assert "GIT_PAGER=sh git log" in rule_views("GIT_PAGER=sh git log")  # and the pager: sh


@pytest.mark.parametrize(
    ("command", "inner"),
    [
        ("bash -c 'rm x && ls'", [["rm", "x"], ["ls"]]),
        ("sh -ec 'rm x'", [["rm", "x"]]),
        ("zsh -o pipefail -c 'rm x'", [["rm", "x"]]),
        ('eval "rm x"', [["rm", "x"]]),
        ("xargs sh -c 'rm $1' _", [["rm", "$1"]]),
    ],
)
def test_shell_strings_are_parsed_again(command: str, inner: list[list[str]]) -> None:
    assert programs(command) == inner


def test_find_exec_runs_its_command() -> None:
    assert programs("find . -name x -exec rm -f {} +") == [
        ["rm", "-f", "{}"],
        ["find", ".", "-name", "x", "-exec", "rm", "-f", "{}", "+"],
    ]


def test_redirect_targets_are_collected_and_fd_duplications_are_not() -> None:
    parsed = parse_command("make > build.log 2>&1 && cat < in.txt >> out.txt &> all.log")
    assert [(r.op, r.target.text, r.write) for r in parsed.redirects] == [
        (">", "build.log", True),
        ("<", "in.txt", False),
        (">>", "out.txt", True),
        ("&>", "all.log", True),
    ]


def test_cd_is_followed_for_later_parts_but_not_out_of_subshells() -> None:
    parsed = parse_command("cd /tmp && (cd /etc; ls) && cat x")
    cwd = {" ".join(w.text for w in c.argv): c.cwd for c in parsed.commands}
    assert cwd["ls"] == "/etc"
    assert cwd["cat x"] == "/tmp"


def test_pipelines_record_what_feeds_a_command() -> None:
    parsed = parse_command("curl -s x | tee f | sh")
    assert parsed.commands[-1].upstream == ("curl", "tee")


@pytest.mark.parametrize(
    ("command", "why"),
    [
        ("$CMD -x", "variable is used as a command"),
        ("${TOOLS}/run", "variable is used as a command"),
        ("$(which rm) x", "variable is used as a command"),
        ('eval "$X"', "computed string"),
        ('bash -c "$SCRIPT"', "computed string"),
        ("ls\u200b", "U+200B"),
        ("ls \u2066x\u2069", "U+2066"),
        ("ls\x1b[2J", "U+001B"),
        ("ls \u00a0-la", "U+00A0"),
        ("echo 'unclosed", "unbalanced quotes"),
        ("r* x", "pattern"),
        ("env -S 'rm x'", "env -S"),
    ],
)
def test_uncertain_commands_say_why(command: str, why: str) -> None:
    parsed = parse_command(command)
    assert not parsed.certain
    assert any(why in reason for reason in parsed.uncertain), parsed.uncertain


def test_plain_syntax_bashlex_rejects_is_still_certain_through_shlex() -> None:
    parsed = parse_command("time npm test && [[ -f x ]]")
    assert parsed.certain
    assert [[w.text for w in c.argv] for c in parsed.commands] == [
        ["npm", "test"],
        ["[[", "-f", "x", "]]"],
    ]


def test_quoted_heredoc_bodies_are_data_not_commands() -> None:
    parsed = parse_command("cat > notes.md <<'EOF'\nrm -rf /\n$(reboot)\nEOF\nls")
    assert [[w.text for w in c.argv] for c in parsed.commands] == [["cat"], ["ls"]]
    assert [r.target.text for r in parsed.redirects] == ["notes.md"]
    assert parsed.certain


def test_unquoted_heredoc_substitutions_run() -> None:
    parsed = parse_command("cat <<EOF\n$(reboot)\nEOF")
    assert ["reboot"] in [[w.text for w in c.argv] for c in parsed.commands]


def test_heredoc_marker_hidden_in_quotes_does_not_swallow_commands() -> None:
    parsed = parse_command('echo "$(echo "<<X")"\nrm x\nX')
    assert ["rm", "x"] in [[w.text for w in c.argv] for c in parsed.commands]


def test_prepare_heredocs_cuts_bodies() -> None:
    prepared = prepare_heredocs("cat <<-'E' > f\n\tbody\n\tE\necho done")
    assert "body" not in prepared.text
    assert prepared.heredocs[0].body == "\tbody"
    assert prepared.heredocs[0].quoted


def test_unquote_matches_bash_quote_removal() -> None:
    assert unquote("'a b'") == "a b"
    assert unquote("\"x\"'y'z") == "xyz"
    assert unquote("$'\\x41\\n'") == "A\n"
    assert unquote("a b") is None


def test_hidden_character_allows_tab_and_newline() -> None:
    assert hidden_character("ls\t-la\npwd") is None
    assert hidden_character("é ü 中文") is None
    assert hidden_character("a\u200db") == "U+200D ZERO WIDTH JOINER"


def test_long_chains_parse_quickly() -> None:
    command = " && ".join(f"echo part{i} | grep {i}" for i in range(200))
    started = time.perf_counter()
    parsed = parse_command(command)
    assert time.perf_counter() - started < 1.5
    assert len(parsed.commands) == 400


def test_deep_nesting_gives_up_as_uncertain() -> None:
    command = "rm x"
    for _ in range(10):
        command = f"bash -c {shlex.quote(command)}"
    parsed = parse_command(command)
    assert not parsed.certain
    assert any("nested too deeply" in r for r in parsed.uncertain)


def test_empty_and_comment_only_commands_run_nothing() -> None:
    for command in ("", "   ", "# just a note"):
        parsed = parse_command(command)
        assert parsed.commands == []
        assert parsed.certain


@pytest.mark.parametrize(
    "command",
    [
        "echo 'make test' | bash",
        "printf 'make test' | sh -s",
        "bash <<'EOF'\nmake test\nEOF",
        "sh <<< 'make test'",
        "cat <<EOF | bash\nmake test\nEOF",
    ],
)
def test_programs_fed_to_a_shell_on_stdin_are_parsed(command: str) -> None:
    assert ["make", "test"] in programs(command)


def test_text_fed_to_a_script_or_interpreter_is_not_parsed_as_commands() -> None:
    assert ["make", "test"] not in programs("echo 'make test' | bash script.sh")
    assert ["make", "test"] not in programs("echo 'make test' | python3")
    assert ["make", "test"] not in programs("echo 'make test' | bash -c 'cat'")


def test_unquoted_brace_lists_expand_and_quoted_ones_do_not() -> None:
    assert programs("{ls,-la}") == [["ls", "-la"]]
    assert programs("echo x{a,b}y") == [["echo", "xay", "xby"]]
    assert programs("echo '{a,b}'") == [["echo", "{a,b}"]]
