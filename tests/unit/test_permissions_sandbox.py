"""The file sandbox: symlinks (dangling, chained, parents), ~, .., siblings, case, Bash paths."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from agent_core.permissions import PermissionPolicy, PermissionRequest, decide
from agent_core.permissions import paths as sandbox_paths
from agent_core.permissions.check import tool_profile


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    path.mkdir()
    return path


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    path = tmp_path / "outside"
    path.mkdir()
    (path / "secret.txt").write_text("s")
    return path


def verdict_for(project: Path, home: Path, tool: str, mode: str = "bypassPermissions", **data):
    kind, read_only = tool_profile(tool)
    policy = PermissionPolicy(project, [], [], mode, home)
    return decide(PermissionRequest(tool, data, read_only, kind), policy)


def sandbox_denied(project: Path, home: Path, tool: str, **data) -> bool:
    verdict = verdict_for(project, home, tool, **data)
    return verdict.decision == "deny" and verdict.layer == "sandbox"


def test_symlink_inside_pointing_outside_is_outside(
    project: Path, home: Path, outside: Path
) -> None:
    (project / "link").symlink_to(outside / "secret.txt")
    assert sandbox_denied(project, home, "Read", file_path="link")
    assert sandbox_denied(project, home, "Bash", command="cat link")


def test_chained_dangling_symlinks_are_followed(project: Path, home: Path, outside: Path) -> None:
    (project / "second").symlink_to(outside / "not-created-yet")
    (project / "first").symlink_to(project / "second")
    assert sandbox_denied(project, home, "Write", file_path="first", content="x")
    assert sandbox_denied(project, home, "Bash", command="echo x > first")


def test_relative_dangling_symlink_pointing_up(project: Path, home: Path) -> None:
    (project / "up").symlink_to("../../escaped.txt")
    assert sandbox_denied(project, home, "Write", file_path="up", content="x")


def test_symlinked_parent_directory_with_missing_children(
    project: Path, home: Path, outside: Path
) -> None:
    (project / "vendor").symlink_to(outside)
    assert sandbox_denied(project, home, "Write", file_path="vendor/deep/new.txt", content="x")
    assert sandbox_denied(project, home, "Bash", command="mkdir -p vendor/a/b")


def test_symlink_loop_inside_the_project_stays_inside(project: Path, home: Path) -> None:
    (project / "a").symlink_to(project / "b")
    (project / "b").symlink_to(project / "a")
    assert not sandbox_denied(project, home, "Read", file_path="a")


def test_link_from_outside_into_the_project_is_inside(
    project: Path, home: Path, outside: Path
) -> None:
    (project / "src").mkdir()
    (outside / "in").symlink_to(project / "src")
    assert not sandbox_denied(project, home, "Read", file_path=f"{outside}/in/a.py")


def test_sibling_with_the_same_prefix_is_outside(project: Path, home: Path) -> None:
    sibling = project.parent / (project.name + "-evil")
    sibling.mkdir()
    assert sandbox_denied(project, home, "Read", file_path=f"{sibling}/x")
    assert sandbox_denied(project, home, "Read", file_path=f"../{project.name}-evil/x")


def test_dotdot_that_comes_back_is_inside(project: Path, home: Path) -> None:
    assert not sandbox_denied(project, home, "Read", file_path=f"src/../../{project.name}/a.py")
    assert sandbox_denied(project, home, "Read", file_path="src/../../x")


def test_tilde_uses_the_policy_home(project: Path, home: Path) -> None:
    assert sandbox_denied(project, home, "Read", file_path="~/x")
    nested = home / "work"
    nested.mkdir()
    assert not sandbox_denied(nested, home, "Read", file_path="~/work/a.py")
    assert not sandbox_denied(nested, home, "Bash", command="cat ~/work/a.py $HOME/work/b")


def test_case_insensitive_filesystems_compare_casefolded(
    project: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shouted = str(project).upper()
    assert sandbox_denied(project, home, "Read", file_path=f"{shouted}/a.py")
    monkeypatch.setattr(sandbox_paths, "case_insensitive", lambda root: True)
    assert not sandbox_denied(project, home, "Read", file_path=f"{shouted}/a.py")


@pytest.mark.skipif(sys.platform != "linux", reason="Linux filesystems are case-sensitive")
def test_case_detection_on_a_case_sensitive_filesystem(project: Path) -> None:
    assert sandbox_paths.case_insensitive(str(project)) is False


@pytest.mark.parametrize(
    "command",
    [
        "mv src/a.py /tmp/elsewhere-mewcode",
        "ln -s /etc/passwd link",
        "grep -n root /etc/passwd",
        "rg -e root /etc",
        "sed -i s/a/b/ /etc/hosts",
        "dd if=/etc/shadow of=copy",
        "sort -o /etc/sorted names.txt",
        "head -n 5 /etc/passwd",
        "find /etc -name '*.conf'",
        "cd /etc && cat passwd",
        "cat < /etc/passwd",
        "touch -r /etc/passwd x",
        "cat {notes,/etc/passwd}",
    ],
)
def test_clear_file_arguments_of_bash_commands_are_confined(
    project: Path, home: Path, command: str
) -> None:
    assert sandbox_denied(project, home, "Bash", command=command)


@pytest.mark.parametrize(
    "command",
    [
        "grep -rn /etc/passwd src",  # the first positional of grep is a pattern
        "echo /etc/passwd",
        "cat /dev/null > empty.txt",
        "ls 2>/dev/null",
        "git diff HEAD~1 -- /etc",  # git arguments are not file targets
        "cat '~/notes'",  # a quoted tilde is a file literally named ~
    ],
)
def test_non_path_arguments_are_not_sandboxed(project: Path, home: Path, command: str) -> None:
    assert not sandbox_denied(project, home, "Bash", command=command)


def test_unresolvable_paths_are_not_auto_allowed(project: Path, home: Path) -> None:
    for command in ('cd "$DIR" && cat x', "cat {/etc/passwd,$X}", "cat $FILE"):
        verdict = verdict_for(project, home, "Bash", mode="default", command=command)
        assert verdict.decision == "ask", (command, verdict)


def test_protected_name_found_through_a_symlink(project: Path, home: Path) -> None:
    (project / ".git").mkdir()
    (project / "gitdir").symlink_to(project / ".git")
    verdict = verdict_for(project, home, "Write", file_path="gitdir/config", content="x")
    assert (verdict.decision, verdict.layer) == ("ask", "mode")
    assert ".git" in verdict.reason
