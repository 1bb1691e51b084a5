"""Context cost per request of 50 installed skills: progressive disclosure vs every body.

Fifty user skills (descriptions ~200 characters, bodies ~4 000, tags) are written
to a temp MEWCODE_HOME. With progressive disclosure a request carries the index
the prompt selects (top 5, at most 4 000 characters) plus the Skill tool's
definition; the baseline carries every name, description and body, as an agent
that loads them all would. Both are counted in characters and in estimated
tokens (agent_core/context/tokens.py). Also timed: building the index for one
prompt (scan, parse cache, score 50 skills). Run: ``python -m bench.bench_skills``.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import msgspec

from bench.common import info, measure, median, report

SKILLS = 50
TARGET_RATIO = 0.10  # the index costs at most a tenth of loading every body
INDEX_MS_TARGET = 20.0
PROMPTS = [
    "write a commit message for the staged changes",
    "release a new version and update the changelog",
    "review this pull request for security bugs",
    "帮我写一份数据库迁移的说明文档",
    "what does this function do?",
]
_TOPICS = (
    "database migration docker kubernetes release changelog security review testing pytest "
    "frontend react css accessibility api openapi graphql logging metrics tracing terraform "
    "aws gcp azure python rust golang typescript refactor performance profiling benchmark "
    "documentation readme tutorial i18n translation pdf spreadsheet csv json yaml lint"
).split()


def write_skills(root: Path, count: int = SKILLS, seed: int = 3) -> None:
    rnd = random.Random(seed)
    for i in range(count):
        words = rnd.sample(_TOPICS, 4)
        name = f"{words[0]}-{words[1]}-{i}"
        description = (
            f"Use when working on {words[0]} and {words[1]}: step-by-step guidance, checks "
            f"and conventions for {words[2]} tasks, including common pitfalls with {words[3]} "
            "and how to verify the result before reporting back to the user."
        )
        body = "\n".join(
            f"{n}. For {rnd.choice(_TOPICS)}, check the {rnd.choice(_TOPICS)} settings, run the "
            f"{rnd.choice(_TOPICS)} checks and note anything unusual in the summary."
            for n in range(1, 31)
        )
        folder = root / name
        folder.mkdir(parents=True)
        meta = f"name: {name}\ndescription: '{description}'\ntags: [{words[2]}, {words[3]}]\n"
        (folder / "SKILL.md").write_text(f"---\n{meta}---\n# {name}\n\n{body}\n")


def main() -> bool:
    from agent_core.config.paths import MewcodePaths
    from agent_core.context.tokens import estimate_tokens
    from agent_core.skills.loader import SkillLibrary
    from agent_core.skills.skills_context import SkillsContext
    from agent_core.tools.base import input_schema
    from agent_core.tools.skill import SkillTool

    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        paths = MewcodePaths(home=base / "home", project=base / "project")
        write_skills(paths.home / "skills")
        library = SkillLibrary.for_session(paths, user_home=base / "user")
        skills = list(library.load().skills.values())
        context = SkillsContext(library)
        tool = msgspec.json.encode(
            {
                "name": SkillTool.name,
                "description": SkillTool.description,
                "input_schema": input_schema(SkillTool.params),
            }
        ).decode()
        blocks = [context.block_for(p) for p in PROMPTS]
        every = "\n\n".join(f"## {s.name}\n{s.description}\n\n{s.body}" for s in skills)
        worst = max(blocks, key=len) + tool
        mean_chars = sum(len(b) for b in blocks) / len(blocks) + len(tool)
        mean_tokens = sum(estimate_tokens(b) for b in blocks) / len(blocks)
        info("skills installed (50 user + the built-in)", len(skills), "skills")
        info("progressive: index + Skill tool, mean over prompts", mean_chars, "chars")
        info("progressive: mean estimated tokens", mean_tokens + estimate_tokens(tool), "tokens")
        info("progressive: largest request", len(worst), "chars")
        info("progressive: largest, estimated tokens", estimate_tokens(worst), "tokens")
        info("all bodies loaded", len(every), "chars")
        info("all bodies loaded, estimated tokens", estimate_tokens(every), "tokens")
        ok = report(
            "skills context per request (largest index)",
            float(estimate_tokens(worst)),
            float(estimate_tokens(every)),
            TARGET_RATIO,
            baseline_name="all bodies",
            unit="tokens",
        )
        times = measure(lambda: context.block_for(PROMPTS[0]), repeat=15)
        ms = median(times) * 1000
        ok = (
            report(
                "skills index for one prompt (50 skills)",
                ms,
                INDEX_MS_TARGET,
                1.0,
                baseline_name="budget",
                unit="ms",
            )
            and ok
        )
        return ok


if __name__ == "__main__":
    raise SystemExit(0 if main() else 1)
