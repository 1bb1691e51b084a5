"""The shell analyzer's cost per command, and what positive knowledge adds to it.

Commands: the everyday and adversarial corpora of the tests (tests/data/shell_*.txt),
about 680 lines. Baseline, measured in the same run over the same commands: the parser
alone (``parse_command``), which is what the analyzer did before the tables; the
analyzer (``analyze`` without its cache: parse, walk every command against its table,
judge it) is reported against it. Also: the first load of every table (cold, once per
process), and a whole ``decide()`` per command. Run: ``python -m bench.bench_shell``.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from bench.common import info, interleaved, measure, median, report

DATA = Path(__file__).parents[1] / "tests" / "data"
TARGET_RATIO = 1.6  # the walk and the judgement cost at most 60% on top of the parse
REPEAT = 5


def corpus() -> list[str]:
    """Every command of the two corpora (an adversarial line is ``decision<TAB>command``)."""
    found: list[str] = []
    for name in ("shell_everyday.txt", "shell_adversarial.txt"):
        for line in (DATA / name).read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                found.append(line.split("\t", 1)[-1])
    return found


def main() -> bool:
    from agent_core.permissions import PermissionPolicy, PermissionRequest, decide
    from agent_core.permissions.shell.facts import facts_of
    from agent_core.permissions.shell.parse import parse_command
    from agent_core.permissions.shell.tables import program, table_names

    commands = corpus()
    cold = measure(lambda: [program(n) for n in table_names()] and program.cache_clear(), 3)
    info(f"load all {len(table_names())} program tables (cold)", median(cold) * 1000, "ms")
    times = interleaved(
        {
            "parse": lambda: [parse_command(c) for c in commands],
            "analyze": lambda: [facts_of(parse_command(c)) for c in commands],
        },
        repeat=REPEAT,
    )
    per = 1000 / len(commands)
    parse, analyze = median(times["parse"]) * per, median(times["analyze"]) * per
    ok = report(
        f"analyze one command ({len(commands)} commands)",
        analyze,
        parse,
        TARGET_RATIO,
        baseline_name="parse alone",
        unit="ms",
    )
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp) / "project"
        project.mkdir()
        policy = PermissionPolicy(project, [], [], "default", Path(tmp) / "home")
        requests = [PermissionRequest("Bash", {"command": c}, False, "bash") for c in commands]
        whole = measure(lambda: [decide(r, policy) for r in requests], repeat=3)
    info("decide() one Bash call (analyze cached, paths resolved)", median(whole) * per, "ms")
    return ok


if __name__ == "__main__":
    raise SystemExit(0 if main() else 1)
