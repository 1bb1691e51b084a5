"""Paths as the kernel and the shell really reach them: magic links, `..` after symlinks,
globs, and Read deny rules that bind every reader (Bash readers, git, Grep/Glob/LS)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

import pytest

from agent_core.config.settings import RuleEntry
from agent_core.permissions import PermissionPolicy, PermissionRequest, decide
from agent_core.permissions.check import tool_profile
from agent_core.permissions.globs import expand_glob
from agent_core.permissions.paths import follow, resolve


class Layout(NamedTuple):
    project: Path
    home: Path
    outside: Path


@pytest.fixture
def layout(tmp_path: Path, project: Path) -> Layout:
    """A project with a secret, symlinks out and back in, and an outside directory."""
    home = tmp_path / "home"
    home.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("s")
    (project / ".env").write_text("KEY=1")
    (project / "src").mkdir()
    (project / "src" / "a.py").write_text("x")
    (project / "src" / "b.py").write_text("y")
    (project / "outdir").mkdir()
    (project / "outdir" / "old.txt").write_text("o")
    (project / ".git").mkdir()
    (project / "escape").symlink_to(outside)
    (project / "link_secret").symlink_to(outside / "secret.txt")
    (project / "deep" / "d2").mkdir(parents=True)
    (project / "up").symlink_to(project / "deep" / "d2")
    (project / "pself").symlink_to("/proc/self")
    return Layout(project, home, outside)


def verdict(
    layout: Layout,
    command: str | None = None,
    mode: str = "default",
    tool: str = "Bash",
    data: dict[str, Any] | None = None,
    deny: tuple[str, ...] = (),
    ask: tuple[str, ...] = (),
    allow: tuple[str, ...] = (),
):
    rules = [RuleEntry(r, "deny", "test") for r in deny]
    rules += [RuleEntry(r, "ask", "test") for r in ask]
    rules += [RuleEntry(r, "allow", "test") for r in allow]
    policy = PermissionPolicy(layout.project, [], rules, mode, layout.home)
    kind, read_only = tool_profile(tool)
    if data is None:
        text = (command or "").replace("{PROJ}", str(layout.project))
        data = {"command": text.replace("{OUT}", str(layout.outside))}
    return decide(PermissionRequest(tool, data, read_only, kind), policy)


def outcome(v) -> tuple[str, str]:
    return v.decision, v.layer


# --- 1. Paths the kernel resolves differently from their text --------------------------

KERNEL_DENIED = [
    "echo x > /dev/fd/../../../$HOME/.bashrc",
    "echo x >> /dev/fd/../../..${HOME}/.profile",
    "echo x > /dev/fd/../../..{PROJ}/notes.txt",  # comes back in, but only through /dev/fd
    "cat /dev/fd/3/../../../etc/hostname",
    "cat /dev/stdin/../../..{PROJ}/src/a.py",
    "cat < /dev/stdout/x",
    "cat /proc/self/root{OUT}/secret.txt",
    "cat /proc/self/cwd/src/a.py",
    "cat /proc/thread-self/root/etc/hostname",
    "cat /proc/1/root/etc/hostname",
    "echo x > /proc/self/fd/1/../../../../tmp/x",
    "cat pself/root{OUT}/secret.txt",  # a symlink inside the project to /proc/self
    "cat pself/cwd/src/a.py",
    "cp src/a.py /proc/self/cwd/copy.py",
]


@pytest.mark.parametrize("mode", ["default", "acceptEdits", "bypassPermissions"])
@pytest.mark.parametrize("command", KERNEL_DENIED)
def test_kernel_magic_paths_are_refused_in_every_mode(
    layout: Layout, command: str, mode: str
) -> None:
    assert outcome(verdict(layout, command, mode)) == ("deny", "sandbox")


def test_kernel_magic_read_tool_is_refused(layout: Layout) -> None:
    data = {"file_path": f"/proc/self/root{layout.project}/src/a.py"}
    assert outcome(verdict(layout, tool="Read", data=data)) == ("deny", "sandbox")
    write = {"file_path": "pself/cwd/x.py", "content": ""}
    got = verdict(layout, tool="Write", data=write, mode="bypassPermissions")
    assert outcome(got) == ("deny", "sandbox")


@pytest.mark.parametrize(
    "command",
    [
        "cat /dev/fd/3",  # an already-open descriptor: no path lookup
        "echo hi > /dev/fd/2",
        "cat /dev/stdin",
        "grep x src/a.py 2>/dev/null",
        "diff src/a.py /dev/fd/0",
    ],
)
def test_exact_descriptors_stay_harmless(layout: Layout, command: str) -> None:
    assert outcome(verdict(layout, command)) == ("allow", "mode")


@pytest.mark.parametrize(
    ("command", "mode", "expected"),
    [
        ("cat < /dev/tcp/example.com/80", "default", ("ask", "mode")),
        ("exec 3<>/dev/udp/10.0.0.1/53", "default", ("ask", "mode")),
        ("echo hi > /dev/tcp/example.com/25", "acceptEdits", ("ask", "mode")),
        ("cat < /dev/tcp/example.com/80", "plan", ("deny", "mode")),
    ],
)
def test_bash_network_redirects_are_unknown(
    layout: Layout, command: str, mode: str, expected: tuple[str, str]
) -> None:
    got = verdict(layout, command, mode)
    assert outcome(got) == expected
    if expected[0] == "ask":
        assert "example.com" in got.reason or "10.0.0.1" in got.reason


def test_network_redirect_meets_read_and_edit_deny_rules(layout: Layout) -> None:
    got = verdict(layout, "cat < /dev/tcp/example.com/80", deny=("Read(secret/**)",))
    assert outcome(got) == ("deny", "rules")
    assert "cannot be known" in got.reason


def test_follow_reports_magic_links(layout: Layout) -> None:
    assert follow("/dev/fd/../../../etc").magic is not None
    assert follow("/proc/self/root/etc/passwd").magic is not None
    assert follow("/dev/tcp/example.com/80").magic == "network"
    assert follow("/proc/1/status").magic is None
    assert follow(str(layout.project / "src" / "a.py")) == (
        str(layout.project / "src" / "a.py"),
        None,
    )


# `..` after a symlink: the kernel climbs from the target; the shell's logical view
# climbs from the name. When they disagree about the root, the stricter wins.
DOTDOT_AFTER_LINK = [
    ("cat escape/../x", "deny"),  # kernel: next to outside/
    ("cat escape/../outside/secret.txt", "deny"),  # logical: inside, kernel: outside
    ("cat up/../../.env", "deny"),  # kernel: project/.env; logical: the project's parent
    ("cat up/../../src/a.py", "deny"),  # kernel: inside; logical: the project's parent
    ("ls up/../d2", "allow"),  # both views stay inside
    ("echo x > escape/../notes.txt", "deny"),
]


@pytest.mark.parametrize("mode", ["default", "bypassPermissions"])
@pytest.mark.parametrize(("command", "decision"), DOTDOT_AFTER_LINK)
def test_dotdot_after_a_symlink_takes_the_stricter_view(
    layout: Layout, command: str, decision: str, mode: str
) -> None:
    got = verdict(layout, command, mode)
    if decision == "deny":
        assert outcome(got) == ("deny", "sandbox")
    else:
        assert got.decision == "allow"


def test_resolve_records_both_views(layout: Layout) -> None:
    roots = [layout.project]
    target = resolve("up/../../.env", layout.project, layout.home, roots)
    assert target.root is None
    assert {target.path, target.logical} == {
        layout.project / ".env",
        layout.project.parent / ".env",
    }


def test_link_from_outside_into_the_project_without_dotdot_is_inside(layout: Layout) -> None:
    (layout.outside / "in").symlink_to(layout.project / "src")
    target = resolve(f"{layout.outside}/in/a.py", layout.project, layout.home, [layout.project])
    assert target.root == layout.project


# --- 2. Globs in path arguments and redirect targets -----------------------------------

GLOB_CASES = [
    # (command, rules, mode, expected)
    ("cat .en?", {"deny": ("Read(.env)",)}, "default", ("deny", "rules")),
    ("cat ./.e*", {"deny": ("Read(.env)",)}, "default", ("deny", "rules")),
    ("cat .[e]nv", {"deny": ("Read(.env)",)}, "bypassPermissions", ("deny", "rules")),
    ("cat .[[:alpha:]]nv", {"deny": ("Read(.env)",)}, "default", ("deny", "rules")),
    ("cat src/../.en?", {"deny": ("Read(.env)",)}, "default", ("deny", "rules")),
    ("cd src && cat ../.e??", {"deny": ("Read(.env)",)}, "default", ("deny", "rules")),
    ("cat '.e'\"nv\"", {"deny": ("Read(.env)",)}, "default", ("deny", "rules")),
    ("cat {.env,src/a.py}", {"deny": ("Read(.env)",)}, "default", ("deny", "rules")),
    ("cat *", {"deny": ("Read(.env)",)}, "default", ("deny", "sandbox")),  # link_secret
    ("cat src/*", {"deny": ("Read(.env)",)}, "default", ("allow", "mode")),
    ("cat ?env", {"deny": ("Read(.env)",)}, "default", ("allow", "mode")),  # no dotfiles
    ("cat [.]env", {"deny": ("Read(.env)",)}, "default", ("allow", "mode")),
    ("shopt -s dotglob; cat src/../?env", {"deny": ("Read(.env)",)}, "default", ("deny", "rules")),
    ("cat link_sec?et", {}, "default", ("deny", "sandbox")),
    ("cat link_*", {}, "bypassPermissions", ("deny", "sandbox")),
    ("cat escap?/secret.txt", {}, "bypassPermissions", ("deny", "sandbox")),
    # like bash, a glob whose whole path does not exist stays the literal word
    ("echo x > outdi?/x", {"deny": ("Edit(outdir/**)",)}, "bypassPermissions", ("allow", "mode")),
    ("echo x > escap*/secret.txt", {}, "bypassPermissions", ("deny", "sandbox")),
    ("echo x > outdi?/old.txt", {}, "acceptEdits", ("allow", "mode")),
    (
        "echo x > outdi?/old.txt",
        {"deny": ("Edit(outdir/**)",)},
        "bypassPermissions",
        ("deny", "rules"),
    ),
    ("rm outdir/*", {"deny": ("Edit(outdir/**)",)}, "bypassPermissions", ("deny", "rules")),
    ("rm outdir/[a-z]*.txt", {"deny": ("Edit(outdir/old.txt)",)}, "default", ("deny", "rules")),
    ("rm nomatch*/x", {"deny": ("Edit(outdir/**)",)}, "bypassPermissions", ("allow", "mode")),
    ("cat src/**/*.py", {"deny": ("Read(src/b.py)",)}, "default", ("deny", "rules")),
    ('cd "$D" && cat *.py', {}, "default", ("ask", "mode")),  # cwd unknown
    ("cat $DIR/*.py", {}, "default", ("ask", "mode")),
    ("cat src/{1..3}.py", {}, "default", ("ask", "mode")),  # sequence braces: not modelled
]


@pytest.mark.parametrize(("command", "rules", "mode", "expected"), GLOB_CASES)
def test_globs_are_expanded_against_the_filesystem(
    layout: Layout, command: str, rules: dict[str, tuple[str, ...]], mode: str, expected
) -> None:
    got = verdict(layout, command, mode, **rules)
    assert outcome(got) == expected, got


def test_expand_glob_follows_bash_rules(layout: Layout) -> None:
    root = layout.project
    assert expand_glob("src/*.py", root) == ["src/a.py", "src/b.py"]
    assert expand_glob("*env", root) == []  # a leading dot must be matched explicitly
    assert expand_glob(".e*", root) == [".env"]
    assert expand_glob("*env", root, dotglob=True) == [".env"]
    assert expand_glob("src/@(a|c).py", root) == ["src/a.py"]
    assert expand_glob(f"{root}/src/?.py", root) == [f"{root}/src/a.py", f"{root}/src/b.py"]
    assert expand_glob("outdi?/", root) == ["outdir/"]
    assert expand_glob("*", root, limit=3) is None  # too large: unknown, never "no match"


def test_a_glob_too_large_to_expand_is_unknown(layout: Layout) -> None:
    many = layout.project / "many"
    many.mkdir()
    for i in range(2100):
        (many / f"f{i}").write_text("")
    got = verdict(layout, "cat many/*", deny=("Read(many/f1)",))
    assert outcome(got) == ("deny", "rules")
    assert "cannot be known" in got.reason
    assert outcome(verdict(layout, "cat many/*")) == ("ask", "mode")


# --- 5. Read deny rules bind every reader ------------------------------------------------

READERS = [
    "cat .env",
    "head -n 3 .env",
    "tail -f .env",
    "less .env",
    "more .env",
    "nl .env",
    "base64 .env",
    "xxd .env",
    "od -c .env",
    "hexdump -C .env",
    "strings .env",
    "sha256sum .env",
    "sed -n p .env",
    "sed -n '1,5p' .env",
    "awk '{print}' .env",
    "cut -d= -f2 .env",
    "sort .env",
    "diff .env src/a.py",
    "cp .env copy",
    "python3 .env",
    "perl -ne print .env",
    "ruby -ne 'puts $_' .env",
    "python3 -c 'import sys; print(open(sys.argv[1]).read())' .env",
    "bash .env",
    "source .env",
    ". ./.env",
    "grep KEY .env",
    "grep -r KEY .",
    "grep -R KEY",
    "grep -rn --include='*' KEY .",
    "rg --hidden KEY",
    "rg -uu KEY",
    "rg KEY .env",
    "tar czf out.tgz .",
    "zip -r out.zip .",
    "cp -r . ../elsewhere-not-reached",
    "git show HEAD:.env",
    "git show :.env",
    "git cat-file -p HEAD:.env",
    "git log -p -- .env",
    "git log -p",
    "git diff",
    "git diff HEAD -- .env",
    "git diff HEAD .env",
    "git grep KEY",
    "git archive HEAD",
    "git archive --format=tar HEAD .env",
    "git stash show -p",
    "git blame .env",
    "git -C src show HEAD:.env",
    "git show HEAD:src/../.env",
    "cat $F",  # unknown: could be .env
    "find . -exec cat {} \\;",
    "find . -name '*.py' | xargs grep TODO",
    "jq -r .x .env",
    "mv .env elsewhere",  # then readable under another name
    "mv .env x && cat x",
    "sed -i 's/^/# /' .env",
    "vim .env",
    "git fast-export --all",
    "git bundle create all.bundle --all",
]


@pytest.mark.parametrize("mode", ["default", "bypassPermissions"])
@pytest.mark.parametrize("command", READERS)
def test_a_read_deny_rule_binds_every_bash_reader(layout: Layout, command: str, mode: str) -> None:
    got = verdict(layout, command, mode, deny=("Read(.env)",))
    assert got.decision == "deny", got
    assert got.layer in ("rules", "sandbox")


@pytest.mark.parametrize("command", ["cat .env", "grep -r KEY .", "git log -p", "cat $F"])
def test_a_read_ask_rule_binds_them_too(layout: Layout, command: str) -> None:
    got = verdict(layout, command, "bypassPermissions", ask=("Read(.env)",), allow=("Bash",))
    assert outcome(got) == ("ask", "rules")


NOT_READING_THE_DENIED_FILE = [
    "cat src/a.py",
    "grep -r KEY src",
    "grep -r --exclude=.env KEY .",
    "rg KEY",  # rg skips hidden files
    "rg --hidden -g '!.env' KEY",
    "git diff -- src",
    "git diff ':!.env'",
    "git diff src/a.py",
    "git log --oneline",
    "git log -p -- src",
    "git show --stat",
    "git status",
    "ls -la",  # names, not contents
    "find . -name '*.py'",
    "echo .env",
    "tar czf out.tgz src",
]


@pytest.mark.parametrize("command", NOT_READING_THE_DENIED_FILE)
def test_readers_that_do_not_reach_the_denied_file_are_not_denied(
    layout: Layout, command: str
) -> None:
    got = verdict(layout, command, "bypassPermissions", deny=("Read(.env)",))
    assert got.decision == "allow", got


TOOL_CASES = [
    ("Grep", {"pattern": "KEY"}, "deny"),
    ("Grep", {"pattern": "KEY", "path": "."}, "deny"),
    ("Grep", {"pattern": "KEY", "path": ".env"}, "deny"),
    ("Grep", {"pattern": "KEY", "path": "src"}, "allow"),
    ("Grep", {"pattern": "KEY", "glob": "*.py"}, "allow"),
    ("Grep", {"pattern": "KEY", "glob": "!.env"}, "allow"),
    ("Grep", {"pattern": "KEY", "glob": "*.py !.env"}, "allow"),
    ("Grep", {"pattern": "KEY", "glob": ".e*"}, "deny"),
    ("Grep", {"pattern": "KEY", "glob": "*.{py,env}"}, "deny"),
    ("Grep", {"pattern": "KEY", "glob": "{src/**,.env}"}, "deny"),
    ("Grep", {"pattern": "KEY", "glob": "*.{py,md}"}, "allow"),
    ("Glob", {"pattern": "**/*"}, "deny"),
    ("Glob", {"pattern": ".env*"}, "deny"),
    ("Glob", {"pattern": "**/*.py"}, "allow"),
    ("Glob", {"pattern": "*", "path": "src"}, "allow"),
    ("LS", {}, "deny"),
    ("LS", {"path": "."}, "deny"),
    ("LS", {"ignore": [".env"]}, "allow"),
    ("LS", {"path": "src"}, "allow"),
    ("Read", {"file_path": ".env"}, "deny"),
    ("Read", {"file_path": "src/../.env"}, "deny"),
]


@pytest.mark.parametrize(("tool", "data", "decision"), TOOL_CASES)
def test_read_deny_binds_grep_glob_and_ls_over_a_tree_holding_the_file(
    layout: Layout, tool: str, data: dict[str, Any], decision: str
) -> None:
    got = verdict(layout, tool=tool, data=data, deny=("Read(.env)",))
    assert got.decision == decision, got
    if decision == "deny" and tool != "Read" and data.get("path") != ".env":
        assert "narrower path" in got.reason


def test_gitignored_files_are_not_searched_by_the_tools(layout: Layout) -> None:
    (layout.project / ".gitignore").write_text(".env\n")
    got = verdict(layout, tool="Grep", data={"pattern": "KEY"}, deny=("Read(.env)",))
    assert got.decision == "allow"
    # grep -r does not read .gitignore: still denied
    assert verdict(layout, "grep -r KEY .", deny=("Read(.env)",)).decision == "deny"


def test_a_denied_directory_inside_a_search_root(layout: Layout) -> None:
    (layout.project / "secrets").mkdir()
    (layout.project / "secrets" / "prod.key").write_text("k")
    rules = {"deny": ("Read(secrets/**)",)}
    assert verdict(layout, tool="Grep", data={"pattern": "k"}, **rules).decision == "deny"
    assert verdict(layout, "grep -rl k .", **rules).decision == "deny"
    assert verdict(layout, "grep -rl k src", **rules).decision == "allow"


def test_symlinks_followed_by_a_search_are_sandboxed(layout: Layout) -> None:
    for command in ("grep -R x .", "find -L . -name x", "zip -r out.zip .", "cp -rL . ../c"):
        assert outcome(verdict(layout, command, "bypassPermissions")) == ("deny", "sandbox")
    # without following, the links are stored or skipped, not read through
    assert verdict(layout, "grep -r x .").decision == "allow"
