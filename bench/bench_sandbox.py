"""Cost of the OS sandbox per Bash call: each available backend vs an unconfined bash.

Baseline (same run, interleaved): ``subprocess.run(["/bin/bash", "-c", "true"])``.
Measured: what the Bash tool does per call — GroupProcess.start with the session's
policy, wait for the exit, close — for `true`, under each Linux backend this machine
has, plus GroupProcess with no policy (what the tool itself costs, sandbox aside).
Landlock's sweep for leftovers (a /proc scan, in a thread) is waited for and counted.
Target: at most 10 ms added per call. Everything is measured again with 300 MB
resident in the parent, about what a running TUI session holds: a launch that
needed a full fork (a preexec_fn) would pay ~10 ms more there, one that keeps
vfork does not.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

from bench.common import env_restored, info, interleaved, median

TARGET_ADDED_MS = 10.0
REPEAT = 150
BACKENDS = ("bubblewrap", "landlock")
BALLAST_MB = 300


def _policy(root: Path):
    from agent_core.sandbox import sandbox_policy

    project = root / "project"
    scratch = root / "scratch"
    for d in (project, scratch):
        d.mkdir(exist_ok=True)
    home = Path.home()  # the real one: Landlock works around its real ~/.ssh
    return sandbox_policy(project, [], scratch, home, home / ".mewcode", network=False)


def _call(loop: asyncio.AbstractEventLoop, cwd: Path, policy, backend: str | None) -> Callable:
    from agent_core.tools.procgroup import GroupProcess

    async def once() -> None:
        proc = await GroupProcess.start("true", cwd, None, policy)
        code = await proc.wait_exit()
        proc.close()
        if code != 0:
            raise RuntimeError(f"`true` exited {code} under {backend or 'no sandbox'}")

    def run() -> None:
        if backend is not None:
            os.environ["MEWCODE_SANDBOX"] = backend
        loop.run_until_complete(once())
        # Landlock sweeps for leftovers in a thread after the command ends; it is part
        # of the call's cost (and would otherwise slow down whatever is timed next).
        for thread in threading.enumerate():
            if thread.name == "mewcode-orphan-sweep":
                thread.join()

    return run


def _plain() -> None:
    subprocess.run(["/bin/bash", "-c", "true"], check=True)


def _line(name: str, value: float, base: float) -> bool:
    added = (value - base) * 1000
    ok = added <= TARGET_ADDED_MS
    print(
        f"{name}: {value * 1000:.2f} ms per call vs subprocess.run {base * 1000:.2f} ms ="
        f" {added:+.2f} ms, {value / base:.2f}x (target <= +{TARGET_ADDED_MS:g} ms)"
        f" {'OK' if ok else 'MISS'}",
        flush=True,
    )
    return ok


def _round(loop, root: Path, label: str) -> bool:
    from agent_core.sandbox import backend_available

    policy = _policy(root)
    cwd = root / "project"
    fns: dict[str, Callable] = {
        "subprocess.run": _plain,
        "GroupProcess, no sandbox": _call(loop, cwd, None, None),
    }
    for backend in BACKENDS:
        if backend_available(backend):
            fns[backend] = _call(loop, cwd, policy, backend)
        else:
            print(f"sandbox {backend}{label}: not available here, not measured", flush=True)
    times = interleaved(fns, repeat=REPEAT, warmup=5)
    base = median(times["subprocess.run"])
    ok = True
    for name, values in times.items():
        if name != "subprocess.run":
            ok &= _line(f"sandbox {name}{label}", median(values), base)
    return ok


def main() -> bool:
    loop = asyncio.new_event_loop()
    try:
        with (
            env_restored("MEWCODE_SANDBOX"),
            tempfile.TemporaryDirectory(prefix="mewcode-bench-sandbox-") as tmp,
        ):
            ok = _round(loop, Path(tmp), "")
            ballast = bytearray(BALLAST_MB << 20)
            ballast[::4096] = b"x" * len(ballast[::4096])  # touch every page: resident
            ok &= _round(loop, Path(tmp), f", {BALLAST_MB} MB resident")
            info("ballast pages touched", len(ballast) / 4096, "pages")
            del ballast
    finally:
        loop.close()
    return ok


if __name__ == "__main__":
    main()
