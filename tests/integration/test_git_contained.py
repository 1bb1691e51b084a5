"""Attacks on MewCode's own git (the per-turn status summary, /review's diff), end to end.

A repository's config can name programs git runs: core.fsmonitor, filters, diff
drivers, transports. MewCode runs git itself, outside the model's turn, so such a
config must run nothing: neither in a folder the user has not trusted (a fresh
clone, plan mode included) nor where a sandboxed command planted it for the next
session. Each test first shows that the attack works on plain git (the control),
then that MewCode's git runs nothing.

The witness proves what ran: the planted program creates a file outside the project
(only possible unconfined) AND connects to a Unix socket outside (possible from
inside the sandbox too), so a program that ran contained is caught as well.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from agent_core.agent.prompt import git_summary
from agent_core.git import GitUnavailable, git_config_values_sync, run_git_sync
from agent_core.git.working_diff import working_tree_diff
from agent_core.sandbox.policy import sandbox_policy
from tests.helpers.headless import bash_calls, headless_in_process

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")

IDENTITY = ["-c", "user.email=t@t", "-c", "user.name=t"]
STATUS = ["status", "--porcelain", "--branch", "--ignore-submodules=all"]


class Witness:
    """A planted program and the traces it leaves when it runs, confined or not."""

    def __init__(self, outside: Path) -> None:
        self._dir = Path(tempfile.mkdtemp(prefix="mwgit-", dir="/tmp"))  # AF_UNIX: short path
        self.file = outside / "ran"
        self._sock_path = self._dir / "s"
        self._server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._server.bind(str(self._sock_path))
        self._server.listen(64)
        self._server.setblocking(False)
        self.program = outside / "evil.sh"
        connect = (
            "import socket; s = socket.socket(socket.AF_UNIX); "
            f's.connect("{self._sock_path}"); s.sendall(b"ran")'
        )
        self.program.write_text(
            f"#!/bin/sh\ntouch '{self.file}'\n'{sys.executable}' -c '{connect}' 2>/dev/null\nexit 1\n"
        )
        self.program.chmod(0o755)

    def evidence(self) -> list[str]:
        """What shows the program ran (and forget it, for the next step)."""
        found = []
        if self.file.exists():
            found.append(f"{self.file} was created (the program ran unconfined)")
            self.file.unlink()
        while True:
            try:
                conn, _ = self._server.accept()
            except BlockingIOError:
                break
            conn.close()
            found.append(f"{self._sock_path} got a connection (the program ran)")
        return found

    def close(self) -> None:
        self._server.close()
        shutil.rmtree(self._dir, ignore_errors=True)


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A directory no command may write (TMPDIR is own_tmp, so /tmp is not writable)."""
    path = tmp_path / "outside"
    path.mkdir()
    return path


@pytest.fixture
def witness(outside: Path) -> Iterator[Witness]:
    w = Witness(outside)
    try:
        yield w
    finally:
        w.close()


