"""A UI whose terminal hung up leaves, even when no SIGHUP reached it."""

from __future__ import annotations

import errno
import os

from tests.tui.fakes import FakeRuntime


async def test_the_ui_exits_when_its_terminal_is_gone(make_app, project, monkeypatch) -> None:
    app = make_app(FakeRuntime(project))
    codes: list[object] = []
    async with app.run_test(size=(80, 24)):
        monkeypatch.setattr(app, "exit", lambda return_code=0, **_: codes.append(return_code))
        app._exit_if_terminal_gone()  # headless: not a terminal, nothing happens
        assert codes == []

        def hung_up(_fd: int) -> int:
            raise OSError(errno.EIO, "Input/output error")

        monkeypatch.setattr(os, "tcgetpgrp", hung_up)
        app._exit_if_terminal_gone()
        assert codes == [129]
