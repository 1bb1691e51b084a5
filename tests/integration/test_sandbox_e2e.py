"""The OS sandbox end to end through `mewcode -p` (docs/security.md#the-os-sandbox): witnesses show what really ran.

Every command here is one the permission engine lets through in bypass mode
(an interpreter writing a path it cannot see), so only the OS boundary stops it.
"""

from __future__ import annotations

import json
import os
import socket
import time
import uuid
from pathlib import Path

import pytest

from tests.helpers.headless import bash_calls, headless_in_process, headless_process, processes_with
from tests.helpers.witness_socket import WitnessSocketServer
from tests.integration.conftest import sandbox_available

BYPASS = ["--permission-mode", "bypassPermissions"]


def _py_write(path: Path | str) -> str:
    return f"python3 -c \"open('{path}', 'w').write('pwned')\""


def test_bypass_writes_land_only_in_the_project(
    backend, own_tmp, fake_llm, project, tmp_path, mewcode_home, monkeypatch, capsys
) -> None:
    """The project is writable; home, the rest of the disk and the shared temp dirs are
    not; $TMPDIR (and, under bubblewrap, /tmp) is the session's own scratch dir."""
    home = Path(os.environ["HOME"])
    outside = tmp_path / "outside"
    outside.mkdir()
    shared = Path("/tmp") / f"mewcode-shared-witness-{uuid.uuid4().hex}"
    fake_llm.script(
        bash_calls(
            _py_write(home / "home-witness"),
            _py_write(outside / "outside-witness"),
            _py_write(project / "project-witness"),
            _py_write(own_tmp / "tmp-witness"),
            _py_write(shared),
            'echo private > "$TMPDIR/private-witness"',
        )
    )
    code, result, err = headless_in_process(
        ["-p", "write files", "--permission-mode", "bypassPermissions"],
        fake_llm.env("anthropic"),
        project,
        monkeypatch,
        capsys,
    )
    assert code == 0, err
    assert not result.get("permission_denials"), result
    assert not (home / "home-witness").exists()
    assert not (outside / "outside-witness").exists()
    assert (project / "project-witness").read_text() == "pwned"
    assert not (own_tmp / "tmp-witness").exists()
    assert not shared.exists()
    private = list(mewcode_home.glob("projects/*/*/scratch/private-witness"))
    assert [p.read_text() for p in private] == ["private\n"], result


def test_credentials_are_unreadable_inside_the_sandbox(
    backend, own_tmp, fake_llm, project, mewcode_home, monkeypatch, capsys
) -> None:
    home = Path(os.environ["HOME"])
    (home / ".ssh").mkdir()
    (home / ".ssh" / "id_rsa").write_text("PRIVATE-KEY-WITNESS")
    (mewcode_home / "credentials.yaml").write_text("anthropic: CREDENTIAL-WITNESS\n")
    # The paths live inside the program, where the permission engine does not look.
    steal = (
        'python3 -c "import os\n'
        "out = open('stolen.txt', 'a')\n"
        "for p in [os.path.expanduser('~/.ssh/id_rsa'),"
        " os.environ['MEWCODE_HOME'] + '/credentials.yaml']:\n"
        "    try: out.write(open(p).read())\n"
        "    except OSError as e: out.write('refused ')\n\""
    )
    fake_llm.script(bash_calls(steal))
    code, _, err = headless_in_process(
        ["-p", "read secrets", "--permission-mode", "bypassPermissions"],
        fake_llm.env("anthropic"),
        project,
        monkeypatch,
        capsys,
    )
    assert code == 0, err
    stolen = (project / "stolen.txt").read_text()
    assert "WITNESS" not in stolen
    assert stolen.count("refused") == 2 or stolen == ""


def _listener() -> socket.socket:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    return server


