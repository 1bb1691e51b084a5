"""The TUI paints its first frame before any vendor SDK (or mcp) is imported (docs/architecture.md#the-layers)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

PROBE = textwrap.dedent(
    """
    import json, sys, threading
    from pathlib import Path
    from agent_core.config.paths import MewcodePaths
    from agent_core.config.settings import Settings
    import mewcode_tui.session_starter as opening_module
    from mewcode_tui.app import MewCodeApp
    from mewcode_tui.session_start import TuiOptions

    report = {}
    ready = threading.Event()
    original_build = opening_module.build_provider
    SDKS = ("anthropic", "openai", "mcp")

    def loaded():
        return sorted(m for m in sys.modules if m.split(".")[0] in SDKS)

    def build_after_paint(options, env=None):
        ready.wait(10)  # keep the report's order fixed; the call itself came after paint
        report["painted_before_build"] = app._dom_ready
        provider = original_build(options, env)
        report["after_build"] = loaded()
        report["provider"] = provider.name
        app.call_from_thread(app.exit)
        return provider

    opening_module.build_provider = build_after_paint

    class Probe(MewCodeApp):
        def on_ready(self):
            report["at_first_frame"] = loaded()
            report["main_screen_painted"] = self.screen is self.main_screen
            ready.set()

    project = Path(sys.argv[1])
    paths = MewcodePaths(home=Path(sys.argv[2]), project=project)
    app = Probe(TuiOptions(cwd=project, paths=paths, settings=Settings(),
                           provider_name="anthropic"))
    app.run(headless=True, size=(80, 24))
    print(json.dumps(report))
    """
)


@pytest.mark.slow
def test_first_frame_imports_no_vendor_sdk(project: Path, mewcode_home: Path) -> None:
    env = {**os.environ, "ANTHROPIC_API_KEY": "sk-test-not-real"}
    root = Path(__file__).resolve().parents[2]
    env["PYTHONPATH"] = f"{root}{os.pathsep}{env.get('PYTHONPATH', '')}"
    out = subprocess.run(
        [sys.executable, "-c", PROBE, str(project), str(mewcode_home)],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        cwd=project,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert report["main_screen_painted"]
    assert report["at_first_frame"] == []
    assert report["painted_before_build"] is True
    # The probe can see an SDK import: the worker warmed anthropic after the frame.
    assert report["provider"] == "anthropic"
    assert "anthropic" in report["after_build"]
    assert "openai" not in report["after_build"] and "mcp" not in report["after_build"]
