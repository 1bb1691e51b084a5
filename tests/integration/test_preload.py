"""Warm start (docs/manual.md#warm-start-preload-server, issue 15): `mewcode` through a real preload server, against a cold run."""

from __future__ import annotations

import json
import os
import shutil
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from mewcode_tui.preload.protocol import PROTOCOL_VERSION, StatusReader, send_request
from tests.fakellm import last_tool_result_text
from tests.fakellm.server import FakeLLMServer
from tests.helpers.preload import COLD, ENTRY, IDLE_ENV, PreloadServer, run_mewcode

VOLATILE = ("session_id", "duration_ms", "duration_api_ms", "uuid")


@pytest.fixture
def preload(mewcode_home: Path):
    server = PreloadServer(mewcode_home).start()
    yield server
    server.stop()


def echo_tool_result(body: dict) -> dict:
    return {"text": "tool said: " + last_tool_result_text(body).strip()}


def read_task(fake_llm) -> None:
    fake_llm.script(
        [
            {"tool_calls": [{"id": "t1", "name": "Read", "input": {"file_path": "x.txt"}}]},
            echo_tool_result,
        ]
    )


def stable(stdout: str) -> list:
    """stream-json lines without the fields that differ between two runs of one task."""
    lines = [json.loads(line) for line in stdout.splitlines()]
    for line in lines:
        for key in VOLATILE:
            line.pop(key, None)
        if isinstance(line.get("message"), dict):
            line["message"].pop("id", None)  # the fake server's per-request id
    return lines


@pytest.mark.parametrize("wire", ["anthropic", "openai"])
def test_stream_json_is_the_same_cold_and_warm(wire, fake_llm, project, mewcode_home, preload):
    (project / "x.txt").write_text("the cat sat\n")
    env = {**fake_llm.env(wire), "MEWCODE_HOME": str(mewcode_home)}
    args = ["-p", "read x.txt", "--output-format", "stream-json"]
    outputs = []
    for command in (COLD, ENTRY):
        read_task(fake_llm)
        proc = run_mewcode(command, args, env, project)
        assert proc.returncode == 0, proc.stderr
        outputs.append((stable(proc.stdout), proc.stderr))
    assert outputs[0] == outputs[1]
    assert "the cat sat" in outputs[1][0][-1]["result"]
    assert preload.runs() == 1  # the second run really went through the server


@pytest.mark.parametrize(
    ("args", "env_extra", "expected_code"),
    [
        (["-p", "hi", "--output-format", "text"], {}, 0),
        (["-p", "hi", "--max-turns", "1", "--output-format", "json"], {"LOOP": "1"}, 1),
        (["-p", "   "], {}, 2),
        (["permissions", "check", "Bash", '{"command": "rm -rf /"}'], {}, None),
    ],
    ids=["text", "max-turns", "no-prompt", "permissions-check"],
)
def test_output_and_exit_code_are_the_same_cold_and_warm(
    args, env_extra, expected_code, fake_llm, project, mewcode_home, preload
):
    env = {**fake_llm.env("anthropic"), "MEWCODE_HOME": str(mewcode_home)}
    results = []
    for command in (COLD, ENTRY):
        if env_extra.get("LOOP"):
            fake_llm.script(
                [{"tool_calls": [{"id": "t", "name": "Read", "input": {"file_path": "a"}}]}],
                loop=True,
            )
        else:
            fake_llm.script([{"text": "hello there"}])
        proc = run_mewcode(command, args, env, project)
        out = proc.stdout
        if args[-1] == "json":
            out = json.dumps({k: v for k, v in json.loads(out).items() if k not in VOLATILE})
        results.append((proc.returncode, out, proc.stderr))
    assert results[0] == results[1]
    if expected_code is not None:
        assert results[1][0] == expected_code
    assert preload.runs() == 1


def bash_echo_task(server: FakeLLMServer, command: str) -> None:
    server.script(
        [
            {"tool_calls": [{"id": "b", "name": "Bash", "input": {"command": command}}]},
            echo_tool_result,
        ]
    )


def test_env_cwd_and_settings_of_each_run_are_its_own(fake_llm, tmp_path, mewcode_home, preload):
    seen = []
    for n in (1, 2):
        project = tmp_path / f"p{n}"
        project.mkdir()
        (mewcode_home / "settings.yaml").write_text(f"model: model-{n}\n")
        bash_echo_task(fake_llm, "echo tag=$PRELOAD_TAG; pwd")
        env = {**fake_llm.env("anthropic"), "MEWCODE_HOME": str(mewcode_home)}
        env["PRELOAD_TAG"] = f"run-{n}"
        args = ["-p", "go", "--output-format", "stream-json", "--allowedTools", "Bash"]
        proc = run_mewcode(ENTRY, args, env, project)
        assert proc.returncode == 0, proc.stderr
        lines = [json.loads(line) for line in proc.stdout.splitlines()]
        seen.append((lines[0]["cwd"], lines[0]["model"], lines[-1]["result"]))
    for n, (cwd, model, result) in enumerate(seen, start=1):
        assert cwd == str((tmp_path / f"p{n}").resolve())
        assert model == f"model-{n}"
        assert f"tag=run-{n}" in result and str(tmp_path / f"p{n}") in result
    assert preload.runs() == 2