def git(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Plain git, as the test (or the user) runs it: unconfined."""
    return subprocess.run(
        ["git", *IDENTITY, *args], cwd=cwd, capture_output=True, text=True, timeout=30, check=False
    )


def committed_repo(path: Path) -> Path:
    """A repository with one committed file, a.txt, then modified (status must look at it)."""
    path.mkdir(exist_ok=True)
    git(path, "init", "-q", "-b", "main")
    (path / "a.txt").write_text("one\n")
    git(path, "add", "-A")
    assert git(path, "commit", "-qm", "first").returncode == 0
    (path / "a.txt").write_text("two\n")
    return path


def left_planted(config: Path, planted: str) -> None:
    """The sandbox's guard moves a config a command planted out of a new repository when
    the command ends; MewCode's own git must hold even where it did not (a background shell
    still running, a guard bug): the test puts the planted lines back."""
    text = config.read_text() if config.exists() else ""
    assert planted not in text, "the guard left a planted config in place"
    quarantine = list(Path(os.environ["MEWCODE_HOME"]).glob("quarantine/*/*/**/config"))
    assert quarantine, "the guard did not keep the command's config"
    config.write_text(text + planted)


def assert_attack_works_on_plain_git(witness: Witness, cwd: Path, *args: str) -> None:
    git(cwd, *args)
    assert witness.evidence(), "the control failed: plain git did not run the planted program"


def session_runs_nothing(witness, fake_llm, cwd: Path, monkeypatch, capsys, *flags: str) -> str:
    """The control (plain `git status` runs the planted program), then a `mewcode -p` session
    in cwd that runs nothing; returns the system prompt it sent."""
    assert_attack_works_on_plain_git(witness, cwd, "status")
    system = headless(fake_llm, cwd, monkeypatch, capsys, *flags)
    assert witness.evidence() == []
    return system


def policy_for(project: Path, tmp_path: Path):
    scratch = tmp_path / "scratch"
    scratch.mkdir(exist_ok=True)
    return sandbox_policy(
        project, [], scratch, Path.home(), Path(os.environ["MEWCODE_HOME"]), network=False
    )


def headless(fake_llm, project: Path, monkeypatch, capsys, *flags: str) -> str:
    """One `mewcode -p` session answering "ok"; returns the system prompt the model received."""
    fake_llm.script([{"text": "ok"}])
    seen = len(fake_llm.requests)
    code, _, err = headless_in_process(
        ["-p", "hello", *flags], fake_llm.env("anthropic"), project, monkeypatch, capsys
    )
    assert code == 0, err
    return json.dumps(fake_llm.requests[seen].body["system"])


def bypass_session(fake_llm, project: Path, monkeypatch, capsys, code: str) -> None:
    """A session in bypass mode whose model runs ``python3 -c code`` (sandboxed) once."""
    assert "'" not in code
    fake_llm.script(bash_calls(f"python3 -c '{code}'"))
    exit_code, result, err = headless_in_process(
        ["-p", "go", "--permission-mode", "bypassPermissions"],
        fake_llm.env("anthropic"),
        project,
        monkeypatch,
        capsys,
    )
    assert exit_code == 0, err
    assert not result.get("permission_denials"), result


def planting(*lines: str) -> str:
    """Python for a sandboxed command: run git (with an identity) and write files."""
    head = [
        "import subprocess",
        'g = ["git", "-c", "user.email=t@t", "-c", "user.name=t"]',
        "def run(*args): subprocess.run(g + list(args), check=True)",
    ]
    return "\n".join([*head, *lines])


# --------------------------------------------- an untrusted folder's own config


@pytest.mark.parametrize("mode", ["default", "plan"])
def test_fsmonitor_in_an_untrusted_folder_runs_nothing(
    backend, own_tmp, fake_llm, project, witness, mode, monkeypatch, capsys
) -> None:
    committed_repo(project)
    git(project, "config", "core.fsmonitor", str(witness.program))
    system = session_runs_nothing(
        witness, fake_llm, project, monkeypatch, capsys, "--permission-mode", mode
    )
    assert "1 changed file(s)" in system  # status ran, contained


def test_clean_filter_in_an_untrusted_folder_runs_nothing(
    backend, own_tmp, fake_llm, project, witness, monkeypatch, capsys
) -> None:
    (project / ".gitattributes").write_text("* filter=evil\n")
    committed_repo(project)
    git(project, "config", "filter.evil.clean", str(witness.program))
    git(project, "config", "filter.evil.required", "true")
    system = session_runs_nothing(witness, fake_llm, project, monkeypatch, capsys)
    assert "1 changed file(s)" in system


# --------------------------------------------- planted by a sandboxed command


def test_git_init_by_a_command_does_not_run_its_fsmonitor_next_session(
    backend, own_tmp, fake_llm, project, witness, monkeypatch, capsys
) -> None:
    code = planting(
        'run("init", "-q")',
        'open("a.txt", "w").write("one")',
        'run("add", "a.txt")',
        'run("commit", "-qm", "x")',
        f'open(".git/config", "a").write("[core]\\n\\tfsmonitor = {witness.program}\\n")',
        'open("a.txt", "w").write("two")',
    )
    bypass_session(fake_llm, project, monkeypatch, capsys, code)
    assert (project / ".git").is_dir()
    left_planted(project / ".git" / "config", f"[core]\n\tfsmonitor = {witness.program}\n")
    system = session_runs_nothing(witness, fake_llm, project, monkeypatch, capsys)
    assert "1 changed file(s)" in system


def test_a_nested_repository_does_not_run_its_fsmonitor_next_session(
    backend, own_tmp, fake_llm, project, witness, monkeypatch, capsys
) -> None:
    committed_repo(project)
    code = planting(
        'run("init", "-q", "sub")',
        'open("sub/s.txt", "w").write("one")',
        'run("-C", "sub", "add", "s.txt")',
        'run("-C", "sub", "commit", "-qm", "x")',
        f'open("sub/.git/config", "a").write("[core]\\n\\tfsmonitor = {witness.program}\\n")',
        'open("sub/s.txt", "w").write("two")',
    )
    bypass_session(fake_llm, project, monkeypatch, capsys, code)
    left_planted(project / "sub/.git/config", f"[core]\n\tfsmonitor = {witness.program}\n")
    system = session_runs_nothing(witness, fake_llm, project / "sub", monkeypatch, capsys)
    assert "1 changed file(s)" in system


def test_a_nested_repository_registered_as_a_gitlink_runs_nothing_from_the_parent(
    backend, own_tmp, fake_llm, project, witness, monkeypatch, capsys
) -> None:
    """The parent's status would recurse into the gitlink, reading sub/'s config and drivers."""
    committed_repo(project)
    code = planting(
        'run("init", "-q", "sub")',
        'open("sub/.gitattributes", "w").write("* filter=sneaky")',
        'open("sub/s.txt", "w").write("one")',
        'run("-C", "sub", "add", "-A")',
        'run("-C", "sub", "commit", "-qm", "x")',
        'head = subprocess.run(g + ["-C", "sub", "rev-parse", "HEAD"], capture_output=True, '
        "text=True).stdout.strip()",
        'run("update-index", "--add", "--cacheinfo", "160000," + head + ",sub")',
        f'open("sub/.git/config", "a").write("[core]\\n\\tfsmonitor = {witness.program}\\n'
        f'[filter \\"sneaky\\"]\\n\\tclean = {witness.program}\\n")',
        'open("sub/s.txt", "w").write("two")',
    )
    bypass_session(fake_llm, project, monkeypatch, capsys, code)
    left_planted(
        project / "sub/.git/config",
        f'[core]\n\tfsmonitor = {witness.program}\n[filter "sneaky"]\n\tclean = {witness.program}\n',
    )
    system = session_runs_nothing(witness, fake_llm, project, monkeypatch, capsys)
    assert "changed file(s)" in system


# --------------------------------------------- no sandbox: no git


def test_without_a_sandbox_the_summary_is_skipped_and_nothing_runs(
    fake_llm, project, witness, monkeypatch, capsys
) -> None:
    monkeypatch.setenv("MEWCODE_SANDBOX", "none")
    committed_repo(project)
    git(project, "config", "core.fsmonitor", str(witness.program))
    system = headless(fake_llm, project, monkeypatch, capsys)
    assert witness.evidence() == []
    assert "git: not checked (no sandbox)" in system


async def test_without_a_sandbox_review_runs_no_git(project, witness, tmp_path, monkeypatch):
    monkeypatch.setenv("MEWCODE_SANDBOX", "none")
    committed_repo(project)
    git(project, "config", "diff.external", str(witness.program))
    diff, problem = await working_tree_diff(project, policy_for(project, tmp_path))
    assert witness.evidence() == []
    assert diff is None
    assert problem.startswith("git cannot run contained here: no OS sandbox")


# --------------------------------------------- /review's diff


DIFF_ATTACKS = {
    "textconv": [("diff.evil.textconv", "{program}")],
    "diff.external": [("diff.external", "{program}")],
    "diff driver command": [("diff.evil.command", "{program}")],
}


@pytest.mark.parametrize("attack", DIFF_ATTACKS)
async def test_review_diff_runs_no_diff_program(
    backend, own_tmp, project, witness, tmp_path, attack
) -> None:
    (project / ".gitattributes").write_text("* diff=evil\n")
    committed_repo(project)
    for key, value in DIFF_ATTACKS[attack]:
        git(project, "config", key, value.format(program=witness.program))
    assert_attack_works_on_plain_git(witness, project, "diff", "HEAD")
    diff, problem = await working_tree_diff(project, policy_for(project, tmp_path))
    assert witness.evidence() == []
    assert diff is not None, problem
    assert "-one\n+two" in diff  # the real diff, not a program's output


# --------------------------------------------- run_git itself, against real git


def test_a_process_filter_runs_nothing(backend, own_tmp, project, witness, tmp_path) -> None:
    (project / ".gitattributes").write_text("* filter=evil\n")
    committed_repo(project)
    git(project, "config", "filter.evil.process", str(witness.program))
    assert_attack_works_on_plain_git(witness, project, "status")
    result = run_git_sync(STATUS, project, policy_for(project, tmp_path))
    assert witness.evidence() == []
    assert result.ok and b" M a.txt" in result.stdout


@pytest.mark.parametrize("name", ["evil", "x=y", "a.b c"])
def test_a_driver_with_any_name_runs_nothing(
    backend, own_tmp, project, witness, tmp_path, name
) -> None:
    (project / ".gitattributes").write_text(f"* filter={name.replace(' ', '')}\n")
    committed_repo(project)
    git(project, "config", f"filter.{name.replace(' ', '')}.clean", str(witness.program))
    assert_attack_works_on_plain_git(witness, project, "status")
    result = run_git_sync(STATUS, project, policy_for(project, tmp_path))
    assert witness.evidence() == []
    assert result.ok, result.problem()


def _partial_clone(project: Path) -> None:
    """a.txt's committed blob is missing, and origin is a promisor: git would fetch it."""
    committed_repo(project)
    blob = git(project, "rev-parse", "HEAD:a.txt").stdout.strip()
    (project / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    git(project, "config", "core.repositoryformatversion", "1")
    git(project, "config", "extensions.partialClone", "origin")
    git(project, "config", "remote.origin.promisor", "true")


def test_a_lazy_fetch_through_an_allowed_ext_transport_runs_nothing(
    backend, own_tmp, project, witness, tmp_path
) -> None:
    _partial_clone(project)
    git(project, "config", "remote.origin.url", f"ext::{witness.program} %S")
    git(project, "config", "protocol.ext.allow", "always")
    assert_attack_works_on_plain_git(witness, project, "diff", "HEAD")
    result = run_git_sync(["diff", "HEAD"], project, policy_for(project, tmp_path))
    assert witness.evidence() == []
    assert not result.ok  # the blob stays missing


def test_a_remote_helper_the_config_allows_runs_nothing(
    backend, own_tmp, project, witness, tmp_path, outside
) -> None:
    _partial_clone(project)
    helpers = outside / "bin"
    helpers.mkdir()
    shutil.copy(witness.program, helpers / "git-remote-evil")
    git(project, "config", "remote.origin.url", "evil::somewhere")
    git(project, "config", "protocol.evil.allow", "always")
    environ = {**os.environ, "PATH": f"{helpers}:{os.environ['PATH']}"}
    subprocess.run(["git", "diff", "HEAD"], cwd=project, env=environ, capture_output=True)
    assert witness.evidence(), "the control failed: plain git did not run the helper"
    run_git_sync(["diff", "HEAD"], project, policy_for(project, tmp_path), environ=environ)
    assert witness.evidence() == []


def test_hooks_do_not_run_even_where_git_may_write(
    backend, own_tmp, project, witness, tmp_path
) -> None:
    """A later caller (side-git snapshots) writes its own git dir: hooks still run nothing."""
    committed_repo(project)
    hooks = project / ".git" / "hooks"
    shutil.copy(witness.program, hooks / "pre-commit")
    git(project, "config", "core.hooksPath", str(hooks))
    assert_attack_works_on_plain_git(witness, project, "commit", "-qam", "control")
    result = run_git_sync(
        [*IDENTITY, "commit", "-q", "--allow-empty", "-m", "snapshot"],
        project,
        policy_for(project, tmp_path),
        writable=[project / ".git"],
    )
    assert witness.evidence() == []
    assert result.ok, result.problem()
    assert "snapshot" in git(project, "log", "-1", "--format=%s").stdout


def test_inherited_git_variables_steer_nothing(
    backend, own_tmp, project, witness, tmp_path
) -> None:
    committed_repo(project)
    environ = {**os.environ, "GIT_EXTERNAL_DIFF": str(witness.program)}
    subprocess.run(["git", "diff", "HEAD"], cwd=project, env=environ, capture_output=True)
    assert witness.evidence(), "the control failed: GIT_EXTERNAL_DIFF did not run"
    run_git_sync(["diff", "HEAD"], project, policy_for(project, tmp_path), environ=environ)
    assert witness.evidence() == []
    # (Without --no-ext-diff the diff fails: diff.external is overridden with an empty value.)
    other = committed_repo(tmp_path / "other")
    (other / "b.txt").write_text("untracked\n")
    environ = {**os.environ, "GIT_DIR": str(other / ".git"), "GIT_WORK_TREE": str(other)}
    result = run_git_sync(STATUS, project, policy_for(project, tmp_path), environ=environ)
    assert result.stdout.splitlines()[1:] == [b" M a.txt"]  # the project's, not other's


def test_nothing_is_writable_unless_named(backend, own_tmp, project, tmp_path) -> None:
    committed_repo(project)
    result = run_git_sync(
        [*IDENTITY, "commit", "-qam", "x"], project, policy_for(project, tmp_path)
    )
    assert not result.ok
    assert git(project, "log", "--format=%s").stdout.split() == ["first"]


def test_a_git_that_hangs_is_killed_at_its_timeout(backend, own_tmp, project, tmp_path) -> None:
    """An include naming a FIFO nobody writes: git blocks reading its config."""
    committed_repo(project)
    fifo = tmp_path / "outside" / "fifo"
    fifo.parent.mkdir(exist_ok=True)
    os.mkfifo(fifo)
    git(project, "config", "include.path", str(fifo))
    with pytest.raises(GitUnavailable, match="took longer than 1s"):
        run_git_sync(STATUS, project, policy_for(project, tmp_path), timeout_s=1.0)


def test_the_summary_reads_the_branch_and_changes_or_says_there_is_no_repository(
    backend, own_tmp, project, tmp_path
) -> None:
    policy = policy_for(project, tmp_path)
    assert git_summary(project, policy) == "git: not a repository"
    committed_repo(project)
    (project / "new.txt").write_text("untracked\n")
    assert git_summary(project, policy) == "git: branch main; 2 changed file(s)"


def test_config_values_are_the_repositorys_not_mewcodes_overrides(
    backend, own_tmp, project, tmp_path
) -> None:
    committed_repo(project)
    policy = policy_for(project, tmp_path)
    assert git_config_values_sync("core.hooksPath", project, policy) == []
    git(project, "config", "core.hooksPath", ".githooks")
    assert git_config_values_sync("core.hooksPath", project, policy) == [".githooks"]


async def test_files_a_read_deny_rule_hides_are_left_out_of_status_and_diff(
    backend, own_tmp, project, tmp_path
) -> None:
    """git cannot read them either: it would report them changed and show their old content."""
    (project / ".env").write_text("TOKEN=hunter2-marker\n")
    committed_repo(project)
    policy = policy_for(project, tmp_path)
    policy = msgspec.structs.replace(policy, hidden=(*policy.hidden, str(project / ".env")))
    assert git_summary(project, policy) == "git: branch main; 1 changed file(s)"
    diff, problem = await working_tree_diff(project, policy)
    assert diff is not None, problem
    assert "+two" in diff and "hunter2-marker" not in diff
