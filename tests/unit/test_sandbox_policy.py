"""SandboxPolicy and the bubblewrap mount plan that enforces it: pure data, no processes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent_core.sandbox.bwrap import bwrap_argv
from agent_core.sandbox.bwrap_plan import hidden_mounts, mount_layers
from agent_core.sandbox.policy import SandboxPolicy, sandbox_policy


def everything_exists(path: str):
    return "file" if path.endswith((".yaml", ".json", "id_rsa")) else "dir"


def test_session_policy_paths(tmp_path: Path) -> None:
    project, scratch, temp = tmp_path / "p", tmp_path / "s", tmp_path / "t"
    home, mew = tmp_path / "h", tmp_path / "h" / ".mewcode"
    for d in (project, scratch, temp, home, mew, tmp_path / "extra"):
        d.mkdir(exist_ok=True)
    policy = sandbox_policy(project, [Path("../extra")], scratch, home, mew, False, temp)
    assert policy.writable == (str(project), str(tmp_path / "extra"), str(scratch), str(temp))
    assert policy.temp_dir == str(temp)
    protected = {entry.path for entry in policy.protected}
    for root in (project, tmp_path / "extra"):
        for rel in (".git/hooks", ".git/config", ".mewcode", ".claude", ".mcp.json", ".vscode"):
            assert f"{root}/{rel}" in protected
    assert f"{home}/.ssh" in policy.hidden
    assert str(mew) in policy.hidden  # credentials, settings, logs, memory, the preload server
    assert f"{mew}/skills" in policy.read_only  # let back in: skills' scripts may be run
    assert policy.network is False


@pytest.mark.parametrize(
    "rel",
    [
        ".git-credentials",
        ".netrc",
        ".config/gh",
        ".claude/.credentials.json",
        ".docker",
        ".npmrc",
        ".pypirc",
        ".kube",
        ".config/gcloud",
    ],
)
def test_credentials_in_home_are_hidden(tmp_path: Path, rel: str) -> None:
    policy = sandbox_policy(tmp_path / "p", [], tmp_path / "s", tmp_path / "h", tmp_path / "m")
    assert str(tmp_path / "h" / rel) in policy.hidden


def test_hidden_paths_setting_adds_to_the_hidden_list(tmp_path: Path) -> None:
    home = tmp_path / "h"
    policy = sandbox_policy(
        tmp_path / "p", [], tmp_path / "s", home, tmp_path / "m",
        hidden_paths=["~/.secrets", "/srv/keys"],
    )  # fmt: skip
    assert str(home / ".secrets") in policy.hidden and "/srv/keys" in policy.hidden


def test_allowed_unix_sockets_are_resolved_under_the_sessions_home(tmp_path: Path) -> None:
    home, real = tmp_path / "home", tmp_path / "real"
    for d in (home, real):
        d.mkdir()
    (home / "run").symlink_to(real)
    sockets = ["~/run/agent.sock", "/run/postgresql/.s.PGSQL.5432", "~/run/agent.sock"]
    policy = sandbox_policy(
        tmp_path / "p", [], tmp_path / "s", home, home / ".mc", True, tmp_path, unix_sockets=sockets
    )
    assert policy.unix_sockets == (f"{real}/agent.sock", "/run/postgresql/.s.PGSQL.5432")
    assert sandbox_policy(tmp_path / "p", [], tmp_path / "s", home, home).unix_sockets == ()


def test_home_inside_a_writable_root_stays_read_only_and_keeps_its_rc_files(tmp_path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    policy = sandbox_policy(home / "p", [], home / "s", home, home / ".mc")
    assert str(home) in policy.read_only
    policy = sandbox_policy(home, [], tmp_path / "s", home, home / ".mc")  # the project is ~
    protected = {entry.path for entry in policy.protected}
    assert str(home / ".bashrc") in protected and str(home / ".gitconfig") in protected


def test_the_shared_temp_dir_is_not_writable_the_sessions_own_is(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    policy = sandbox_policy(tmp_path / "p", [], tmp_path / "s", tmp_path / "h", tmp_path / "m")
    assert str(tmp_path) not in policy.writable and "/tmp" not in policy.writable
    assert policy.temp_dir == str(tmp_path / "s")


def effective_writable(layers: list[tuple[str, bool]], path: str) -> bool:
    """What bwrap makes of the layers: the last mount holding the path wins; / is read-only."""
    writable = False
    for mount, mode in layers:
        if path == mount or path.startswith(mount + "/"):
            writable = mode
    return writable


def policy_says_writable(policy: SandboxPolicy, path: str) -> bool:
    """The policy's own rule: the deepest entry holding the path decides; read-only on a tie."""
    holders = [(p, True) for p in policy.writable] + [(p, False) for p in policy.read_only]
    holders = [(p, w) for p, w in holders if path == p or path.startswith(p + "/")]
    if not holders:
        return False
    deepest = max(len(p) for p, _ in holders)
    return all(w for p, w in holders if len(p) == deepest)


