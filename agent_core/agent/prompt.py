"""System prompt assembly: a stable, cacheable block and a per-round environment block."""

from __future__ import annotations

import datetime as _dt
import logging
import platform
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from agent_core.llm.base import SystemBlock
from agent_core.modes import Mode

if TYPE_CHECKING:
    from agent_core.sandbox.policy import SandboxPolicy

log = logging.getLogger("mewcode.git")

STABLE_PROMPT = """\
You are MewCode, an AI coding agent working in the user's terminal, inside their project.
You help with software engineering: reading and explaining code, fixing bugs, adding features,
refactoring, running commands and tests.

How to work:
- Be concise. Answer in GitHub-flavoured Markdown; the terminal renders it.
- Look before you change: use Glob, Grep, LS and Read to understand the code first.
  Read a file before editing it; edits to files you have not read are refused.
- Prefer Edit/MultiEdit for changes to existing files and Write only for new files or
  complete rewrites. Keep changes minimal and in the project's style.
- Run commands with Bash (tests, builds, git). Never run destructive commands the user did
  not ask for. Long-running servers go in the background (run_in_background).
- Independent read-only calls can be made in parallel in one answer; they run concurrently.
- Every tool call passes a permission check. If a call is denied, the result says why:
  adapt (for example use a path inside the project) instead of retrying the same call.
- Use TodoWrite to plan and track multi-step work, keeping exactly one item in progress.
- When the task is done, say briefly what you changed and how you verified it.
"""

# Kept when --system-prompt replaces the text above: what this runtime does to calls,
# which a model that does not know it would fight (the environment block stays too).
RUNTIME_NOTES = """\
How this runtime works:
- Every tool call passes a permission check. If a call is denied, the result says why:
  adapt (for example use a path inside the project) instead of retrying the same call.
- Read a file before editing it; edits to files you have not read are refused.
- Commands run inside an OS sandbox: writes outside the project and its added folders fail.
"""


@dataclass(frozen=True)
class PromptChoice:
    """The stable block as the command line chose it: MewCode's own, replaced or added to."""

    replace: str | None = None  # --system-prompt: instead of STABLE_PROMPT (RUNTIME_NOTES stay)
    append: str | None = None  # --append-system-prompt: after it

    def stable_text(self) -> str:
        base = STABLE_PROMPT
        if self.replace is not None:
            base = f"{self.replace.rstrip()}\n\n{RUNTIME_NOTES}"
        return f"{base}\n{self.append.rstrip()}\n" if self.append else base


OWN_PROMPT = PromptChoice()  # MewCode's text, as is


PLAN_MODE_PROMPT = """\
Plan mode is active: you may only use read-only tools. Investigate, then present a concrete,
numbered implementation plan by calling ExitPlanMode with the plan in Markdown. Do not try to
edit files or run commands that change anything until the user approves the plan.
"""


STATUS_ARGS = ("status", "--porcelain", "--branch", "--ignore-submodules=all")
STATUS_TIMEOUT_S = 5.0


def git_summary(cwd: Path, policy: SandboxPolicy) -> str:
    """Branch and a short status, or why there is none; git runs contained (agent_core.git)."""
    from agent_core.git import GitNotContained, GitUnavailable, hidden_pathspecs, run_git_sync

    specs = hidden_pathspecs(policy, cwd)
    args = [*STATUS_ARGS, "--", *specs] if specs else list(STATUS_ARGS)
    try:
        out = run_git_sync(args, cwd, policy, timeout_s=STATUS_TIMEOUT_S)
    except GitNotContained as exc:
        log.debug("git status skipped: %s", exc)
        return "git: not checked (no sandbox)"
    except GitUnavailable as exc:
        log.debug("git status not run: %s", exc)
        return "git: unavailable"
    if out.returncode != 0:
        problem = out.problem()
        if "not a git repository" in problem:
            return "git: not a repository"
        return f"git: status failed ({problem})"
    lines = out.text().splitlines()
    head = lines[0].removeprefix("## ") if lines else "unknown branch"
    changed = len(lines) - 1
    return (
        f"git: branch {head}; {changed} changed file(s)"
        if changed
        else f"git: branch {head}; clean"
    )


def environment_block(
    cwd: Path,
    mode: Mode,
    *,
    git: str,
    extras: list[str] | None = None,
    today: _dt.date | None = None,
) -> str:
    today = today or _dt.date.today()
    lines = [
        "<environment>",
        f"working directory (project root): {cwd}",
        f"platform: {platform.system()} {platform.release()}",
        f"date: {today.isoformat()}",
        git,
        f"permission mode: {mode}",
        "</environment>",
    ]
    if mode == "plan":
        lines.append(PLAN_MODE_PROMPT)
    for extra in extras or []:
        lines.append(extra)
    return "\n".join(lines)


def system_blocks(
    cwd: Path,
    mode: Mode,
    *,
    git: str,
    extras: list[str] | None = None,
    choice: PromptChoice = OWN_PROMPT,
) -> list[SystemBlock]:
    """The stable block (cached by providers that support it) then the environment block."""
    return [
        SystemBlock(choice.stable_text(), cache=True),
        SystemBlock(environment_block(cwd, mode, git=git, extras=extras), cache=False),
    ]
