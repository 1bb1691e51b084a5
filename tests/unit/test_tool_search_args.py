"""Pure pieces of Grep/Glob: rg command lines, glob splitting, error text, path display."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent_core.tools.base import validate_input
from agent_core.tools.glob import split_pattern
from agent_core.tools.globmatch import GlobSyntaxError, compile_glob, expand_braces
from agent_core.tools.grep import GrepParams, rg_arguments, split_globs
from agent_core.tools.pathfilter import display_path
from agent_core.tools.ripgrep import _trim, rg_error


def grep_args(**raw) -> GrepParams:
    return validate_input(GrepParams, {"pattern": "x", **raw})


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        ("**/*.py", ("", "**/*.py")),
        ("*.py", ("", "*.py")),
        ("src/**/*.ts", ("src", "**/*.ts")),
        ("src/lib/*.rs", ("src/lib", "*.rs")),
        ("src/*/test/*.py", ("src", "*/test/*.py")),
        ("/abs/dir/*.py", ("/abs/dir", "*.py")),
        ("/x.py", ("/", "x.py")),
        ("docs/", ("docs", "**")),
        ("src/main.py", ("src", "main.py")),
        ("../other/**", ("../other", "**")),
        ("{a,b}/*.py", ("", "{a,b}/*.py")),
    ],
)
def test_split_pattern(pattern: str, expected: tuple[str, str]) -> None:
    assert split_pattern(pattern) == expected


@given(st.lists(st.sampled_from(["src", "a.b", "**", "*.py", "x?", "[ab]"]), min_size=1))
def test_split_pattern_loses_nothing(parts: list[str]) -> None:
    pattern = "/".join(parts)
    prefix, rest = split_pattern(pattern)
    assert "/".join(p for p in (prefix, rest) if p) == pattern


@pytest.mark.parametrize(
    ("glob", "expected"),
    [
        ("*.py", ["*.py"]),
        ("*.py *.md", ["*.py", "*.md"]),
        ("*.py,*.md", ["*.py", "*.md"]),
        ("*.{ts,tsx}", ["*.{ts,tsx}"]),
        ("*.{ts,tsx},*.js", ["*.{ts,tsx}", "*.js"]),
    ],
)
def test_split_globs(glob: str, expected: list[str]) -> None:
    assert split_globs(glob) == expected


def test_files_mode_asks_rg_for_file_names_only() -> None:
    cmd = rg_arguments(grep_args(), None)
    assert "--files-with-matches" in cmd and "--line-number" not in cmd
    assert cmd[-2:] == ["--regexp", "x"]


def test_content_mode_flags() -> None:
    cmd = rg_arguments(grep_args(output_mode="content", **{"-i": True, "-A": 2, "-B": 1}), "src")
    assert "--line-number" in cmd and "--ignore-case" in cmd
    assert "--after-context=2" in cmd and "--before-context=1" in cmd
    assert cmd[-2:] == ["--", "src"]


def test_context_wins_over_before_and_after() -> None:
    cmd = rg_arguments(grep_args(output_mode="content", **{"-C": 3, "-A": 1}), None)
    assert "--context=3" in cmd and not any(a.startswith("--after") for a in cmd)


def test_line_numbers_can_be_turned_off() -> None:
    cmd = rg_arguments(grep_args(output_mode="content", **{"-n": False}), None)
    assert "--line-number" not in cmd


def test_git_dir_exclusion_comes_after_user_globs() -> None:
    cmd = rg_arguments(grep_args(glob="**"), None)
    assert cmd.index("!.git") > cmd.index("**")


def test_pattern_starting_with_a_dash_is_not_taken_for_a_flag() -> None:
    cmd = rg_arguments(grep_args(pattern="--files"), None)
    assert cmd[cmd.index("--files") - 1] == "--regexp"


def test_regex_error_becomes_one_line() -> None:
    stderr = "rg: regex parse error:\n    (foo\n    ^\nerror: unclosed group\n"
    assert rg_error(stderr) == "invalid regex: unclosed group"


def test_other_rg_errors_keep_their_last_line() -> None:
    assert rg_error("rg: unrecognized file type: nope\n") == "unrecognized file type: nope"
    assert rg_error("") == "ripgrep failed"


def test_trim_keeps_whole_lines_within_both_caps() -> None:
    data = b"a\nbb\nccc\ndddd\n"
    assert _trim(data, 2, 1000) == b"a\nbb\n"
    assert _trim(data, None, 7) == b"a\nbb\n"


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/p/proj/src/a.py", "src/a.py"),
        ("/p/proj", "."),
        ("/p/project2/a.py", "/p/project2/a.py"),
        ("/etc/hosts", "/etc/hosts"),
    ],
)
def test_display_path(path: str, expected: str) -> None:
    assert display_path(path, Path("/p/proj")) == expected


@pytest.mark.parametrize(
    ("glob", "path", "matches"),
    [
        ("*.py", "a.py", True),
        ("*.py", "pkg/a.py", False),
        ("**/*.py", "a.py", True),
        ("**/*.py", "pkg/sub/a.py", True),
        ("**/*.py", "a.pyc", False),
        ("src/**", "src/a/b.txt", True),
        ("src/**", "lib/a.txt", False),
        ("src/**/test_*.py", "src/test_x.py", True),
        ("src/**/test_*.py", "src/a/b/test_x.py", True),
        ("*.{ts,tsx}", "view.tsx", True),
        ("*.{ts,tsx}", "view.js", False),
        ("{src,lib}/*.rs", "lib/x.rs", True),
        ("file?.txt", "file1.txt", True),
        ("file?.txt", "file10.txt", False),
        ("[!a]*.md", "b.md", True),
        ("[!a]*.md", "a.md", False),
        ("[]x]*", "]y", True),
        ("a+b(1).txt", "a+b(1).txt", True),
        ("*", ".env", True),
    ],
)
def test_compile_glob(glob: str, path: str, matches: bool) -> None:
    assert bool(compile_glob(glob).fullmatch(path)) is matches


def test_brace_expansion_nests_and_refuses_blowups() -> None:
    assert expand_braces("a{b,c{d,e}}") == ["ab", "acd", "ace"]
    assert expand_braces("{x}") == ["{x}"]
    with pytest.raises(GlobSyntaxError):
        expand_braces("{a,b")
    with pytest.raises(GlobSyntaxError):
        expand_braces("{a,b}" * 12)
