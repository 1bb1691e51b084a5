"""Run the UI once inside the preload server, headless, so every child starts warm.

A first frame pays for work Textual and Rich do once per process: parsing the
CSS (kept by ``css_parse_cache``), compiling their regular expressions,
importing widgets on first use; the first answer pays for the Markdown views
and the Python lexer. Done here, before the server forks, each command gets
them for free (about 10 ms of the first frame, ~50 ms of the first answer).

Its CSS is also parsed with each bundled theme's variables, so a user who chose
mewcode-light or high-contrast starts as warm as one on the default theme.

The run touches nothing of the user's: a scratch HOME, MEWCODE_HOME and project,
a minimal environment (and the variables the server's key fixes, which every
child shares), the demo provider, and an opener that never opens a session,
so no settings, sandbox, tool, MCP server or provider SDK is used.
It is the real ``MewCodeApp`` (a subclass would key Textual's default CSS
differently), stopped once its answer views are warm.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import tempfile
from pathlib import Path
from typing import Any

from mewcode_tui.preload.dependency_state import keyed_environment

SIZE = (100, 30)


def warm_the_ui() -> None:
    """One headless run of the UI to its first frame and warm answer views; raises on failure."""
    saved = dict(os.environ)
    with tempfile.TemporaryDirectory(prefix="mewcode-preload-warm-") as scratch:
        root = Path(scratch)
        (root / "project").mkdir()
        # Nothing the run reads may come from the user's environment or home, but what the
        # server's key fixes: libraries cache some of it (rich's UNICODE_VERSION...).
        os.environ.clear()
        os.environ.update(keyed_environment(saved))
        os.environ.update(
            HOME=str(root), MEWCODE_HOME=str(root / "home"), PATH=saved.get("PATH", "/usr/bin")
        )
        try:
            _run(root / "project")
        finally:
            os.environ.clear()
            os.environ.update(saved)


def _run(project: Path) -> None:
    from agent_core.config.paths import MewcodePaths
    from agent_core.config.settings import Settings
    from agent_core.llm.demo_provider import DemoProvider
    from mewcode_tui.app import MewCodeApp
    from mewcode_tui.session_start import TuiOptions

    options = TuiOptions(
        cwd=project,
        paths=MewcodePaths.from_env(project),
        settings=Settings(),
        provider_name="demo",
        demo=True,
    )
    app: MewCodeApp

    async def open_nothing(_options: TuiOptions, _provider: Any) -> Any:
        # Called once the answer views are being warmed: wait for them, then quit.
        screen = app.main_screen
        for worker in [w for w in screen.workers if w.group == "warm"]:
            with contextlib.suppress(Exception):
                await worker.wait()
        _style_with_every_bundled_theme(app)
        app.exit(0)
        await asyncio.Event().wait()  # cancelled by the exit

    app = MewCodeApp(options, provider=DemoProvider(project), opener=open_nothing)
    app.run(headless=True, size=SIZE)
    if app.return_code != 0:
        raise RuntimeError(f"the warm-up run of the UI ended with {app.return_code}")


def _style_with_every_bundled_theme(app: Any) -> None:
    """Parse the CSS seen so far with each bundled theme's variables, then go back."""
    from mewcode_tui.themes import BUILTIN_THEME_DIR, parse_theme_file

    first = app.theme
    for file in sorted(BUILTIN_THEME_DIR.glob("*.yaml")):
        name = parse_theme_file(file).name
        if name != first and name in app.available_themes:
            app.theme = name
            app.refresh_css(animate=False)  # what the theme switch schedules, done now
    app.theme = first
    app.refresh_css(animate=False)
