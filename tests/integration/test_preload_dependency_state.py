"""What the libraries fix while the preload server warms up is either keyed or read again per run."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import struct
import subprocess
import sys
import termios
import threading
from pathlib import Path

from mewcode_tui.app import FIRST_PAINT_EXIT_ENV
from mewcode_tui.preload import dependency_state
from tests.helpers.preload import ENTRY, IDLE_ENV, PreloadServer, run_mewcode
from tests.integration.test_preload_redteam import servers_of, stop_servers_of, wait_for

# Every os.environ lookup made while the server imports and runs the UI once; a bulk
# copy (dict(os.environ): the warm-up saving the environment, each app's own copy) is
# not a lookup of any one name.
RECORD_WARM_UP_READS = """
import json, os
read = set()
class Recording(type(os.environ)):
    copying = 0
    def __iter__(self):
        Recording.copying = len(self._data)
        return super().__iter__()
    def __getitem__(self, key):
        if Recording.copying:
            Recording.copying -= 1
        else:
            read.add(key)
        return super().__getitem__(key)
    def __contains__(self, key):
        read.add(key)
        return super().__contains__(key)
e = os.environ
os.environ = Recording(e._data, e.encodekey, e.decodekey, e.encodevalue, e.decodevalue)
from mewcode_tui.preload.server import warm_up
warm_up()
print(json.dumps(sorted(read)))
"""


def _isolated_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    (tmp_path / "home").mkdir(exist_ok=True)
    return {
        **os.environ,
        "HOME": str(tmp_path),
        "MEWCODE_HOME": str(tmp_path / "home"),
        "TMPDIR": str(tmp_path),
        **extra,
    }


def test_every_variable_read_while_the_server_warms_up_is_keyed_or_read_again_per_run(
    tmp_path: Path,
) -> None:
    """On failure: a library (or our code) now reads these while the server warms up. Find
    whether it keeps the value for the process's life (then add it to KEYED_NAMES in
    mewcode_tui/preload/dependency_state.py) or reads it on each use (READ_WHEN_USED)."""
    out = subprocess.run(
        [sys.executable, "-c", RECORD_WARM_UP_READS],
        env=_isolated_env(tmp_path), cwd=tmp_path, capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    read = json.loads(out.stdout.splitlines()[-1])
    assert "TEXTUAL_FPS" in read and "UNICODE_VERSION" in read  # the recorder sees the reads
    unknown = [
        name
        for name in read
        if not dependency_state.keyed(name)
        and name not in dependency_state.KEYED_AS_FACT
        and name not in dependency_state.READ_WHEN_USED
        and not name.startswith("MEWCODE_")  # ours: read per run
    ]
    assert unknown == []


KEYED_STATE_AFTER_WARM_UP = """
import json
from mewcode_tui.preload.server import warm_up
warm_up()
import textual._xterm_parser, textual.constants
from rich import _unicode_data
print(json.dumps({
    "unicode_table_cached": _unicode_data.load.cache_info().currsize == 1,
    "unicode_table_9": _unicode_data.load() is _unicode_data.load("9.0.0"),
    "iterm": textual._xterm_parser.IS_ITERM,
    "escape_delay": textual.constants.ESCAPE_DELAY,
}))
"""


def test_the_warm_up_run_caches_what_the_keyed_variables_say(tmp_path: Path) -> None:
    """Every child of the server shares what the warm-up cached: it must be what the
    variables in the server's key (which each caller of this server has) ask for."""
    env = _isolated_env(tmp_path, UNICODE_VERSION="9.0.0", TERM_PROGRAM="iTerm.app", ESCDELAY="25")
    out = subprocess.run(
        [sys.executable, "-c", KEYED_STATE_AFTER_WARM_UP],
        env=env, cwd=tmp_path, capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    state = json.loads(out.stdout.splitlines()[-1])
    assert state == {
        "unicode_table_cached": True,
        "unicode_table_9": True,
        "iterm": True,  # textual imports its xterm parser during the warm-up run
        "escape_delay": 0.025,
    }


# --- Through a real server --------------------------------------------------------------


def first_frame(env: dict[str, str], cwd: Path) -> bytes:
    """What ``mewcode --demo`` draws on a 100x30 pseudo-terminal up to its first frame."""
    primary, secondary = pty.openpty()
    fcntl.ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    chunks: list[bytes] = []

    def drain() -> None:  # a full pty would stall the UI before its first frame
        try:
            while chunk := os.read(primary, 65536):
                chunks.append(chunk)
        except OSError:  # EIO: the last holder of the terminal closed it
            pass

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    base = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}  # the suite sets it
    try:
        out = subprocess.run(
            [*ENTRY, "--demo"],
            env={**base, IDLE_ENV: "0.5", FIRST_PAINT_EXIT_ENV: "1", **env},
            cwd=cwd, stdin=secondary, stdout=subprocess.PIPE, stderr=secondary,
            timeout=90, start_new_session=True,
        )  # fmt: skip
    finally:
        os.close(secondary)
    reader.join(timeout=30)
    os.close(primary)
    assert out.returncode == 0 and out.stdout.strip(), f"no first frame (exit {out.returncode})"
    return b"".join(chunks)