@pytest.mark.parametrize("network", [True, False])
def test_network_setting_decides_whether_commands_connect(
    network, backend, own_tmp, fake_llm, project, mewcode_home, monkeypatch, capsys
) -> None:
    (mewcode_home / "settings.yaml").write_text(f"sandbox:\n  network: {str(network).lower()}\n")
    server = _listener()
    port = server.getsockname()[1]
    try:
        fake_llm.script(
            bash_calls(
                'python3 -c "import socket; '
                f"socket.create_connection(('127.0.0.1', {port}), 3); "
                "open('connected', 'w')\""
            )
        )
        code, _, err = headless_in_process(
            ["-p", "connect", "--permission-mode", "bypassPermissions"],
            fake_llm.env("anthropic"),
            project,
            monkeypatch,
            capsys,
        )
    finally:
        server.close()
    assert code == 0, err
    assert (project / "connected").exists() is network


def _wait_gone(marker: str, deadline_s: float = 15.0) -> list[int]:
    end = time.monotonic() + deadline_s
    while (left := processes_with(marker)) and time.monotonic() < end:
        time.sleep(0.05)
    return left


def test_no_process_outlives_mewcode(backend, own_tmp, fake_llm, project, tmp_path) -> None:
    marks = [f"{300 + i}.{uuid.uuid4().int % 10**9}" for i in range(3)]
    fake_llm.script(
        bash_calls(
            f"(sleep {marks[0]} &)",
            f"setsid sleep {marks[1]} & echo started",
            background=(f"sleep {marks[2]}",),
        )
    )
    env = {
        **fake_llm.env("anthropic"),
        "MEWCODE_SANDBOX": backend,
        "TMPDIR": str(own_tmp),
        "HOME": os.environ["HOME"],
        "MEWCODE_HOME": os.environ["MEWCODE_HOME"],
    }
    proc = headless_process(
        ["-p", "start things", "--permission-mode", "bypassPermissions"], env, project
    )
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert not result.get("permission_denials"), result
    for mark in marks:
        assert _wait_gone(mark) == [], f"sleep {mark} outlived mewcode"


def test_bypass_refuses_to_start_without_a_sandbox(
    fake_llm, project, mewcode_home, monkeypatch, capsys
) -> None:
    monkeypatch.setenv("MEWCODE_SANDBOX", "none")
    fake_llm.script(bash_calls("touch ran"))
    code, _, err = headless_in_process(
        ["-p", "go", "--permission-mode", "bypassPermissions"],
        fake_llm.env("anthropic"),
        project,
        monkeypatch,
        capsys,
    )
    assert code != 0
    assert "bypassPermissions needs an OS sandbox" in err and "allowUnsandboxed" in err
    assert not (project / "ran").exists()

    (mewcode_home / "settings.yaml").write_text("sandbox:\n  allowUnsandboxed: true\n")
    code, _, err = headless_in_process(
        ["-p", "go", "--permission-mode", "bypassPermissions"],
        fake_llm.env("anthropic"),
        project,
        monkeypatch,
        capsys,
    )
    assert code == 0, err
    assert (project / "ran").exists()
    assert "no OS sandbox" in err


def test_a_project_cannot_allow_unsandboxed_bypass(fake_llm, project, monkeypatch, capsys) -> None:
    monkeypatch.setenv("MEWCODE_SANDBOX", "none")
    (project / ".mewcode").mkdir()
    (project / ".mewcode" / "settings.yaml").write_text("sandbox:\n  allowUnsandboxed: true\n")
    fake_llm.script(bash_calls("touch ran"))
    code, _, err = headless_in_process(
        ["-p", "go", "--permission-mode", "bypassPermissions"],
        fake_llm.env("anthropic"),
        project,
        monkeypatch,
        capsys,
    )
    assert code != 0 and "bypassPermissions needs an OS sandbox" in err
    assert not (project / "ran").exists()


