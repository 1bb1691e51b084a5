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


def test_a_forked_child_forgets_what_its_parent_looked_up_in_its_environment() -> None:
    """Each cache resets itself after a fork: no preload code has to know them by name."""
    code = """
import os, sys
from agent_core.tools import ripgrep
from agent_core.sandbox import orphans, selection
ripgrep._locate_rg()
selection.sandbox_backend()
orphans.orphan_sweeper()
pid = os.fork()
if pid == 0:
    state = (ripgrep._locate_rg.cache_info().currsize,
             selection._backend_for.cache_info().currsize, orphans._SWEEPER)
    os.write(1, repr(state).encode())
    os._exit(0)
os.waitpid(pid, 0)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout == "(0, 0, None)"


FIRST_FRAME_PARSES = """
import json, sys
from pathlib import Path
from mewcode_tui.preload.server import warm_up
from mewcode_tui import css_parse_cache
from agent_core.config.paths import MewcodePaths
from agent_core.config.settings import Settings
from agent_core.llm.demo_provider import DemoProvider
from mewcode_tui.app import MewCodeApp
from mewcode_tui.session_start import TuiOptions

warm_up()
root = Path(sys.argv[1])

class FirstFrame(MewCodeApp):
    def on_ready(self):
        self.exit(0)

def new_parses(theme):
    (root / "home" / "settings.yaml").write_text(f"theme: {theme}\\n")
    paths = MewcodePaths(home=root / "home", project=root / "project")
    options = TuiOptions(cwd=root / "project", paths=paths, settings=Settings(),
                         provider_name="demo", demo=True)
    before = css_parse_cache.parsed_count()
    app = FirstFrame(options, provider=DemoProvider(root / "project"))
    app.run(headless=True, size=(100, 30))
    assert app.theme == theme, app.theme
    return css_parse_cache.parsed_count() - before

print(json.dumps({t: new_parses(t) for t in ("mewcode-dark", "mewcode-light",
                                             "mewcode-high-contrast", "nord")}))
"""


def test_a_bundled_themes_first_frame_finds_its_css_parsed(tmp_path: Path) -> None:
    (tmp_path / "home").mkdir()
    (tmp_path / "project").mkdir()
    env = {**os.environ, "HOME": str(tmp_path), "MEWCODE_HOME": str(tmp_path / "home")}
    out = subprocess.run(
        [sys.executable, "-c", FIRST_FRAME_PARSES, str(tmp_path)],
        env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    parses = json.loads(out.stdout.splitlines()[-1])
    # The test's own App subclass is keyed apart: about one source, in any theme.
    assert parses["mewcode-dark"] <= 2, parses
    assert parses["mewcode-light"] <= 2 and parses["mewcode-high-contrast"] <= 2, parses
    # A theme the server did not warm (one of Textual's) parses the whole first frame.
    assert parses["nord"] > 10, parses
