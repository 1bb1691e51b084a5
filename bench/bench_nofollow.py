"""The file tools' no-symlink open against a plain open of the same file.

Baseline (same run, interleaved): ``open(path, "rb")`` and a read of a small file five
folders deep. Measured: ``open_no_symlinks`` of the same path beneath its root, by
openat2 (where the kernel has it) and by the component-by-component walk, then the same
read. Each is timed over a batch of opens, so the per-open cost stands out of the
timer's noise. Target: at most 3x the plain open (a few microseconds; a Read call costs
milliseconds either way).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from bench.common import interleaved, median, report

BATCH = 2000
REPEAT = 15
TARGET = 3.0


def _plain(path: Path) -> Callable[[], None]:
    def run() -> None:
        for _ in range(BATCH):
            with open(path, "rb") as fh:
                fh.read()

    return run


def _nofollow(path: Path, root: Path, walk: bool) -> Callable[[], None]:
    from agent_core.tools.nofollow import open_no_symlinks

    target, base = str(path), str(root)

    def run() -> None:
        for _ in range(BATCH):
            with os.fdopen(open_no_symlinks(target, os.O_RDONLY, root=base, walk=walk), "rb") as fh:
                fh.read()

    return run


def main() -> bool:
    from agent_core.tools.nofollow import openat2_available

    with tempfile.TemporaryDirectory(prefix="mewcode-bench-nofollow-") as tmp:
        root = Path(tmp)
        folder = root.joinpath("a", "b", "c", "d", "e")
        folder.mkdir(parents=True)
        path = folder / "f.txt"
        path.write_text("x" * 2000)
        fns = {"open": _plain(path), "walk": _nofollow(path, root, True)}
        if openat2_available():
            fns["openat2"] = _nofollow(path, root, False)
        else:
            print("nofollow openat2: not available in this kernel, not measured", flush=True)
        times = interleaved(fns, repeat=REPEAT, warmup=1)
        base = median(times["open"]) / BATCH
        ok = True
        for name in ("openat2", "walk"):
            if name in times:
                ok &= report(
                    f"nofollow {name} open+read (5 folders deep)",
                    median(times[name]) / BATCH * 1e6,
                    base * 1e6,
                    TARGET,
                    baseline_name="open()",
                    unit="us",
                )
        return ok


if __name__ == "__main__":
    main()
