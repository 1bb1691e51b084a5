"""When bypassPermissions may start: only with a boundary that keeps commands in."""

from __future__ import annotations

import pytest

from agent_core.config.settings import Settings
from agent_core.sandbox.session import unsandboxed_bypass_error
from agent_core.sandbox.status import SandboxStatus

NONE = SandboxStatus("none", False)
LANDLOCK = SandboxStatus("landlock", True)
BUBBLEWRAP = SandboxStatus("bubblewrap", True)
SOCKETS = ["/run/pg.sock"]


@pytest.mark.parametrize(
    ("sandbox", "sockets", "unsandboxed", "refused"),
    [
        (BUBBLEWRAP, [], False, None),
        (LANDLOCK, [], False, None),
        (NONE, [], False, "needs an OS sandbox and none is available"),
        (NONE, [], True, None),
        # A seccomp filter cannot allow single paths: the allowlist opens every socket.
        (LANDLOCK, SOCKETS, False, "sandbox.allowUnixSockets"),
        (LANDLOCK, SOCKETS, True, None),
        (BUBBLEWRAP, SOCKETS, False, None),  # bubblewrap lets only the listed ones in
    ],
)
def test_bypass_needs_a_boundary(sandbox, sockets, unsandboxed, refused) -> None:
    settings = Settings(allow_unix_sockets=sockets, allow_unsandboxed=unsandboxed)
    error = unsandboxed_bypass_error("bypassPermissions", settings, sandbox)
    if refused is None:
        assert error is None
    else:
        assert error is not None and refused in str(error)
        assert "sandbox.allowUnsandboxed: true in ~/.mewcode/settings.yaml" in str(error)
    assert unsandboxed_bypass_error("default", settings, sandbox) is None
