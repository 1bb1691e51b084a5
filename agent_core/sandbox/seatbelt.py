"""Seatbelt backend (macOS): a generated SBPL profile run through /usr/bin/sandbox-exec.

The profile allows by default and then denies: every write, except beneath the
writable roots, read-only entries inside them denied again (SBPL: the last rule
that matches wins, so rules go shallow to deep); reads and writes of hidden
paths; and the network when it is off. Paths never appear in the profile text:
each is passed as a ``-D`` parameter and referenced with ``(param "...")``, so a
path holding quotes, backslashes or newlines cannot change the profile.
"""

from __future__ import annotations

import os
from pathlib import Path

from agent_core.sandbox.backend import Confinement
from agent_core.sandbox.policy import TEMP_VARS, SandboxPolicy
from agent_core.sandbox.status import SandboxStatus

SANDBOX_EXEC = "/usr/bin/sandbox-exec"
# Devices and descriptors every shell writes to.
_DEVICE_WRITES = (
    '(literal "/dev/null")',
    '(literal "/dev/zero")',
    '(literal "/dev/tty")',
    '(literal "/dev/dtracehelper")',
    '(regex #"^/dev/ttys[0-9]+$")',
    '(regex #"^/dev/fd/[0-9]+$")',
)


def _depth(path: str) -> int:
    return len(Path(path).parts)


def seatbelt_profile(policy: SandboxPolicy) -> tuple[str, dict[str, str]]:
    """The SBPL profile text and the -D parameters it references (name -> path)."""
    params: dict[str, str] = {}

    def param(prefix: str, path: str) -> str:
        name = f"{prefix}_{sum(k.startswith(prefix + '_') for k in params)}"
        params[name] = path
        return f'(subpath (param "{name}"))'

    lines = [
        "(version 1)",
        "(allow default)",
        "(deny file-write*)",
        f"(allow file-write* {' '.join(_DEVICE_WRITES)})",
    ]
    mode: dict[str, bool] = {path: True for path in policy.writable}
    mode.update({path: False for path in policy.read_only})  # listed both ways: read-only
    # Protected paths: a subpath rule holds whether or not the path exists yet.
    mode.update({entry.path: False for entry in policy.protected})
    for path in sorted(mode, key=_depth):
        if mode[path]:
            lines.append(f"(allow file-write* {param('WRITABLE', path)})")
        else:
            lines.append(f"(deny file-write* {param('READ_ONLY', path)})")
    hidden = sorted(dict.fromkeys(policy.hidden), key=_depth)
    for path in hidden:
        lines.append(f"(deny file-read* file-write* {param('HIDDEN', path)})")
    # Entries inside a hidden directory are let back in (this session's own folder).
    inner = [p for p in mode if any(p != h and p.startswith(h.rstrip("/") + "/") for h in hidden)]
    for path in sorted(inner, key=_depth):
        rights = "file-read* file-write*" if mode[path] else "file-read*"
        lines.append(f"(allow {rights} {param('REEXPOSED', path)})")
    if not policy.network:
        lines.append("(deny network*)")
    return "\n".join(lines) + "\n", params


def seatbelt_argv(policy: SandboxPolicy, argv: list[str]) -> list[str]:
    """The sandbox-exec command line that runs argv under the policy."""
    profile, params = seatbelt_profile(policy)
    defines = [f"-D{name}={path}" for name, path in params.items()]
    return [SANDBOX_EXEC, "-p", profile, *defines, "--", *argv]


def sandbox_exec_present() -> bool:
    return os.access(SANDBOX_EXEC, os.X_OK)


class SeatbeltBackend:
    """Confines commands with sandbox-exec on macOS."""

    name = "seatbelt"

    def confine(
        self, argv: list[str], policy: SandboxPolicy, cwd: Path, env: dict[str, str] | None
    ) -> Confinement:
        if policy.temp_dir is not None:
            env = dict(os.environ if env is None else env)
            env.update(dict.fromkeys(TEMP_VARS, policy.temp_dir))
        return Confinement(seatbelt_argv(policy, argv), env)

    def status(self, policy: SandboxPolicy | None = None) -> SandboxStatus:
        enforced = [
            "writes: only in the writable roots (project, extra directories, session scratch,"
            " temp dir)",
            "read-only entries inside writable roots (.git/hooks, .git/config, .mewcode,"
            " .mcp.json) are denied writes",
            "hidden paths (credentials) cannot be read or written",
        ]
        missing = [
            "processes: no PID namespace or subreaper; a descendant that leaves the command's"
            " process group outlives it",
            "the environment is passed through (less MewCode's own API key variables): other secrets in environment variables are readable",
            "sandbox-exec is deprecated by Apple (still shipped and working)",
        ]
        if policy is None or not policy.network:
            enforced.append("network off: all network operations denied (Unix sockets included)")
        else:
            missing.append("network: on (sandbox.network), nothing is filtered")
        return SandboxStatus("seatbelt", True, enforced, missing)