def colours(frame: bytes) -> set[bytes]:
    """The colour forms the frame uses: b"rgb", b"grey" (rgb with r == g == b), b"256"."""
    found = set()
    for match in re.finditer(rb"\x1b\[([0-9;]*)m", frame):
        params = match.group(1).split(b";")
        for i, param in enumerate(params[:-1]):
            if param in (b"38", b"48") and params[i + 1] == b"5":
                found.add(b"256")
            elif param in (b"38", b"48") and params[i + 1] == b"2":
                r, g, b = params[i + 2 : i + 5]
                found.add(b"grey" if r == g == b else b"rgb")
    return found


TERMINAL = {"TERM": "xterm-256color", "LC_ALL": "C.UTF-8"}


def test_the_callers_colour_settings_reach_a_warm_ui(project: Path, mewcode_home: Path) -> None:
    """COLORTERM and NO_COLOR are read when the UI starts: one server serves all three."""
    server = PreloadServer(mewcode_home, TERMINAL).start()
    try:
        truecolor = first_frame({**TERMINAL, "COLORTERM": "truecolor"}, project)
        eight_bit = first_frame(TERMINAL, project)
        no_color = first_frame({**TERMINAL, "COLORTERM": "truecolor", "NO_COLOR": "1"}, project)
        wait_for(lambda: server.runs() == 3)
    finally:
        server.stop()
    assert b"rgb" in colours(truecolor)
    assert b"256" in colours(eight_bit) and b"rgb" not in colours(eight_bit)
    assert colours(no_color) <= {b"grey"}


def test_a_textual_setting_read_at_import_is_served_by_a_server_with_it(
    project: Path, mewcode_home: Path
) -> None:
    """TEXTUAL_COLOR_SYSTEM is read when textual is imported: a caller who sets it is not
    served by a server without it (a cold run), and a server with it serves it warm."""
    caller = {**TERMINAL, "COLORTERM": "truecolor", "TEXTUAL_COLOR_SYSTEM": "256"}
    server = PreloadServer(mewcode_home, TERMINAL).start()
    try:
        cold = first_frame(caller, project)
    finally:
        server.stop()
    assert server.runs() == 0
    stop_servers_of(mewcode_home)  # the one the cold run started, for its own key
    server = PreloadServer(mewcode_home, caller).start()
    try:
        warm = first_frame(caller, project)
        wait_for(lambda: server.runs() == 1)
    finally:
        server.stop()
    for frame in (cold, warm):
        assert b"256" in colours(frame) and b"rgb" not in colours(frame)


BREAK_THE_SDK_LOG_SETUP = """
import anthropic._utils._logs
del anthropic._utils._logs.setup_logging
"""


def test_a_server_whose_dependency_changed_shape_runs_every_command_cold(
    fake_llm, project: Path, mewcode_home: Path, tmp_path: Path
) -> None:
    """Where a library is not what the warm start was written for, nothing runs warm (and
    no wrong state is inherited): each run starts cold, as it would without a server."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(BREAK_THE_SDK_LOG_SETUP)
    env = {"PYTHONPATH": str(site)}
    server = PreloadServer(mewcode_home, env).start()
    try:
        fake_llm.script([{"text": "hello"}])
        run_env = {**fake_llm.env("anthropic"), "MEWCODE_HOME": str(mewcode_home), **env}
        first = run_mewcode(ENTRY, ["-p", "hi"], run_env, project)
        fake_llm.script([{"text": "hello"}])
        second = run_mewcode(ENTRY, ["-p", "hi"], run_env, project)
        assert len(servers_of(mewcode_home)) == 1  # refused, the runs start no other server
    finally:
        server.stop()
    for proc in (first, second):
        assert (proc.returncode, proc.stdout, proc.stderr) == (0, "hello\n", "")
    assert server.runs() == 0
    assert "warm start is off: anthropic._utils._logs.setup_logging is missing" in server.log_text()
