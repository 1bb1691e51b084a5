"""The OS boundary under the permission engine: every command MewCode runs is confined.

``policy`` says what a command may touch; ``selection`` picks the backend that
enforces it here (``bwrap``, ``landlock`` with ``orphans``, ``seatbelt``) and
``status`` reports what holds. Backend modules are imported only when probed.
"""

from agent_core.sandbox.backend import Confinement, SandboxBackend
from agent_core.sandbox.policy import SandboxPolicy, sandbox_policy
from agent_core.sandbox.selection import (
    SANDBOX_ENV,
    backend_available,
    confine,
    sandbox_backend,
    sandbox_status,
)
from agent_core.sandbox.status import SandboxStatus, status_report


def sandbox_report(policy: SandboxPolicy | None = None) -> str:
    """The text of `mewcode sandbox check`: what is enforced on this machine, and what is not."""
    return status_report(sandbox_status(policy), policy)


__all__ = [
    "SANDBOX_ENV",
    "Confinement",
    "SandboxBackend",
    "SandboxPolicy",
    "SandboxStatus",
    "backend_available",
    "confine",
    "sandbox_backend",
    "sandbox_policy",
    "sandbox_report",
    "sandbox_status",
    "status_report",
]
