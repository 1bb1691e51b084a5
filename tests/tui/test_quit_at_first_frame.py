"""Quitting as soon as the first frame is up (a fast Ctrl+Q, the first-paint bench) is clean.

Work queued for after the first frame (the key footer, the welcome notice) must
not fail on a screen that is already gone: a traceback on exit was what the
user saw.
"""

from __future__ import annotations

import pytest

from mewcode_tui.app import FIRST_PAINT_EXIT_ENV
from tests.tui.fakes import FakeRuntime


@pytest.mark.parametrize("round_", range(5))
async def test_quitting_at_the_first_frame_raises_nothing(
    make_app, project, monkeypatch, round_
) -> None:
    monkeypatch.setenv(FIRST_PAINT_EXIT_ENV, "1")
    app = make_app(FakeRuntime(project))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
    # run_test re-raises what a handler or worker raised (MountError on a gone screen).
    assert app.return_code == 0