def test_two_concurrent_runs_from_two_directories(tmp_path, mewcode_home, preload):
    servers = [FakeLLMServer([]).start() for _ in range(2)]
    procs = []
    try:
        for n, server in enumerate(servers):
            project = tmp_path / f"c{n}"
            project.mkdir()
            bash_echo_task(server, "sleep 1; echo tag=$PRELOAD_TAG; pwd")
            env = {**os.environ, **server.env("openai"), "MEWCODE_HOME": str(mewcode_home)}
            env[IDLE_ENV] = "0.5"
            env["PRELOAD_TAG"] = f"c{n}"
            procs.append(
                subprocess.Popen(
                    [*ENTRY, "-p", "go", "--allowedTools", "Bash"],
                    env=env,
                    cwd=project,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    text=True,
                )
            )
        outs = [p.communicate(timeout=90) for p in procs]
    finally:
        for server in servers:
            server.stop()
    for n, ((out, err), proc) in enumerate(zip(outs, procs, strict=True)):
        assert proc.returncode == 0, err
        assert f"tag=c{n}" in out and str(tmp_path / f"c{n}") in out
        assert f"c{1 - n}" not in out
    assert preload.runs() == 2


def test_socket_directory_is_private(preload, mewcode_home):
    run = mewcode_home / "run"
    assert stat.S_IMODE(run.stat().st_mode) == 0o700
    (sock,) = run.glob("preload-*.sock")
    assert stat.S_IMODE(sock.stat().st_mode) == 0o600


def test_a_loose_run_directory_is_refused_and_the_run_goes_cold(
    fake_llm, project, mewcode_home, preload
):
    (mewcode_home / "run").chmod(0o755)
    fake_llm.script([{"text": "cold answer"}])
    env = {**fake_llm.env("anthropic"), "MEWCODE_HOME": str(mewcode_home)}
    proc = run_mewcode(ENTRY, ["-p", "hi"], env, project)
    assert proc.returncode == 0 and proc.stdout == "cold answer\n" and proc.stderr == ""
    assert preload.runs() == 0
    assert "mode 755, expected 700" in (mewcode_home / "logs" / "mewcode.log").read_text()


@pytest.mark.skipif(os.getuid() != 0, reason="needs root to run a peer under another uid")
def test_a_peer_with_another_uid_is_refused(preload, mewcode_home, project, tmp_path):
    run = mewcode_home / "run"
    (sock_path,) = run.glob("preload-*.sock")
    # Loosen the socket's modes (and start from inside its directory) so the other uid
    # can reach it at all: only the server's own SO_PEERCRED check stands in the way.
    for path, mode in ((run, 0o711), (sock_path, 0o777)):
        path.chmod(mode)
    witness = tmp_path / "witness"
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child reports through its exit code
        code = 3
        try:
            os.chdir(run)
            os.setgid(65534)
            os.setuid(65534)
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.settimeout(20)
            sock.connect(sock_path.name)
            header = {
                "version": PROTOCOL_VERSION,
                "key": sock_path.stem.removeprefix("preload-"),
                "argv": ["-p", "hi"],
                "cwd": "/",
                "env": {"PATH": "/usr/bin", "WITNESS": str(witness)},
                "pid": os.getpid(),
                "process": {},
            }
            try:
                send_request(sock, header, (0, 1, 2))
                code = 0 if StatusReader(sock).read() is None else 1
            except ConnectionError:
                code = 0
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    for path, mode in ((run, 0o700), (sock_path, 0o600)):
        path.chmod(mode)
    assert os.waitstatus_to_exitcode(status) == 0
    assert "refused a peer with uid 65534" in preload.log_text()
    assert preload.runs() == 0