@pytest.mark.parametrize(
    ("writable", "read_only", "expected"),
    [
        (("/p",), ("/p/.git/hooks",), [("/p", True), ("/p/.git/hooks", False)]),
        # MEWCODE_HOME read-only inside a writable /tmp, its scratch writable again.
        (
            ("/tmp", "/tmp/m/scratch"),
            ("/tmp/m",),
            [("/tmp", True), ("/tmp/m", False), ("/tmp/m/scratch", True)],
        ),
        # Read-only under nothing writable changes nothing: no mount.
        (("/p",), ("/etc/x",), [("/p", True)]),
        # Writable under writable: no second mount.
        (("/p", "/p/sub"), (), [("/p", True)]),
        # Listed both ways: read-only wins.
        (("/p", "/p/a"), ("/p/a",), [("/p", True), ("/p/a", False)]),
    ],
)
def test_mount_layers_go_shallow_to_deep(writable, read_only, expected) -> None:
    policy = SandboxPolicy(writable=writable, read_only=read_only)
    assert mount_layers(policy, everything_exists) == expected


def test_mount_layers_skip_missing_and_hidden_paths() -> None:
    policy = SandboxPolicy(
        writable=("/p", "/gone", "/h/.ssh/inner"), read_only=("/p/.mcp.json",), hidden=("/h/.ssh",)
    )

    def kind(path: str):
        return None if path in ("/gone", "/p/.mcp.json") else "dir"

    assert mount_layers(policy, kind) == [("/p", True)]


_SEGMENTS = st.sampled_from(["a", "b", "c"])
_PATHS = st.lists(_SEGMENTS, min_size=1, max_size=4).map(lambda parts: "/" + "/".join(parts))


@given(st.lists(_PATHS, max_size=5), st.lists(_PATHS, max_size=5), _PATHS)
def test_bwrap_layers_agree_with_the_policy_rule(writable, read_only, probe) -> None:
    policy = SandboxPolicy(writable=tuple(writable), read_only=tuple(read_only))
    layers = mount_layers(policy, everything_exists)
    assert effective_writable(layers, probe) == policy_says_writable(policy, probe)
    depths = [p.count("/") for p, _ in layers]
    assert depths == sorted(depths)


def test_hidden_mounts_keep_the_outermost_existing_path() -> None:
    policy = SandboxPolicy(
        writable=("/p",),
        hidden=("/h/.ssh/id_rsa", "/h/.ssh", "/m/credentials.yaml", "/h/.aws"),
    )

    def kind(path: str):
        return None if path == "/h/.aws" else everything_exists(path)

    assert hidden_mounts(policy, kind) == [("/h/.ssh", "dir"), ("/m/credentials.yaml", "file")]


def test_bwrap_argv_options_mounts_and_command() -> None:
    policy = SandboxPolicy(
        writable=("/p",),
        read_only=("/p/.git/hooks",),
        hidden=("/h/.ssh", "/m/credentials.yaml"),
        network=False,
    )
    argv = bwrap_argv(
        policy, Path("/p/sub"), ["/bin/bash", "-c", "echo hi"], kind=everything_exists
    )
    head, command = argv[: argv.index("--")], argv[argv.index("--") + 1 :]
    assert command == ["/bin/bash", "-c", "echo hi"]
    for option in ("--die-with-parent", "--unshare-pid", "--new-session", "--unshare-net"):
        assert option in head
    assert head[head.index("--cap-drop") + 1] == "ALL"
    text = " ".join(head)
    assert text.index("--ro-bind / /") < text.index("--bind /p /p")
    assert text.index("--bind /p /p") < text.index("--ro-bind /p/.git/hooks /p/.git/hooks")
    assert text.index("--ro-bind /p/.git/hooks") < text.index(
        "--tmpfs /h/.ssh --remount-ro /h/.ssh"
    )
    assert "--ro-bind /dev/null /m/credentials.yaml" in text
    assert "--dev /dev" in text and "--proc /proc" in text
    assert text.endswith("--chdir /p/sub")


def test_network_on_keeps_the_host_network() -> None:
    argv = bwrap_argv(SandboxPolicy(writable=("/p",)), Path("/p"), ["true"], kind=everything_exists)
    assert "--unshare-net" not in argv


def test_paths_with_odd_characters_stay_single_arguments() -> None:
    odd = '/p/it\'s a "dir"\\ with\nnewline'
    policy = SandboxPolicy(writable=(odd,))
    argv = bwrap_argv(policy, Path(odd), ["true"], kind=everything_exists)
    assert argv[argv.index("--bind") + 1 : argv.index("--bind") + 3] == [odd, odd]
    assert os.fspath(Path(odd)) in argv


def test_other_sessions_cost_one_mount_however_many_projects(paths, tmp_path) -> None:
    """Hiding each project on its own cost ~0.3 ms of bwrap per project on every call."""
    from agent_core.config.settings import Settings
    from agent_core.sandbox.bwrap import bwrap_argv
    from agent_core.sandbox.session import session_policy

    session = paths.sessions_dir / "S1"

    def tmpfs_mounts() -> int:
        policy = session_policy(paths, Settings(), session, home=tmp_path / "home")
        return bwrap_argv(policy, paths.project, ["true"]).count("--tmpfs")

    before = tmpfs_mounts()
    for i in range(40):
        (paths.home / "projects" / f"other-{i}").mkdir(parents=True)
    assert tmpfs_mounts() == before
    argv = bwrap_argv(
        session_policy(paths, Settings(), session, home=tmp_path / "home"), paths.project, []
    )
    own = os.path.realpath(session)
    scratch = os.path.join(own, "scratch")
    text = " ".join(argv)
    assert text.index(f"--ro-bind {own} {own}") < text.index(f"--bind {scratch} {scratch}")
    assert not any("/projects/other-" in arg for arg in argv)
