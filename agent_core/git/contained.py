"""Every git command MewCode itself runs (not the model's: those are Bash calls) goes through here.

MewCode's own git runs outside the agent's turn, on a repository a sandboxed command
may have changed, or that came from a stranger: its config could name programs. So
each run is

- confined by the machine's OS sandbox (agent_core.sandbox), with the session's
  policy made stricter: no network and no writes, except the directories a caller
  names (a side repository of its own, later);
- run with every config-driven program off (``overrides``): the config git will read
  is listed first, contained too (reading config runs nothing), so that each filter,
  diff and merge driver it names is neutralised by name;
- started with a clean environment and a git found outside the writable roots
  (``environment``).

Where git cannot run contained (no sandbox backend, or it cannot be applied), nothing
runs and ``GitNotContained`` says why. The lists of config names are read afresh for
each run: a cache would have to know every file git reads (includes, a ``.git`` a
command created above the project...), and a stale one would let a driver through.
A config changed between the listing and the command (by a background shell) could
still name a driver the listing missed: it would run, but confined like git itself.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

import msgspec

from agent_core.errors import MewCodeError
from agent_core.git.environment import git_environment, trusted_path
from agent_core.git.overrides import (
    STATIC_OVERRIDES,
    config_env,
    config_overrides,
    parse_config_names,
)
from agent_core.sandbox.launch import LaunchFailed, start_confined
from agent_core.sandbox.policy import SandboxPolicy, read_only_policy

DEFAULT_TIMEOUT_S = 10.0
KILL_WAIT_S = 2.0  # after a timeout's SIGKILL, for the pipes to close
# Options before the subcommand on every run: no pager, no lock to refresh the index.
GLOBAL_OPTIONS = ("--no-pager", "--no-optional-locks")
LIST_CONFIG_NAMES = ("config", "--list", "--name-only", "-z", "--includes")
NOT_CONTAINED_HINT = "see `mewcode sandbox check`"


class GitResult(msgspec.Struct, frozen=True):
    """How one git command ended: its exit status and what it wrote."""

    returncode: int
    stdout: bytes
    stderr: bytes

    @property
    def ok(self) -> bool:
        return self.returncode == 0

    def text(self) -> str:
        """stdout as text (undecodable bytes replaced)."""
        return self.stdout.decode(errors="replace")

    def problem(self) -> str:
        """The first line git wrote to stderr, or its exit status when it wrote nothing."""
        lines = self.stderr.decode(errors="replace").strip().splitlines()
        return lines[0] if lines else f"git exited with status {self.returncode}"


class GitUnavailable(MewCodeError):
    """git could not be run the way MewCode runs it (not found, too slow, not contained)."""


class GitNotContained(GitUnavailable):
    """git would have to run outside an OS sandbox here, so it was not run."""


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def contained_policy(session: SandboxPolicy, writable: Sequence[Path] = ()) -> SandboxPolicy:
    """The session's policy for MewCode's git: no network, nothing writable but
    ``writable`` (sandbox/policy.py read_only_policy)."""
    return read_only_policy(session, [str(w) for w in writable])


def hidden_pathspecs(policy: SandboxPolicy, cwd: Path) -> list[str]:
    """Pathspecs leaving out the hidden paths inside cwd (files a Read deny rule covers):
    git, which cannot read them, would report them changed and show their old content."""
    root = os.path.realpath(cwd)
    inside = [h for h in policy.hidden if _inside(h, root) and h != root]
    return [f":(exclude,literal){os.path.relpath(h, root)}" for h in inside]


def find_git(session: SandboxPolicy, path_env: str) -> tuple[str, list[str]]:
    """(git's resolved path, the PATH git gets): both outside the session's writable roots."""
    path = trusted_path(path_env, session.writable)
    found = shutil.which("git", path=os.pathsep.join(path))
    real = os.path.realpath(found) if found else None
    if real is None or any(_inside(real, root) for root in session.writable):
        raise GitUnavailable(
            "git is not installed (none on PATH outside the directories commands can write)"
        )
    return real, path


def _kill(popen: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(popen.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _launch(
    argv: list[str], cwd: Path, policy: SandboxPolicy, env: dict[str, str], timeout_s: float
) -> GitResult:
    """argv confined by the policy; waits for it (killed after timeout_s)."""
    from agent_core.sandbox.selection import sandbox_backend

    if sandbox_backend().name == "none":
        raise GitNotContained(f"no OS sandbox on this machine ({NOT_CONTAINED_HINT})")
    try:
        popen, confinement = start_confined(
            argv,
            cwd,
            env,
            policy,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
    except LaunchFailed as exc:
        raise (GitNotContained if exc.confinement else GitUnavailable)(str(exc)) from None
    try:
        out, err = popen.communicate(timeout=max(timeout_s, 0.0))
    except subprocess.TimeoutExpired:
        _kill(popen)
        confinement.ended()
        try:
            popen.communicate(timeout=KILL_WAIT_S)
        except subprocess.TimeoutExpired:
            pass  # a leftover holds the pipes open: the sandbox's own clean-up ends it
        raise GitUnavailable(
            f"git {argv_subcommand(argv)} took longer than {timeout_s:g}s"
        ) from None
    finally:
        confinement.ended()
    return GitResult(popen.returncode, out, err)


def argv_subcommand(argv: Sequence[str]) -> str:
    """The subcommand of a git argv (past its options), for messages."""
    words = iter(argv[1:])
    for word in words:
        if word in ("-c", "-C"):
            next(words, None)
        elif not word.startswith("-"):
            return word
    return "command"


def run_git_sync(
    args: Sequence[str],
    cwd: Path,
    policy: SandboxPolicy,
    *,
    writable: Sequence[Path] = (),
    timeout_s: float = DEFAULT_TIMEOUT_S,
    environ: Mapping[str, str] | None = None,
) -> GitResult:
    """``git args`` in cwd, contained, with every config-driven program off.

    ``policy`` is the session's (or ``sandbox_policy``'s when there is no session);
    raises GitNotContained where git cannot run confined, GitUnavailable where it
    cannot run at all. A failing config listing is returned as the result.
    """
    environ = os.environ if environ is None else environ
    git, path = find_git(policy, environ.get("PATH", os.defpath))
    confined = contained_policy(policy, writable)
    deadline = time.monotonic() + timeout_s
    listed = _launch(
        [git, *GLOBAL_OPTIONS, *LIST_CONFIG_NAMES],
        cwd,
        confined,
        git_environment(environ, path, config_env(STATIC_OVERRIDES)),
        timeout_s,
    )
    if not listed.ok:
        return listed
    overrides = config_overrides(parse_config_names(listed.stdout))
    return _launch(
        [git, *GLOBAL_OPTIONS, *args],
        cwd,
        confined,
        git_environment(environ, path, config_env(overrides)),
        deadline - time.monotonic(),
    )


async def run_git(
    args: Sequence[str],
    cwd: Path,
    policy: SandboxPolicy,
    *,
    writable: Sequence[Path] = (),
    timeout_s: float = DEFAULT_TIMEOUT_S,
) -> GitResult:
    """``run_git_sync`` in a worker thread (which waits for git, so bubblewrap's
    die-with-parent holds)."""
    return await asyncio.to_thread(
        run_git_sync, args, cwd, policy, writable=writable, timeout_s=timeout_s
    )


def git_config_values_sync(
    key: str,
    cwd: Path,
    policy: SandboxPolicy,
    *,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    environ: Mapping[str, str] | None = None,
) -> list[str]:
    """Every value of ``key`` in the config git reads in cwd (``git config --get-all``), [] if
    unset. Contained like any run; raises GitUnavailable when git fails otherwise."""
    environ = os.environ if environ is None else environ
    git, path = find_git(policy, environ.get("PATH", os.defpath))
    result = _launch(
        [git, *GLOBAL_OPTIONS, "config", "--get-all", "--show-scope", "-z", "--includes", key],
        cwd,
        contained_policy(policy),
        git_environment(environ, path, config_env(STATIC_OVERRIDES)),
        timeout_s,
    )
    if result.returncode == 1 and not result.stderr:
        return []  # the key is not set
    if not result.ok:
        raise GitUnavailable(f"git config --get-all {key}: {result.problem()}")
    fields = result.stdout.split(b"\0")[:-1]  # scope, value, scope, value...
    # The "command" scope holds MewCode's own overrides, not the repository's settings.
    pairs = zip(fields[::2], fields[1::2], strict=True)
    return [os.fsdecode(value) for scope, value in pairs if scope != b"command"]


async def git_config_values(
    key: str, cwd: Path, policy: SandboxPolicy, *, timeout_s: float = DEFAULT_TIMEOUT_S
) -> list[str]:
    """``git_config_values_sync`` in a worker thread."""
    return await asyncio.to_thread(git_config_values_sync, key, cwd, policy, timeout_s=timeout_s)