def test_sandbox_check_prints_what_is_enforced(project, monkeypatch, capsys) -> None:
    from mewcode_tui.cli import main

    code = main(["sandbox", "check", "--cwd", str(project)])
    out, _ = capsys.readouterr()
    assert code == 0
    assert "writes" in out.lower() and str(project) in out
    monkeypatch.setenv("MEWCODE_SANDBOX", "none")
    code = main(["sandbox", "check", "--cwd", str(project)])
    out, _ = capsys.readouterr()
    assert code == 1 and "no os sandbox" in out.lower()


def test_commands_do_not_see_mewcodes_own_api_key(
    fake_llm, project, mewcode_home, monkeypatch, capsys
) -> None:
    (mewcode_home / "settings.yaml").write_text("api_key_env: TEAM_LLM_KEY\n")
    monkeypatch.setenv("TEAM_LLM_KEY", "team-key-witness")
    monkeypatch.setenv("UNRELATED_VAR", "still-passed")
    fake_llm.script(bash_calls("env > env.txt"))
    code, _, err = headless_in_process(
        ["-p", "dump", "--permission-mode", "bypassPermissions"],
        fake_llm.env("anthropic"),
        project,
        monkeypatch,
        capsys,
    )
    assert code == 0, err
    dumped = (project / "env.txt").read_text()
    assert "ANTHROPIC_API_KEY" not in dumped and "test-key" not in dumped
    assert "team-key-witness" not in dumped
    assert "UNRELATED_VAR=still-passed" in dumped


def test_read_deny_rules_hide_files_from_programs_that_open_them(
    own_tmp, fake_llm, project, mewcode_home, monkeypatch, capsys
) -> None:
    if not sandbox_available("bubblewrap"):
        pytest.skip("only bubblewrap can hide a file inside the writable project")
    monkeypatch.setenv("MEWCODE_SANDBOX", "bubblewrap")
    (mewcode_home / "settings.yaml").write_text("permissions:\n  deny: ['Read(*.pem)']\n")
    (project / ".env").write_text("SECRET=env-witness\n")
    (project / "keys").mkdir()
    (project / "keys" / "server.pem").write_text("pem-witness\n")
    (project / "notes.txt").write_text("visible\n")
    reader = (
        'python3 -c "import sys\n'
        "for p in ['.env', 'keys/server.pem', 'notes.txt']:\n"
        "    try: print(open(p).read())\n"
        "    except OSError as e: print('refused', p)\" > seen.txt 2>&1"
    )
    fake_llm.script(bash_calls(reader))
    code, _, err = headless_in_process(
        ["-p", "read", "--permission-mode", "bypassPermissions", "--disallowedTools", "Read(.env)"],
        fake_llm.env("anthropic"),
        project,
        monkeypatch,
        capsys,
    )
    assert code == 0, err
    seen = (project / "seen.txt").read_text()
    assert "visible" in seen and "refused .env" in seen
    assert "env-witness" not in seen and "pem-witness" not in seen
    assert (project / ".env").read_text() == "SECRET=env-witness\n"


