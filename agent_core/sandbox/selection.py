"""Which backend confines commands on this machine: probed once per process.

Order: bubblewrap when it really runs `true` with our namespaces, else Landlock
when the kernel has it, else sandbox-exec on macOS, else none. The environment
variable MEWCODE_SANDBOX=bubblewrap|landlock|seatbelt|none forces one (for tests
and debugging; ``none`` only to exercise the unconfined path). A forced backend
that cannot run here is reported unavailable, never swapped for another.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import NamedTuple

from agent_core.sandbox.backend import Confinement, SandboxBackend
from agent_core.sandbox.policy import SandboxPolicy
from agent_core.sandbox.status import SandboxStatus

SANDBOX_ENV = "MEWCODE_SANDBOX"
BACKEND_NAMES = ("bubblewrap", "landlock", "seatbelt", "none")


class NoSandbox:
    """No backend: commands run as they are; ``status`` says why."""

    name = "none"

    def __init__(self, reasons: list[str]) -> None:
        self.reasons = reasons

    def confine(
        self, argv: list[str], policy: SandboxPolicy, cwd: Path, env: dict[str, str] | None
    ) -> Confinement:
        return Confinement(argv, env)

    def status(self, policy: SandboxPolicy | None = None) -> SandboxStatus:
        return SandboxStatus("none", False, [], self.reasons)


class Probes(NamedTuple):
    """How each backend is found and tested; replaced in tests to fake a platform."""

    platform: str
    bubblewrap: Callable[[], SandboxBackend | str]  # a backend, or why there is none
    landlock: Callable[[], SandboxBackend | str]
    seatbelt: Callable[[], SandboxBackend | str]


def _bubblewrap() -> SandboxBackend | str:
    from agent_core.sandbox import bwrap

    executable = bwrap.find_bwrap()
    if executable is None:
        return "bubblewrap: not installed (apt install bubblewrap)"
    error = bwrap.probe(executable)
    if error is not None:
        return f"bubblewrap: cannot create its namespaces here: {error}"
    return bwrap.BubblewrapBackend(executable)


def _landlock() -> SandboxBackend | str:
    from agent_core.sandbox import landlock
    from agent_core.sandbox.orphans import orphan_sweeper
    from agent_core.sandbox.seccomp import UnsupportedMachine, command_filter

    abi = landlock.landlock_abi()
    if abi < 1:
        return "landlock: not enabled in this kernel (needs Linux 5.13+ with lsm=landlock)"
    try:
        command_filter()
    except UnsupportedMachine as exc:
        # Without the filter, Landlock alone lets a command reach the user's tmux server.
        return f"landlock: cannot shut Unix sockets: {exc}"
    return landlock.LandlockBackend(abi, orphan_sweeper())


def _seatbelt() -> SandboxBackend | str:
    from agent_core.sandbox import seatbelt

    if not seatbelt.sandbox_exec_present():
        return f"seatbelt: {seatbelt.SANDBOX_EXEC} not found"
    return seatbelt.SeatbeltBackend()


def system_probes() -> Probes:
    return Probes(sys.platform, _bubblewrap, _landlock, _seatbelt)


def choose_backend(forced: str | None, probes: Probes) -> SandboxBackend:
    """The backend to use: the forced one if named (even if it cannot run), else the best here."""
    linux = probes.platform.startswith("linux")
    darwin = probes.platform == "darwin"
    order: list[tuple[str, Callable[[], SandboxBackend | str]]] = []
    if linux:
        order = [("bubblewrap", probes.bubblewrap), ("landlock", probes.landlock)]
    elif darwin:
        order = [("seatbelt", probes.seatbelt)]
    choice = (forced or "").strip().lower()
    if choice:
        if choice == "none":
            return NoSandbox([f"{SANDBOX_ENV}=none: the sandbox is switched off"])
        if choice not in BACKEND_NAMES:
            return NoSandbox([f"{SANDBOX_ENV}={forced!r} is not one of {', '.join(BACKEND_NAMES)}"])
        named = dict(order)
        if choice not in named:
            return NoSandbox([f"{SANDBOX_ENV}={choice}: not available on {probes.platform}"])
        order = [(choice, named[choice])]
    reasons: list[str] = []
    for _, probe in order:
        found = probe()
        if not isinstance(found, str):
            return found
        reasons.append(found)
    if not order:
        reasons.append(f"no sandbox backend for {probes.platform}")
    return NoSandbox(reasons)


@cache
def _backend_for(forced: str | None) -> SandboxBackend:
    return choose_backend(forced, system_probes())


# A forked process may run for a caller in another confinement: probe again.
os.register_at_fork(after_in_child=_backend_for.cache_clear)


def sandbox_backend() -> SandboxBackend:
    """This process's backend (probed on first use, per value of MEWCODE_SANDBOX)."""
    return _backend_for(os.environ.get(SANDBOX_ENV))


def backend_available(name: str) -> bool:
    """Whether the named backend can confine commands on this machine (probed once)."""
    return name != "none" and _backend_for(name).name == name


def sandbox_status(policy: SandboxPolicy | None = None) -> SandboxStatus:
    """What the backend enforces on this machine (and, given a policy, that policy's gaps)."""
    return sandbox_backend().status(policy)


# Backends whose mounts or profile keep protected paths read-only even where they do not
# exist yet; under the others the guard puts back what a command changed.
_KEEPS_PROTECTED = {"bubblewrap": True, "seatbelt": True, "landlock": False}


def confine(
    argv: list[str], policy: SandboxPolicy, cwd: Path, env: dict[str, str] | None
) -> Confinement:
    """How to launch argv under the policy; unconfined when no backend is available.

    Around every confined launch, the guard (guarded_files.py) checks afterwards the
    protected paths the backend could not keep read-only.
    """
    backend = sandbox_backend()
    launch = backend.confine(argv, policy, cwd, env)
    if backend.name not in _KEEPS_PROTECTED or not policy.protected:
        return launch
    from agent_core.sandbox.guarded_files import FileGuard, GuardedConfinement

    quarantine = Path(policy.quarantine) if policy.quarantine else None
    guard = FileGuard(policy, _KEEPS_PROTECTED[backend.name], quarantine)
    return GuardedConfinement(launch, guard)
