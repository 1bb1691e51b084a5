"""Red team of the warm-start preload server (issue 15): a run through it must be the caller's own.

Each test is an attack: most worked when they were written, and each asserts what a
cold run does. All of them hold now; they stay as regression guards. A new attack
that works goes in as ``xfail(strict=True, raises=AssertionError)`` until fixed.
"""

from __future__ import annotations

import json
import os
import re
import resource
import select
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from mewcode_tui.preload import client
from mewcode_tui.preload.protocol import send_request
from tests.fakellm import last_tool_result_text
from tests.fakellm.server import FakeLLMServer
from tests.helpers.preload import COLD, ENTRY, IDLE_ENV, PreloadServer

SERVER_TZ = "AAA+12"  # UTC-12 for the shared server; callers use UTC+14: always another date
CALLER_TZ = "BBB-14"


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PreloadServer]:
    """One server for the tests that only need *a* server (started with its own TZ)."""
    home = tmp_path_factory.mktemp("redteam_home")
    # A UTF-8 locale (UTF-8 mode off unless the runner's PYTHON* settings say so: those are
    # part of the server key, so the clients here must share them).
    env = {"TZ": SERVER_TZ, "LC_ALL": "C.UTF-8", IDLE_ENV: "10"}
    server = PreloadServer(home, env).start()
    yield server
    server.stop()


def run(
    command: list[str],
    args: list[str],
    env: dict[str, str],
    cwd: Path,
    preexec_fn: Callable[[], None] | None = None,
) -> subprocess.CompletedProcess[bytes]:
    """``command ARGS`` with stdout and stderr as bytes (the entry's own server idles out soon)."""
    return subprocess.run(
        [*command, *args],
        env={**os.environ, IDLE_ENV: "0.5", **env},
        cwd=cwd,
        capture_output=True,
        timeout=90,
        stdin=subprocess.DEVNULL,
        preexec_fn=preexec_fn,
    )


def cold_and_warm(
    server: PreloadServer, fake: FakeLLMServer, steps: list, args: list[str], cwd: Path, **kw
) -> tuple[subprocess.CompletedProcess[bytes], subprocess.CompletedProcess[bytes]]:
    """The same command in-process and through ``server`` (asserted to have run it)."""
    env = {**fake.env("anthropic"), "MEWCODE_HOME": str(server.home), **kw.pop("env", {})}
    results = []
    for command in (COLD, ENTRY):
        fake.script(steps)
        runs = server.runs()
        results.append(run(command, args, env, cwd, **kw))
    # The waiter logs the run just after the client has its exit code.
    wait_for(lambda: server.runs() == runs + 1, timeout=10)
    return results[0], results[1]


def echo_tool_result(body: dict) -> dict:
    return {"text": "tool said: " + (last_tool_result_text(body) or "").strip()}


def bash_steps(command: str) -> list:
    """The model runs ``command`` with Bash, then answers with what the tool said."""
    call = {"tool_calls": [{"id": "b", "name": "Bash", "input": {"command": command}}]}
    return [call, echo_tool_result]


def server_pid(server: PreloadServer) -> int:
    assert server.proc is not None
    return server.proc.pid


def wait_for(predicate: Callable[[], object], timeout: float = 30) -> None:
    assert eventually(predicate, timeout), "condition not reached in time"


