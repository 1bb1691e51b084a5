"""Starting one process under the machine's sandbox: confine, spawn, hand over.

The Bash tool's GroupProcess and MewCode's own git both launch this way; each maps
``LaunchFailed`` to its own error.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

from agent_core.sandbox.backend import Confinement, ConfinementError
from agent_core.sandbox.policy import SandboxPolicy


class LaunchFailed(Exception):
    """The process did not start; ``confinement`` is True when the sandbox was the cause."""

    def __init__(self, message: str, *, confinement: bool) -> None:
        super().__init__(message)
        self.confinement = confinement


def start_confined(
    argv: list[str],
    cwd: Path,
    env: dict[str, str] | None,
    policy: SandboxPolicy | None,
    **popen: Any,
) -> tuple[subprocess.Popen[bytes], Confinement]:
    """Popen(argv) in a new session, confined by the policy (None: unconfined; the
    machine's backend decides how, and runs it as it is when there is none)."""
    confinement = Confinement(argv, env)
    if policy is not None:
        from agent_core.sandbox.selection import confine

        try:
            confinement = confine(argv, policy, cwd, env)
        except OSError as exc:
            message = f"cannot set up the sandbox: {exc.strerror or exc}"
            raise LaunchFailed(message, confinement=True) from None

    def launch() -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            confinement.argv, cwd=cwd, env=confinement.env, start_new_session=True, **popen
        )

    try:
        process = confinement.spawn(launch)
    except OSError as exc:
        confinement.abandon()
        message = f"cannot start {confinement.argv[0]}: {exc.strerror or exc}"
        raise LaunchFailed(message, confinement=False) from None
    except ConfinementError as exc:
        confinement.abandon()
        raise LaunchFailed(f"cannot confine the command: {exc}", confinement=True) from None
    confinement.started(process.pid)
    return process, confinement
