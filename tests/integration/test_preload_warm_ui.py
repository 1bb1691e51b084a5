"""The preload server runs the UI once before serving: warm caches, nothing of the user's touched."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

WARM_UP_AND_REPORT = """
import gc, json, os, threading
from mewcode_tui.preload.server import warm_up
from mewcode_tui import css_parse_cache
warm_up()
from pygments.lexers.python import PythonLexer
from agent_core.tools.ripgrep import _locate_rg
from agent_core.sandbox import orphans, selection
print(json.dumps({
    "threads": threading.active_count(),
    "css_sources": css_parse_cache.parsed_count(),
    "frozen": gc.get_freeze_count(),
    "lexer_compiled": "_tokens" in PythonLexer.__dict__,
    "home": os.environ["HOME"],
    "mewcode_home": os.environ["MEWCODE_HOME"],
    "only_here": os.environ.get("ONLY_HERE"),
    "env_caches": [_locate_rg.cache_info().currsize,
                   selection._backend_for.cache_info().currsize],
    "sweeper": orphans._SWEEPER is not None,
}))
"""


def test_the_server_warms_the_ui_in_a_scratch_home_and_forks_single_threaded(
    tmp_path: Path,
) -> None:
    home, mewcode_home = tmp_path / "home", tmp_path / "mewcode-home"
    home.mkdir()
    mewcode_home.mkdir()
    env = {
        **os.environ,
        "HOME": str(home),
        "MEWCODE_HOME": str(mewcode_home),
        "ONLY_HERE": "yes",
        "TMPDIR": str(tmp_path),
    }
    out = subprocess.run(
        [sys.executable, "-c", WARM_UP_AND_REPORT],
        env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout.splitlines()[-1])
    assert report["threads"] == 1  # fork() needs it
    assert report["css_sources"] > 10  # the first frame's CSS, parsed once for every child
    assert report["lexer_compiled"]  # the first answer's code block
    assert report["frozen"] > 0  # children's collections skip what the server loaded
    # The run used a scratch home and gave the environment back.
    assert (report["home"], report["mewcode_home"], report["only_here"]) == (
        str(home),
        str(mewcode_home),
        "yes",
    )
    assert list(home.iterdir()) == [] and list(mewcode_home.iterdir()) == []
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("mewcode-preload-warm")] == []
    # Nothing that depends on the caller's environment was memoized in the server.
    assert report["env_caches"] == [0, 0] and report["sweeper"] is False


def test_a_child_forgets_what_the_server_looked_up_in_its_environment(tmp_path: Path) -> None:
    code = """
import os
from agent_core.tools import ripgrep
from agent_core.sandbox import orphans
ripgrep._locate_rg()
orphans.orphan_sweeper()
from mewcode_tui.preload.child import replace_environment
replace_environment(dict(os.environ), os.getcwd())
print(ripgrep._locate_rg.cache_info().currsize, orphans._SWEEPER)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["0", "None"]