def eventually(predicate: Callable[[], object], timeout: float) -> bool:
    """Whether ``predicate`` came true within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def pids_of(pattern: str) -> list[int]:
    out = subprocess.run(["pgrep", "-f", pattern], capture_output=True, text=True)
    return [int(p) for p in out.stdout.split()]


def servers_of(home: Path) -> list[int]:
    """Preload server processes for ``home`` (a temp dir of this test: only ours)."""
    return pids_of(f"mewcode_tui.preload.server --home {re.escape(str(home))} ")


def stop_servers_of(home: Path) -> None:
    for pid in servers_of(home):
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    wait_for(lambda: not servers_of(home))


# --- 1. Leakage between runs: what the caller's process is, not only its env ----------


def _restricted_caller() -> None:
    os.umask(0o077)
    os.nice(5)
    resource.setrlimit(resource.RLIMIT_NOFILE, (200, 200))


def test_the_callers_umask_nice_and_limits_apply(shared, fake_llm, project):
    cold, warm = cold_and_warm(
        shared, fake_llm, bash_steps("umask; nice; ulimit -n"),
        ["-p", "go", "--allowedTools", "Bash"], project, preexec_fn=_restricted_caller,
    )  # fmt: skip
    expected = f"0077\n{os.nice(0) + 5}\n200".encode()
    assert cold.returncode == 0 and expected in cold.stdout, cold.stderr
    assert warm.stdout == cold.stdout


def _prompt_date(fake: FakeLLMServer) -> str:
    found = re.search(r"date: (\d{4}-\d\d-\d\d)", json.dumps(fake.requests[-1].body))
    assert found, "no date in the system prompt"
    return found.group(1)


def test_the_callers_time_zone_dates_the_prompt(shared, fake_llm, project):
    dates = []
    env = {**fake_llm.env("anthropic"), "MEWCODE_HOME": str(shared.home), "TZ": CALLER_TZ}
    for command in (COLD, ENTRY):
        fake_llm.script([{"text": "ok"}])
        assert run(command, ["-p", "hi"], env, project).returncode == 0
        dates.append(_prompt_date(fake_llm))
    assert dates[1] == dates[0]


def test_one_runs_pythonpath_does_not_reach_later_runs(fake_llm, tmp_path, mewcode_home):
    other_src = tmp_path / "project_a_src"
    witness = tmp_path / "imported_from_project_a"
    # Modules a run imports after the fork (Bash parsing, pathspec's optional backends).
    for name in ("bashlex", "re2", "hyperscan"):
        (other_src / name).mkdir(parents=True)
        (other_src / name / "__init__.py").write_text(
            f"open({str(witness)!r}, 'a').write({name!r} + '\\n')\nraise ImportError('shadow')\n"
        )
    pythonpath = os.pathsep.join(filter(None, [str(other_src), os.environ.get("PYTHONPATH")]))
    server = PreloadServer(mewcode_home, {"PYTHONPATH": pythonpath}).start()
    witness.unlink(missing_ok=True)  # the server itself may import from its own PYTHONPATH
    try:
        project_b = tmp_path / "project_b"
        project_b.mkdir()
        fake_llm.script(bash_steps("echo hi | cat"))
        env = {**fake_llm.env("anthropic"), "MEWCODE_HOME": str(mewcode_home)}
        proc = run(ENTRY, ["-p", "go", "--allowedTools", "Bash"], env, project_b)
        # PYTHON* settings are part of the key: that server is not asked at all.
        assert server.runs() == 0
        stop_servers_of(mewcode_home)  # the one this run started for its own settings
    finally:
        server.stop()
    assert not witness.exists(), f"imported from project A: {witness.read_text()}"
    assert proc.returncode == 0 and proc.stdout == b"tool said: hi\n", proc.stderr


def test_sdk_debug_logging_asked_for_by_the_caller(fake_llm, project, tmp_path):
    """ANTHROPIC_LOG sets the SDK's level at import: such a caller has a server of its own
    (it is in the key), whose children still print the SDK's log on the caller's stderr."""
    env = {"ANTHROPIC_LOG": "debug", "LC_ALL": "C.UTF-8"}
    server = PreloadServer(tmp_path / "home", env).start()
    try:
        cold, warm = cold_and_warm(
            server, fake_llm, [{"text": "ok"}], ["-p", "hi"], project, env=env
        )
    finally:
        server.stop()
    assert b"DEBUG" in cold.stderr
    assert b"DEBUG" in warm.stderr


# --- 7. Output: byte-identical stdout in other locales -------------------------------


@pytest.mark.parametrize(
    "env",
    [{"LC_ALL": "C"}, {"PYTHONIOENCODING": "ascii:backslashreplace"}, {"LANG": "C"}],
    ids=["LC_ALL=C", "PYTHONIOENCODING", "LANG=C"],
)
def test_non_utf8_locales_print_the_same_bytes(env, fake_llm, project, tmp_path):
    """LC_ALL=C puts a cold start in UTF-8 mode (PEP 540) and PYTHONIOENCODING sets its
    stdio: a warm run once printed other bytes, or died on a UnicodeEncodeError. Both
    are part of the server key (the interpreter's flags, the PYTHON* variables), so the
    run goes to a server started with them, which builds the caller's stdio alike."""
    server = PreloadServer(tmp_path / "home", env).start()
    try:
        cold, warm = cold_and_warm(
            server, fake_llm, [{"text": "caf\u00e9 \u2713"}], ["-p", "hi"], project, env=env
        )
    finally:
        server.stop()
    assert cold.returncode == 0, cold.stderr
    assert (warm.returncode, warm.stdout, warm.stderr) == (0, cold.stdout, cold.stderr)


def test_a_reader_that_stops_early_gets_the_same_exit(shared, fake_llm, project):
    env = {**os.environ, **fake_llm.env("anthropic"), "MEWCODE_HOME": str(shared.home)}
    env[IDLE_ENV] = "0.5"  # a server the entry starts (after an edit of the code) ends soon
    results = []
    for command in (COLD, ENTRY):
        fake_llm.script([{"text": "line\n" * 30_000}])  # far more than a pipe holds
        pipeline = f"{' '.join(command)} -p hi | head -c 10 >/dev/null; echo ${{PIPESTATUS[0]}}"
        proc = subprocess.run(
            ["bash", "-c", pipeline], env=env, cwd=project, capture_output=True, timeout=90
        )
        results.append((proc.stdout, proc.stderr))
    assert results[0] == (b"0\n", b"")
    assert results[1] == results[0]


# --- 5. Signals and lifetime ---------------------------------------------------------


def _start_sleeping_run(fake: FakeLLMServer, home: Path, cwd: Path, sleep: str):
    """A warm ``-p`` run whose Bash tool is running ``sleep SLEEP`` (a unique duration)."""
    fake.script([*bash_steps(f"sleep {sleep}")[:1], {"text": "done"}])
    proc = subprocess.Popen(
        [*ENTRY, "-p", "go", "--allowedTools", "Bash"],
        env={**os.environ, **fake.env("anthropic"), "MEWCODE_HOME": str(home), IDLE_ENV: "0.5"},
        cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    wait_for(lambda: pids_of(f"^sleep {re.escape(sleep)}$"))
    return proc


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signalled_client_exits_as_a_cold_run_does(sig, code, shared, fake_llm, project):
    sleep = f"30.{sig:03d}17"
    proc = _start_sleeping_run(fake_llm, shared.home, project, sleep)
    proc.send_signal(sig)
    proc.communicate(timeout=30)
    assert proc.returncode == code  # as measured cold: the app ends its tools and exits
    wait_for(lambda: not pids_of(f"^sleep {re.escape(sleep)}$"), timeout=20)


def test_a_killed_client_takes_its_command_and_tools_with_it(shared, fake_llm, project):
    sleep = "30.90917"
    proc = _start_sleeping_run(fake_llm, shared.home, project, sleep)
    proc.kill()
    proc.communicate(timeout=30)
    wait_for(lambda: not pids_of(f"^sleep {re.escape(sleep)}$"), timeout=20)


def test_a_stopped_client_stops_its_command(shared, fake_llm, project):
    """SIGSTOP cannot be caught and forwarded: the server stops the child with its client."""
    started = shared.log_text().count("started pid")
    proc = _start_sleeping_run(fake_llm, shared.home, project, "1.01917")
    assert shared.log_text().count("started pid") == started + 1  # warm, not a cold run
    requests = len(fake_llm.requests)
    proc.send_signal(signal.SIGSTOP)
    try:
        # The tool's sleep (its own session) ends either way; a running command asks again.
        wait_for(lambda: not pids_of("^sleep 1[.]01917$"), timeout=10)
        asked_while_stopped = eventually(lambda: len(fake_llm.requests) > requests, 2)
    finally:
        proc.send_signal(signal.SIGCONT)
        out, _ = proc.communicate(timeout=30)
    assert not asked_while_stopped
    # Continued, it finishes as if never stopped (it is not stopped again).
    assert proc.returncode == 0 and len(fake_llm.requests) > requests, out


@pytest.fixture
def client_request(monkeypatch: pytest.MonkeyPatch) -> Callable[[Path, Path, list[str]], dict]:
    """The request header the real client sends for ``argv`` from ``cwd`` to ``home``'s server."""

    def build(home: Path, cwd: Path, argv: list[str]) -> dict:
        captured: dict = {}

        def capture(_sock: object, header: dict, _fds: object) -> None:
            captured.update(header)
            raise OSError("captured")

        with monkeypatch.context() as patch:
            patch.setattr(client, "send_request", capture)
            patch.setenv("MEWCODE_HOME", str(home))
            patch.chdir(cwd)
            with pytest.raises(client.Fallback):
                client.connect(argv, client.SignalRelay())
        return captured

    return build


def _socket_of(server: PreloadServer) -> str:
    """The socket ``server`` itself listens on (other runs may have started others there)."""
    from mewcode_tui.preload.command import server_pid as listening_pid

    paths = [
        p
        for p in (server.home / "run").glob("preload-*.sock")
        if listening_pid(p) == server_pid(server)
    ]
    assert len(paths) == 1, paths
    return str(paths[0])


def test_a_client_gone_before_the_pid_line_leaves_nothing_running(shared, project, client_request):
    stdin_r, stdin_w = os.pipe()  # `-p` without a prompt reads stdin: runs until its EOF
    out_r, out_w = os.pipe()
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect(_socket_of(shared))
        send_request(conn, client_request(shared.home, project, ["-p"]), (stdin_r, out_w, out_w))
    finally:
        conn.close()  # the client is gone before the server answers
        os.close(stdin_r)
        os.close(out_w)
    try:
        # Every holder of the stdout pipe gone (the child hung up) = end of file.
        ended = select.select([out_r], [], [], 6)[0] and os.read(out_r, 4096) == b""
    finally:
        os.close(stdin_w)  # ends the orphan, if any, so the test leaves nothing behind
        os.close(out_r)
    assert ended, "the command still runs 6 s after its client went away"


def test_a_slow_server_never_runs_a_command_twice(fake_llm, tmp_path, mewcode_home):
    server = PreloadServer(mewcode_home).start()
    witness, gave_up = tmp_path / "ran", tmp_path / "gave-up"
    # The command waits for the test: the client is alive, running it itself, when the
    # server wakes up and finds the client's queued request.
    command = f"echo x >> {witness}; while [ ! -e {gave_up} ]; do sleep 0.05; done"
    step = {"tool_calls": [{"id": "b", "name": "Bash", "input": {"command": command}}]}
    fake_llm.script([step, {"text": "one"}, step, {"text": "two"}])
    # The real entry, with the handshake timeout cut from 10 s to 1 s for the test.
    quick = [sys.executable, "-c", "import sys, mewcode_tui.preload.client as c; "
             "c.HANDSHAKE_TIMEOUT = 1; from mewcode_tui.entry import main; sys.exit(main())"]  # fmt: skip
    out = tmp_path / "out"
    try:
        os.kill(server_pid(server), signal.SIGSTOP)
        with out.open("wb") as sink:  # not a pipe: the queued request holds its write end
            proc = subprocess.Popen(
                [*quick, "-p", "go", "--permission-mode", "bypassPermissions"],
                env={**os.environ, **fake_llm.env("anthropic"), IDLE_ENV: "0.5"},
                cwd=tmp_path, stdin=subprocess.DEVNULL, stdout=sink, stderr=sink,
            )  # fmt: skip
        assert eventually(witness.exists, 60), out.read_text()  # it gave up and runs it itself
        os.kill(server_pid(server), signal.SIGCONT)
        # A fixed server finds the client gone from the handshake; a broken one starts the
        # command a second time.
        handled = ("started pid", "the client left before")
        assert eventually(lambda: any(line in server.log_text() for line in handled), 20), (
            server.log_text()
        )
        if "started pid" in server.log_text():
            eventually(lambda: witness.read_text().count("x") > 1, 20)
        gave_up.touch()
        assert proc.wait(timeout=60) == 0, out.read_text()
    finally:
        gave_up.touch()
        os.kill(server_pid(server), signal.SIGCONT)
        server.stop()
    assert witness.read_text() == "x\n", "the command ran a second time"


# --- 2. The protocol ------------------------------------------------------------------


def test_silent_and_malformed_peers_do_not_stop_the_server(shared, project, client_request):
    path = _socket_of(shared)
    fds_before = len(os.listdir(f"/proc/{server_pid(shared)}/fd"))
    silent = []
    for _ in range(70):  # more than the listen backlog, none of them ever sending
        peer = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        peer.connect(path)
        silent.append(peer)
    good = client_request(shared.home, project, ["-p", "   "])
    wrong: list[tuple[Any, tuple[int, ...]]] = [
        ([1, 2], (0, 1, 2)),  # not a dict
        ({**good, "env": {"A": 1}}, (0, 1, 2)),  # a field of the wrong type
        ({**good, "key": "other"}, (0, 1, 2)),  # a key for other code
        (good, (0, 1, 2) * 3 + (0,)),  # 10 descriptors
        (good, (0,)),  # 1 descriptor
    ]
    for header, fds in wrong:
        peer = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        peer.connect(path)  # blocking: a connect with a timeout gets EAGAIN on a full backlog
        peer.settimeout(10)
        send_request(peer, header, fds)
        assert not peer.recv(100).startswith(b"pid")
        peer.close()
    for raw in (b"\xff\xff\xff\xff", (10).to_bytes(4, "big") + b"abc"):
        peer = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        peer.connect(path)
        peer.sendall(raw)
        peer.close()
    runs = shared.runs()
    proc = run(ENTRY, ["-p", "   "], {"MEWCODE_HOME": str(shared.home)}, project)
    for peer in silent:
        peer.close()
    assert proc.returncode == 2 and b"no prompt" in proc.stderr
    wait_for(lambda: shared.runs() == runs + 1)
    # No descriptor leaked. The server holds each connection for a moment (accept, fork,
    # close), so the count is waited for, not read once: a one-off read flaked in a full run.
    wait_for(lambda: len(os.listdir(f"/proc/{server_pid(shared)}/fd")) <= fds_before)


# --- 3. The socket directory ------------------------------------------------------------


def test_a_long_mewcode_home_is_served_warm_or_starts_no_server(fake_llm, tmp_path, project):
    home = tmp_path / ("h" * (110 - len(str(tmp_path))))
    home.mkdir()
    env = {**fake_llm.env("anthropic"), "MEWCODE_HOME": str(home)}
    try:
        fake_llm.script([{"text": "cold answer"}])
        first = run(ENTRY, ["-p", "hi"], env, project)
        assert (first.returncode, first.stdout, first.stderr) == (0, b"cold answer\n", b"")
        log = home / "logs" / "preload.log"
        wait_for(lambda: not servers_of(home) or "serving key" in _text(log), timeout=60)
        assert "Traceback" not in _text(log), _text(log)
        if servers_of(home):
            fake_llm.script([{"text": "warm answer"}])
            assert run(ENTRY, ["-p", "hi"], env, project).stdout == b"warm answer\n"
            assert "preload: ran pid" in _text(log)
    finally:
        stop_servers_of(home)


def _text(path: Path) -> str:
    return path.read_text() if path.exists() else ""


def test_a_bad_idle_setting_does_not_fail_a_finished_command(fake_llm, project, mewcode_home):
    fake_llm.script([{"text": "answer"}])
    env = {**fake_llm.env("anthropic"), "MEWCODE_HOME": str(mewcode_home), IDLE_ENV: "abc"}
    try:
        proc = run(ENTRY, ["-p", "hi"], env, project)
    finally:
        stop_servers_of(mewcode_home)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"answer\n", b"")


# --- 4. Stale code ----------------------------------------------------------------------


def test_an_upgrade_of_any_pre_imported_library_changes_the_key(tmp_path):
    site = tmp_path / "site-packages"
    (site / "pydantic-2.0.0.dist-info").mkdir(parents=True)
    code = (
        "import os, sys; sys.path.append(sys.argv[1]);"
        "from mewcode_tui.preload.key import server_key; before = server_key();"
        "os.rename(sys.argv[1] + '/pydantic-2.0.0.dist-info', sys.argv[1] + '/pydantic-2.1.0.dist-info');"
        "print(before != server_key())"
    )  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code, str(site)], capture_output=True, text=True)
    assert out.stdout.strip() == "True", out.stderr


# --- Escaping the caller's sandbox ---------------------------------------------------------


def _unshare_works() -> bool:
    if os.getuid() != 0 or shutil.which("unshare") is None:
        return False
    return subprocess.run(["unshare", "-m", "true"], capture_output=True).returncode == 0


@pytest.mark.skipif(not _unshare_works(), reason="needs root and unshare for a mount namespace")
def test_a_confined_caller_stays_confined(shared, fake_llm, project):
    witness = project / "written_from_the_sandbox"
    readonly = 'mount --bind "$PWD" "$PWD" && mount -o remount,ro,bind "$PWD" "$PWD" && exec "$@"'
    env = {**fake_llm.env("anthropic"), "MEWCODE_HOME": str(shared.home)}
    for command in (COLD, ENTRY):
        fake_llm.script(bash_steps(f"touch {witness.name}; echo done"))
        proc = run(
            ["unshare", "-m", "sh", "-c", readonly, "sh", *command],
            ["-p", "go", "--permission-mode", "bypassPermissions"], env, project,
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        assert not witness.exists(), f"{command[-1]} wrote into the read-only project"
