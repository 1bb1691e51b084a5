"""What the chosen backend enforces on this machine, and the plain-text report of it."""

from __future__ import annotations

import msgspec

from agent_core.sandbox.policy import SandboxPolicy


class SandboxStatus(msgspec.Struct, frozen=True):
    """One backend's promise: each entry of ``enforced`` and ``missing`` is a one-line fact."""

    backend: str  # "bubblewrap" | "landlock" | "seatbelt" | "none"
    available: bool
    enforced: list[str] = msgspec.field(default_factory=list)
    missing: list[str] = msgspec.field(default_factory=list)


def status_report(status: SandboxStatus, policy: SandboxPolicy | None = None) -> str:
    """The text `mewcode sandbox check` prints: the backend, what holds, what does not,
    and (given the session's policy) the paths it applies to."""
    if status.available:
        head = f"Sandbox: {status.backend} — every command MewCode runs is confined."
    else:
        head = "Sandbox: none — no OS sandbox on this machine; commands run unconfined."
    lines = [head]
    enforced = list(status.enforced)
    if status.available:
        enforced.append(
            "MewCode's own git (the status line of each request, /review) runs inside this"
            " sandbox with the network off, nothing writable and every program git's config"
            " could name turned off"
        )
    if enforced:
        lines += ["", "Enforced:"] + [f"  - {fact}" for fact in enforced]
    if status.missing:
        lines += ["", "Not enforced:"] + [f"  - {gap}" for gap in status.missing]
    if policy is not None:
        lines += ["", "Policy for this project:"]
        lines += [f"  writable:  {path}" for path in policy.writable]
        lines += [f"  read-only: {path}" for path in policy.read_only]
        lines += [f"  hidden:    {path}" for path in policy.hidden]
        lines += [f"  protected: {entry.path}" for entry in policy.protected]
        if policy.temp_dir:
            lines.append(f"  temp dir:  {policy.temp_dir} (as /tmp and $TMPDIR)")
        lines += [f"  socket:    {path} (sandbox.allowUnixSockets)" for path in policy.unix_sockets]
        lines.append(f"  network:   {'on' if policy.network else 'off'}")
    return "\n".join(lines) + "\n"