def test_allowed_unix_sockets_refuse_bypass_under_landlock_and_open_every_socket(
    own_tmp, fake_llm, project, mewcode_home, tmp_path, monkeypatch, capsys
) -> None:
    """Landlock's filter cannot let one socket path through: with sandbox.allowUnixSockets
    set it is off, so bypass mode is refused (unless allowUnsandboxed), and a command you
    allow reaches a Unix socket, listed or not."""
    if not sandbox_available("landlock"):
        pytest.skip("landlock unavailable here")
    monkeypatch.setenv("MEWCODE_SANDBOX", "landlock")
    outside = tmp_path / "outside"
    outside.mkdir()
    listed = outside / "listed.sock"
    settings = f"sandbox:\n  allowUnixSockets: [{listed}]\n"
    (mewcode_home / "settings.yaml").write_text(settings)
    server = WitnessSocketServer(outside / "unlisted.sock", outside / "connected").start()
    connect = (
        f"python3 -c \"import socket; socket.socket(socket.AF_UNIX).connect('{server.path}')\""
    )

    def connect_with(*options: str) -> tuple[int, dict, str]:
        fake_llm.script(bash_calls(connect))
        env = fake_llm.env("anthropic")
        return headless_in_process(["-p", "go", *options], env, project, monkeypatch, capsys)

    try:
        code, _, err = connect_with(*BYPASS)
        assert code != 0 and "sandbox.allowUnixSockets" in err, err
        assert "bypassPermissions needs Unix sockets shut" in err
        # Default mode: headless cannot approve, so the user's allow rule lets it run.
        code, result, err = connect_with("--allowedTools", "Bash(python3:*)")
        assert code == 0 and not result.get("permission_denials"), (err, result)
        (mewcode_home / "settings.yaml").write_text(settings + "  allowUnsandboxed: true\n")
        code, result, err = connect_with(*BYPASS)
        assert code == 0 and not result.get("permission_denials"), (err, result)
    finally:
        peers = server.stop()
    assert len(peers) == 2, "the allowed command and the bypass run each connect once"
    assert server.witness.exists()


def test_under_bubblewrap_only_a_listed_unix_socket_is_reachable(
    own_tmp, fake_llm, project, mewcode_home, tmp_path, monkeypatch, capsys
) -> None:
    """The private /tmp hides every socket in it; sandbox.allowUnixSockets binds one back."""
    if not sandbox_available("bubblewrap"):
        pytest.skip("bubblewrap unavailable here")
    monkeypatch.setenv("MEWCODE_SANDBOX", "bubblewrap")
    outside = tmp_path / "outside"
    outside.mkdir()
    listed = WitnessSocketServer(outside / "listed.sock", outside / "listed-hit").start()
    unlisted = WitnessSocketServer(outside / "unlisted.sock", outside / "unlisted-hit").start()
    settings = f"sandbox:\n  allowUnixSockets: [{listed.path}]\n"
    (mewcode_home / "settings.yaml").write_text(settings)
    connect = (
        'python3 -c "import socket\n'
        f"for p in ['{listed.path}', '{unlisted.path}']:\n"
        "    try: socket.socket(socket.AF_UNIX).connect(p)\n"
        '    except OSError: pass"'
    )
    fake_llm.script(bash_calls(connect))
    try:
        code, result, err = headless_in_process(
            ["-p", "go", *BYPASS], fake_llm.env("anthropic"), project, monkeypatch, capsys
        )
        assert code == 0 and not result.get("permission_denials"), (err, result)
    finally:
        listed_peers, unlisted_peers = listed.stop(), unlisted.stop()
    assert len(listed_peers) == 1 and unlisted_peers == []


def test_sandbox_check_says_an_allowlist_leaves_unix_sockets_open(
    project, mewcode_home, monkeypatch, capsys
) -> None:
    if not sandbox_available("landlock"):
        pytest.skip("landlock unavailable here")
    from mewcode_tui.cli import main

    monkeypatch.setenv("MEWCODE_SANDBOX", "landlock")
    assert main(["sandbox", "check", "--cwd", str(project)]) == 0
    shut, _ = capsys.readouterr()
    assert "Unix sockets: refused (no socket(AF_UNIX)); socketpair allowed" in shut
    (mewcode_home / "settings.yaml").write_text("sandbox:\n  allowUnixSockets: [~/pg.sock]\n")
    assert main(["sandbox", "check", "--cwd", str(project)]) == 0
    opened, _ = capsys.readouterr()
    not_enforced = opened.split("Not enforced:", 1)[1]
    assert "Unix sockets: not filtered, because sandbox.allowUnixSockets is set" in not_enforced
    assert "socket(AF_UNIX)); socketpair allowed" not in opened
    home = os.path.realpath(os.environ["HOME"])
    assert f"socket:    {home}/pg.sock (sandbox.allowUnixSockets)" in opened
