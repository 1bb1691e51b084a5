"""`python -m bench [name...]`: run every bench/bench_*.py module's main(), or those named."""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time
import traceback
from pathlib import Path


def available() -> list[str]:
    """Short names of the benchmark modules ("grep" for bench_grep.py), sorted."""
    here = str(Path(__file__).parent)
    return sorted(
        m.name.removeprefix("bench_")
        for m in pkgutil.iter_modules([here])
        if m.name.startswith("bench_")
    )


def run_one(name: str) -> bool:
    """Run one benchmark; a crash is reported and counted as a failure, never fatal."""
    started = time.perf_counter()
    try:
        module = importlib.import_module(f"bench.bench_{name}")
        ok = module.main()
    except Exception as exc:  # keep going: one broken bench must not hide the others
        print(f"{name}: FAILED: {type(exc).__name__}: {exc}", flush=True)
        traceback.print_exc(file=sys.stderr)
        return False
    print(f"[{name} done in {time.perf_counter() - started:.1f} s]", flush=True)
    return ok is not False


def main(argv: list[str]) -> int:
    names = [a.removeprefix("bench_").removesuffix(".py") for a in argv] or available()
    unknown = [n for n in names if n not in available()]
    if unknown:
        print(f"unknown benchmark(s): {', '.join(unknown)}; have: {', '.join(available())}")
        return 2
    results = {name: run_one(name) for name in names}
    missed = [name for name, ok in results.items() if not ok]
    if missed:
        print(f"missed or failed: {', '.join(missed)}", flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
