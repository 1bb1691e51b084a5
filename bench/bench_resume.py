"""Resume of a 10 000-message session: load time and peak memory (docs/benchmarks.md#benchmarks).

Baseline, measured in the same run on the same file: plain ``msgspec.json.decode``
of each line (no types, no repair). Run: ``python -m bench.bench_resume``.
"""

from __future__ import annotations

import gc
import tempfile
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import msgspec

from bench.common import info, interleaved, median, report

MESSAGES = 10_000
REPEATS = 7
# No ratio is fixed by the spec; these guard against regressions. Typed decoding
# plus the validity repair should stay close to the bare decode and must not
# hold more memory than untyped dicts do.
TIME_TARGET = 1.5
MEMORY_TARGET = 1.0


def build_session(folder: Path, messages: int = MESSAGES) -> Path:
    """Write a session file of mixed text, tool calls and tool results; return its path."""
    from agent_core.config.paths import MewcodePaths
    from agent_core.messages import Message, TextBlock, ToolResultBlock, ToolUseBlock, user_text
    from agent_core.session import SessionStore

    paths = MewcodePaths(home=folder / "home", project=folder)
    store = SessionStore.create(paths, model="bench", provider="bench", env={})
    # Write the lines directly in one go: 10 000 fsyncs would measure the disk, not the loader.
    store.close()
    from agent_core.session.records import MessageRecord, encode_record

    lines = []
    i = 0
    while len(lines) < messages:
        call = f"toolu_{i:05d}"
        lines += [
            MessageRecord(message=user_text(f"step {i}: please look at module {i % 97}")),
            MessageRecord(
                message=Message(
                    role="assistant",
                    content=[
                        TextBlock(f"Reading the module {i % 97} to see what it does. " * 3),
                        ToolUseBlock(call, "Read", {"file_path": f"src/mod{i % 97}.py"}),
                    ],
                )
            ),
            MessageRecord(
                message=Message(
                    role="user",
                    content=[ToolResultBlock(call, f"{i}: def f(x):\n    return x * {i}\n" * 40)],
                )
            ),
            MessageRecord(
                message=Message(role="assistant", content=[TextBlock(f"Done with step {i}. " * 8)])
            ),
        ]
        i += 1
    with open(store.path, "ab") as fh:
        fh.write(b"".join(encode_record(r) for r in lines[:messages]))
    return store.path


def baseline(path: Path) -> list[object]:
    """Decode every line with no types or checks: the cheapest possible 'load'."""
    with open(path, "rb") as fh:
        return [msgspec.json.decode(line) for line in fh]


def load(path: Path) -> object:
    from agent_core.session import load_session

    return load_session(path)


def peak_memory(fn: Callable[[Path], object], path: Path) -> int:
    """Peak bytes allocated while ``fn`` runs (its result is alive at the end, as in use)."""
    gc.collect()
    tracemalloc.start()
    try:
        result = fn(path)
        peak = tracemalloc.get_traced_memory()[1]
        del result
        return peak
    finally:
        tracemalloc.stop()


def main() -> bool:
    with tempfile.TemporaryDirectory() as tmp:
        path = build_session(Path(tmp))
        loaded = load(path)
        assert len(loaded.messages) == MESSAGES and not loaded.warnings
        times = interleaved(
            {"baseline": lambda: baseline(path), "load": lambda: load(path)}, repeat=REPEATS
        )
        base_m, ours_m = peak_memory(baseline, path), peak_memory(load, path)
        size = path.stat().st_size
    mb = 1024 * 1024
    info(f"resume file ({MESSAGES} messages)", size / mb, "MB")
    time_ok = report(
        "resume load time",
        median(times["load"]),
        median(times["baseline"]),
        TIME_TARGET,
        baseline_name="msgspec.json.decode per line",
    )
    memory_ok = report(
        "resume peak memory",
        ours_m / mb,
        base_m / mb,
        MEMORY_TARGET,
        baseline_name="msgspec.json.decode per line",
        unit="MB",
    )
    return time_ok and memory_ok


if __name__ == "__main__":
    main()
