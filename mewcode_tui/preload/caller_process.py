"""What a process inherits besides its environment: umask, niceness and resource limits.

A child forked by the preload server has the server's, i.e. those of whichever run
started it. The client reports its own (``caller_settings``); the child takes them
on (``adopt_caller_settings``) as far as the kernel lets an unprivileged process:
a niceness or a hard limit the server is below cannot be raised back.
"""

from __future__ import annotations

import os


def caller_settings() -> dict[str, object]:
    """This process's umask, niceness and resource limits, for the request."""
    import resource  # a C module: ~0.3 ms of the client's start

    umask = os.umask(0)
    os.umask(umask)
    limits = {
        name: list(resource.getrlimit(getattr(resource, name)))
        for name in dir(resource)
        if name.startswith("RLIMIT_") and name != "RLIMIT_OFILE"  # an alias of NOFILE
    }
    return {"umask": umask, "nice": os.getpriority(os.PRIO_PROCESS, 0), "limits": limits}


def adopt_caller_settings(settings: dict[str, object]) -> None:
    """Take on the caller's umask, niceness and limits, as far as allowed."""
    import resource

    umask = settings.get("umask")
    if isinstance(umask, int):
        os.umask(umask & 0o777)
    nice = settings.get("nice")
    if isinstance(nice, int):
        try:
            os.setpriority(os.PRIO_PROCESS, 0, nice)
        except OSError:
            pass  # a lower niceness than the server's needs privilege
    limits = settings.get("limits")
    if not isinstance(limits, dict):
        return
    for name, value in limits.items():
        which = getattr(resource, str(name), None)
        if not isinstance(which, int) or not _pair(value):
            continue
        soft, hard = value
        try:
            resource.setrlimit(which, (soft, hard))
        except (ValueError, OSError):
            # The caller's hard limit is above ours: keep ours, and the soft limit under it.
            _, our_hard = resource.getrlimit(which)
            capped = soft if our_hard == resource.RLIM_INFINITY else min(soft, our_hard)
            if soft == resource.RLIM_INFINITY:
                capped = our_hard
            try:
                resource.setrlimit(which, (capped, our_hard))
            except (ValueError, OSError):
                pass


def _pair(value: object) -> bool:
    return (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(v, int) for v in value)
    )
