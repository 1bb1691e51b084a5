"""Which sandbox a process is in: its namespaces, root directory, no_new_privs and seccomp.

A command the server forks runs in the server's confinement, not its caller's: a
caller inside unshare, bwrap, firejail or a Landlock sandbox (which needs
no_new_privs) would escape it. So the confinement is part of the server key (a
confined caller finds no server of the unconfined ones) and the server checks
each peer's against its own, refusing where they differ or cannot be read.
Linux only, standard library only: the client computes its own on every start.
"""

from __future__ import annotations

import os

NAMESPACES = ("cgroup", "ipc", "mnt", "net", "pid", "time", "user", "uts")
_STATUS_FIELDS = ("NoNewPrivs:", "Seccomp:")


def confinement(pid: int | None = None) -> tuple[str, ...]:
    """The confinement of process ``pid`` (ourselves by default); OSError if unreadable."""
    base = f"/proc/{'self' if pid is None else pid}"
    parts = []
    for name in NAMESPACES:
        try:
            parts.append(f"{name}:{os.stat(f'{base}/ns/{name}').st_ino}")
        except FileNotFoundError:  # a kernel without this namespace kind
            parts.append(f"{name}:-")
    root = os.stat(f"{base}/root")
    parts.append(f"root:{root.st_dev}:{root.st_ino}")
    with open(f"{base}/status", encoding="ascii", errors="replace") as status:
        parts += [line.split()[-1] for line in status if line.startswith(_STATUS_FIELDS)]
    return tuple(parts)


def same_confinement(pid: int, ours: tuple[str, ...]) -> bool:
    """Whether process ``pid`` is confined exactly as we are (False where it cannot be told)."""
    if pid <= 0:  # in a pid namespace the kernel cannot map into ours
        return False
    try:
        return confinement(pid) == ours
    except OSError:
        return False
