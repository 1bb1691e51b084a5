"""Grep tool vs plain rg on a 50 000-file tree (docs/benchmarks.md#benchmarks: within 1.3x)."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from bench.common import interleaved, median, report

FILES = 50_000
DIRS = 500  # 100 files per directory, two levels deep
NEEDLE_EVERY = 1_000  # 50 files hold a match
TARGET = 1.30
REPEAT = 7
TREE = Path(tempfile.gettempdir()) / "mewcode-bench" / f"grep-{FILES}-v1"


def build_tree(root: Path = TREE) -> Path:
    """The benchmark tree, generated once and reused while its marker file exists."""
    marker = root / ".complete"
    if marker.exists():
        return root
    staging = root.with_name(root.name + f".tmp{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    per_dir = FILES // DIRS
    for d in range(DIRS):
        folder = staging / f"pkg{d // 10:02}" / f"mod{d % 10}"
        folder.mkdir(parents=True)
        for f in range(per_dir):
            n = d * per_dir + f
            extra = f"    # NEEDLE_{n} marks this file\n" if n % NEEDLE_EVERY == 0 else ""
            (folder / f"file{f:03}.py").write_text(
                f"def handler_{n}(request):\n{extra}    value = request.get({n})\n"
                f"    return value * {n % 7}\n"
            )
    (staging / ".complete").write_text("ok\n")
    shutil.rmtree(root, ignore_errors=True)
    staging.rename(root)
    return root


def compare(root: Path, raw: dict, label: str) -> bool:
    """Time the Grep tool's run() against rg with the same flags; check they agree."""
    from agent_core.tools.base import validate_input
    from agent_core.tools.grep import GrepTool, rg_arguments
    from agent_core.tools.ripgrep import find_rg

    tool = GrepTool()
    args = validate_input(tool.params, raw)
    command = [find_rg(), *rg_arguments(args, None)]
    loop = asyncio.new_event_loop()
    try:
        ctx = loop.run_until_complete(_context(root))

        def with_tool() -> str:
            return loop.run_until_complete(tool.run(args, ctx)).content

        def with_rg() -> bytes:
            return subprocess.run(command, cwd=root, capture_output=True, check=False).stdout

        ours = set(with_tool().splitlines())
        theirs = set(with_rg().decode().splitlines())
        if not theirs or not theirs <= ours:
            raise RuntimeError(f"{label}: Grep and rg disagree on the results")
        times = interleaved({"tool": with_tool, "rg": with_rg}, repeat=REPEAT)
    finally:
        loop.close()
    return report(
        f"grep {FILES // 1000}k files, {label}",
        median(times["tool"]),
        median(times["rg"]),
        TARGET,
        baseline_name="rg",
    )


async def _context(root: Path):
    from agent_core.tools.base import ToolContext

    # Built inside the loop: ToolContext holds an asyncio.Event.
    return ToolContext(cwd=root, session_dir=root)


def main() -> bool:
    root = build_tree()
    pattern = r"NEEDLE_[0-9]+"
    ok = compare(root, {"pattern": pattern}, "files_with_matches")
    ok &= compare(root, {"pattern": pattern, "output_mode": "content"}, "content")
    ok &= compare(
        root, {"pattern": "needle_[0-9]+", "output_mode": "content", "-i": True}, "content -i"
    )
    return ok


if __name__ == "__main__":
    main()
