"""Cost of MewCode's own git per turn: the contained status summary vs a plain `git status`.

Baseline (same run, interleaved): ``git status --short --branch`` by subprocess.run,
as the summary ran before it was contained. Measured: ``git_summary`` under each
Linux backend this machine has — two confined launches (the config's names, then
status with every config-driven program off). The repository has a few thousand
tracked files, a handful modified and untracked. Target: at most 25 ms added per
turn (a turn's first request waits for it, beside memory files and contexts).
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

from bench.common import env_restored, info, interleaved, median

TARGET_ADDED_MS = 25.0
REPEAT = 40
FILES = 3000
BACKENDS = ("bubblewrap", "landlock")


def _repo(root: Path) -> Path:
    project = root / "project"
    for i in range(FILES):
        folder = project / f"pkg{i // 100}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"mod{i}.py").write_text(f"value = {i}\n")
    git = ["git", "-c", "user.email=b@b", "-c", "user.name=b"]
    subprocess.run([*git, "init", "-q"], cwd=project, check=True)
    subprocess.run([*git, "add", "."], cwd=project, check=True)
    subprocess.run([*git, "commit", "-qm", "bench"], cwd=project, check=True)
    for i in range(5):
        (project / "pkg0" / f"mod{i}.py").write_text("changed = True\n")
        (project / f"new{i}.txt").write_text("untracked\n")
    return project


def _policy(root: Path, project: Path):
    from agent_core.sandbox import sandbox_policy

    scratch = root / "scratch"
    scratch.mkdir(exist_ok=True)
    home = Path.home()  # the real one: Landlock works around its real ~/.ssh
    return sandbox_policy(project, [], scratch, home, home / ".mewcode", network=False)


def _plain(project: Path) -> Callable[[], object]:
    def run() -> None:
        subprocess.run(
            ["git", "status", "--short", "--branch"], cwd=project, capture_output=True, check=True
        )

    return run


def _summary(project: Path, policy, backend: str) -> Callable[[], object]:
    from agent_core.agent.prompt import git_summary

    def run() -> None:
        os.environ["MEWCODE_SANDBOX"] = backend
        summary = git_summary(project, policy)
        if "10 changed file(s)" not in summary:
            raise RuntimeError(f"unexpected summary under {backend}: {summary}")
        for thread in threading.enumerate():  # Landlock's leftover sweep is part of the cost
            if thread.name == "mewcode-orphan-sweep":
                thread.join()

    return run


def _line(name: str, value: float, base: float) -> bool:
    added = (value - base) * 1000
    fits = added <= TARGET_ADDED_MS
    print(
        f"git summary contained, {name}: {value * 1000:.2f} ms per turn vs plain"
        f" {base * 1000:.2f} ms = {added:+.2f} ms, {value / base:.2f}x"
        f" (target <= +{TARGET_ADDED_MS:g} ms) {'OK' if fits else 'MISS'}",
        flush=True,
    )
    return fits


def main() -> bool:
    from agent_core.sandbox import backend_available

    with (
        env_restored("MEWCODE_SANDBOX"),
        tempfile.TemporaryDirectory(prefix="mewcode-bench-git-") as tmp,
    ):
        root = Path(tmp)
        project = _repo(root)
        policy = _policy(root, project)
        fns: dict[str, Callable[[], object]] = {"plain": _plain(project)}
        for backend in BACKENDS:
            if backend_available(backend):
                fns[backend] = _summary(project, policy, backend)
            else:
                print(f"git summary {backend}: not available here, not measured", flush=True)
        times = interleaved(fns, repeat=REPEAT, warmup=3)
    base = median(times.pop("plain"))
    info(f"git status --short --branch, plain ({FILES} files)", base * 1000, "ms")
    ok = True
    for name, values in times.items():
        ok &= _line(name, median(values), base)
    return ok


if __name__ == "__main__":
    main()
