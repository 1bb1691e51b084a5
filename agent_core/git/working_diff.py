"""The working tree's changes against HEAD, as ``/review`` sends them to the model.

git runs contained, with every config-driven program off (agent_core.git.contained),
and paths the session hides stay out of the diff.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from agent_core.git.contained import GitNotContained, GitUnavailable, hidden_pathspecs, run_git

if TYPE_CHECKING:
    from agent_core.sandbox.policy import SandboxPolicy

DIFF_ARGS = (
    "diff",
    "HEAD",
    "--no-color",
    "--no-ext-diff",
    "--no-textconv",
    "--ignore-submodules=all",
)


async def working_tree_diff(cwd: Path, policy: SandboxPolicy) -> tuple[str | None, str]:
    """(diff, problem): the working tree's changes against HEAD, or why there are none."""
    specs = hidden_pathspecs(policy, cwd)
    try:
        result = await run_git([*DIFF_ARGS, "--", *specs] if specs else DIFF_ARGS, cwd, policy)
    except GitNotContained as exc:
        return None, f"git cannot run contained here: {exc}"
    except GitUnavailable as exc:
        return None, str(exc)
    if not result.ok:
        return None, result.problem()
    return result.text(), ""