def test_a_source_change_is_served_by_new_code(fake_llm, tmp_path, mewcode_home):
    root = Path(__file__).resolve().parents[2]
    copy = tmp_path / "src"
    for package in ("agent_core", "mewcode_tui"):
        shutil.copytree(
            root / package, copy / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    env = {"PYTHONPATH": str(copy), "MEWCODE_HOME": str(mewcode_home)}
    server = PreloadServer(mewcode_home, env).start()
    try:
        project = tmp_path / "proj"
        project.mkdir()
        first = run_mewcode(ENTRY, ["-p", "  "], env, project)
        assert "no prompt" in first.stderr and server.runs() == 1
        cli = copy / "mewcode_tui" / "cli.py"
        cli.write_text(cli.read_text().replace("no prompt: pass it", "EDITED no prompt: pass it"))
        second = run_mewcode(ENTRY, ["-p", "  "], env, project)
        assert "EDITED no prompt" in second.stderr
        assert server.runs() == 1  # the old server was not asked
    finally:
        server.stop()
        subprocess.run([*COLD, "preload", "stop"], env={**os.environ, **env}, check=False)


def _modules_after(code: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", f"{code}; import sys; print('\\n'.join(sorted(sys.modules)))"],
        capture_output=True, text=True, check=True, cwd="/",
    )  # fmt: skip
    return set(out.stdout.split())


def test_client_imports_only_built_in_modules():
    """The warm start's client adds nothing to the interpreter's own start but C modules.

    socket, signal, json, pathlib, re, hashlib or typing would each cost the client
    milliseconds on every `mewcode` (enum, selectors, OpenSSL...).
    """
    added = _modules_after("import mewcode_tui.entry") - _modules_after("pass")
    ours = {m for m in added if m == "mewcode_tui" or m.startswith("mewcode_tui.")}
    assert ours == {
        "mewcode_tui",
        "mewcode_tui.entry",
        "mewcode_tui.preload",
        "mewcode_tui.preload.caller_process",
        "mewcode_tui.preload.client",
        "mewcode_tui.preload.confinement",
        "mewcode_tui.preload.dependency_state",
        "mewcode_tui.preload.key",
        "mewcode_tui.preload.location",
        "mewcode_tui.preload.protocol",
    }, ours
    assert added - ours <= {"__future__", "_socket", "_sha2", "_sha256", "resource"}, added - ours


def test_a_long_command_does_not_keep_the_next_server_from_starting(project, mewcode_home):
    """The server's key lock stays with the server: a UI left open for hours through it
    (the server idles out meanwhile) must not leave every later `mewcode` cold."""
    first = PreloadServer(mewcode_home).start()
    env = {**os.environ, "MEWCODE_HOME": str(mewcode_home), IDLE_ENV: "0.5"}
    # `-p` with no prompt reads stdin: it runs until we close the pipe.
    waiting = subprocess.Popen(
        [*ENTRY, "-p"], env=env, cwd=project, stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    second = None
    try:
        first.wait_for_runs_started(1)
        first.stop()
        second = PreloadServer(mewcode_home).start(timeout=60)
        assert second.proc is not None and second.proc.poll() is None
    finally:
        _, err = waiting.communicate(b"", timeout=60)
        if second is not None:
            second.stop()
    assert waiting.returncode == 2 and b"no prompt" in err  # the command itself went on fine


def test_preload_stop_stops_the_server_every_time(mewcode_home):
    """`mewcode preload stop` probes, then sends SIGTERM, which lands while the server forks
    a waiter for the probe: the exit its handler raised once fell into logging's fork hook,
    where Python ignored it, and the server lived on."""
    env = {**os.environ, "MEWCODE_HOME": str(mewcode_home)}
    for _ in range(3):
        server = PreloadServer(mewcode_home).start()
        assert server.proc is not None
        try:
            out = subprocess.run(
                [*COLD, "preload", "stop"], env=env, capture_output=True, text=True, timeout=60
            )
            assert out.stdout == "stopped 1 preload server(s)\n"
            server.proc.wait(timeout=15)
        finally:
            server.stop()
        assert not list((mewcode_home / "run").glob("preload-*.sock"))  # cleaned up after itself


def test_preload_status_tells_none_starting_and_serving(mewcode_home):
    import fcntl

    from mewcode_tui.preload.key import server_key

    env = {**os.environ, "MEWCODE_HOME": str(mewcode_home)}

    def status() -> str:
        return subprocess.run(
            [*COLD, "preload", "status"], env=env, capture_output=True, text=True, timeout=60
        ).stdout

    assert status() == "no preload server running (the next `mewcode` starts one)\n"
    # A server still loading holds its key's lock and answers on no socket yet.
    run = mewcode_home / "run"
    run.mkdir(mode=0o700, exist_ok=True)
    lock = os.open(run / f"preload-{server_key()}.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        assert status() == "a preload server for the current code is starting\n"
    finally:
        os.close(lock)
    server = PreloadServer(mewcode_home).start()
    try:
        assert server.proc is not None
        assert status() == f"pid {server.proc.pid}  key {server_key()}  current code\n"
    finally:
        server.stop()
