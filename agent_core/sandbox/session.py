"""The sandbox of one session: its policy, its scratch directory, and which modes it permits."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

import msgspec

from agent_core.config.paths import MewcodePaths
from agent_core.config.settings import RuleEntry, Settings
from agent_core.errors import MewCodeError
from agent_core.modes import Mode
from agent_core.sandbox.denied_reads import denied_read_paths
from agent_core.sandbox.git_dirs import gitdir_pointer, nested_git_dirs, repo_config_facts
from agent_core.sandbox.policy import (
    Protected,
    SandboxPolicy,
    protected_in_git_dir,
    sandbox_policy,
)
from agent_core.sandbox.status import SandboxStatus

SCRATCH_DIR = "scratch"


def scratch_dir(session_dir: Path) -> Path:
    """The session's own writable directory (0700), created on first use."""
    path = session_dir / SCRATCH_DIR
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(path, 0o700)
    return path


def session_policy(
    paths: MewcodePaths,
    settings: Settings,
    session_dir: Path,
    home: Path | None = None,
    *,
    create: bool = True,
    rules: Iterable[RuleEntry] = (),
    hooks_dirs: Iterable[Path] | None = None,
) -> SandboxPolicy:
    """What this session's commands may write, read and reach (``create``: make the scratch dir).

    ``hooks_dirs`` are the directories git's ``core.hooksPath`` names for this project
    (read from git's config when not given).
    """
    home = home if home is not None else Path.home()
    policy = _base_policy(paths, settings, session_dir, home, create, hooks_dirs or ())
    included: list[Path] = []
    if hooks_dirs is None:
        # core.hooksPath and included config files, as MewCode's own (contained) git reads
        # them under the policy so far: the user's git runs what they name.
        facts = repo_config_facts(paths.project, policy)
        included = facts.included_files
        if facts.hooks_dirs:
            policy = _base_policy(paths, settings, session_dir, home, create, facts.hooks_dirs)
    if create:
        _make_protectable(paths.project)
    denied = denied_read_paths([*settings.rules, *rules], paths.project, home)
    git_dirs = nested_git_dirs(paths.project)
    if (pointer := gitdir_pointer(paths.project / ".git")) is not None:
        git_dirs.append(str(pointer))  # a worktree or submodule checkout: its git dir
    nested = [p for d in git_dirs for p in protected_in_git_dir(d)]
    writable = policy.writable
    nested += [
        Protected(str(file), "file")
        for file in included
        if any(str(file).startswith(root.rstrip("/") + "/") for root in writable)
    ]
    # Nested repositories' .git folders are mount points too (bubblewrap): renamed away,
    # they would take their read-only hooks and config with them.
    pins = [d for d in git_dirs if os.path.basename(d) == ".git" and os.path.isdir(d)]
    # MEWCODE_HOME is hidden whole; this session's own folder is let back in, read-only
    # but for its scratch dir (tool-results/ stays readable). The quarantine is not.
    quarantine = paths.home / "quarantine" / paths.project_key / session_dir.name
    return msgspec.structs.replace(
        policy,
        writable=(*policy.writable, *pins),
        pinned=(*policy.pinned, *pins),
        read_only=(*policy.read_only, os.path.realpath(session_dir)),
        hidden=(*policy.hidden, *denied),
        protected=(*policy.protected, *nested),
        quarantine=os.path.realpath(quarantine),
    )


def _base_policy(
    paths: MewcodePaths,
    settings: Settings,
    session_dir: Path,
    home: Path,
    create: bool,
    hooks_dirs: Iterable[Path],
) -> SandboxPolicy:
    return sandbox_policy(
        project=paths.project,
        additional_dirs=[Path(d) for d in settings.additional_directories],
        scratch=scratch_dir(session_dir) if create else session_dir / SCRATCH_DIR,
        home=home,
        mewcode_home=paths.home,
        network=settings.sandbox_network,
        hidden_paths=settings.hidden_paths,
        protected_dirs=hooks_dirs,
        unix_sockets=settings.allow_unix_sockets,
    )


def _make_protectable(project: Path) -> None:
    """An empty ``.mewcode/`` (git ignores empty directories) so the sandbox can keep it
    read-only: a command must not plant settings that a later session would load."""
    try:
        (project / ".mewcode").mkdir(exist_ok=True)
    except OSError:
        pass  # a read-only project: nothing can be planted either


def unsandboxed_bypass_error(
    mode: Mode, settings: Settings, sandbox: SandboxStatus
) -> MewCodeError | None:
    """Why bypassPermissions may not start here, or None when it may.

    Bypass means "no prompts", never "no boundary": without an OS sandbox, or under
    Landlock with ``sandbox.allowUnixSockets`` (which opens every Unix socket: the
    user's tmux server would run anything outside), it needs the user's explicit
    ``sandbox.allowUnsandboxed: true``.
    """
    if mode != "bypassPermissions" or settings.allow_unsandboxed:
        return None
    if not sandbox.available:
        return MewCodeError(
            "bypassPermissions needs an OS sandbox and none is available on this machine "
            "(see `mewcode sandbox check`); install bubblewrap, or set "
            "sandbox.allowUnsandboxed: true in ~/.mewcode/settings.yaml to run without one"
        )
    if sandbox.backend == "landlock" and settings.allow_unix_sockets:
        return MewCodeError(
            "bypassPermissions needs Unix sockets shut, and sandbox.allowUnixSockets opens "
            "them all under Landlock (see `mewcode sandbox check`); remove it, install "
            "bubblewrap, or set sandbox.allowUnsandboxed: true in ~/.mewcode/settings.yaml "
            "to run with them open"
        )
    return None


UNSANDBOXED_NOTICE = (
    "no OS sandbox is available on this machine: commands run unconfined "
    "(see `mewcode sandbox check`)"
)
