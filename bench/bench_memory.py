"""Long-term memory recall with 1 000 facts (issue 14: at most 5 ms per recall, median).

One recall is what a prompt costs: read the project's and the global unexpired
facts from ``memory.db``, score them against the prompt, count the chosen ones
as recalled. The facts are a seeded mix of English and Chinese sentences; the
prompts rotate over related and unrelated ones. The first recall of a process
(fact tokens not cached yet) is reported apart. Run: ``python -m bench.bench_memory``.
"""

from __future__ import annotations

import random
import tempfile
import time
from pathlib import Path

from agent_core.config.paths import MewcodePaths
from agent_core.memory.long_term import LongTermMemory
from bench.common import info, median, report

FACTS = 1_000
TARGET_MS = 5.0
REPEAT = 200

_WORDS = (
    "staging production database port server deploy script branch review test suite cache"
    " token login service queue worker timeout retry config secret vault docker image build"
    " release tag migration schema index backup cron alert dashboard metrics logs region"
).split()
_ZH = "预发布环境数据库端口部署脚本测试分支发布缓存服务队列超时配置密钥镜像构建迁移备份告警监控日志区域"
PROMPTS = [
    "which port is the staging database on",
    "run the test suite before the release",
    "预发布数据库的端口是多少",
    "write a haiku about autumn",
    "how do I rotate the vault secret for the worker service",
    "部署脚本在哪里",
]


def fact_text(rnd: random.Random, i: int) -> str:
    if i % 5 == 0:
        start = rnd.randrange(len(_ZH) - 12)
        return f"{_ZH[start : start + rnd.randint(6, 12)]}是{rnd.randint(1000, 9999)}"
    words = rnd.sample(_WORDS, rnd.randint(5, 10))
    return f"The {' '.join(words)} note {i} uses {rnd.randint(1000, 9999)}"


def filled(home: Path, project: Path) -> LongTermMemory:
    rnd = random.Random(14)
    memory = LongTermMemory(MewcodePaths(home, project))
    for i in range(FACTS):
        memory.remember(fact_text(rnd, i), "global" if i % 4 == 0 else "project")
    return memory


def main() -> bool:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        filled(root / "home", root / "project").close()
        memory = LongTermMemory(MewcodePaths(root / "home", root / "project"))  # a new session
        started = time.perf_counter()
        memory.recall(PROMPTS[0])  # opens the file and tokenises every fact
        info("memory recall, first of a session (open + tokenise 1 000 facts)",
             (time.perf_counter() - started) * 1_000, "ms")  # fmt: skip
        times: list[float] = []
        chosen = 0
        for i in range(REPEAT):
            started = time.perf_counter()
            chosen += len(memory.recall(PROMPTS[i % len(PROMPTS)]))
            times.append((time.perf_counter() - started) * 1_000)
        info("memory facts recalled per prompt, mean", chosen / REPEAT, "facts")
        memory.close()
    return report(
        "memory recall with 1 000 facts, median",
        median(times),
        TARGET_MS,
        1.0,
        baseline_name="budget",
        unit="ms",
    )


if __name__ == "__main__":
    raise SystemExit(0 if main() else 1)
