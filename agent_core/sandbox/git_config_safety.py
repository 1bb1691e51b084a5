"""Which git configuration a command may have written: positive knowledge only.

A repository a command creates (``git init``, ``git clone``, a nested ``.git``) gets a
config that the user's own git reads later, outside any sandbox. What ``git init``,
``git clone``, ``git remote``, ``git branch -u`` and ``git config user.*`` write is
known to run nothing; any other key (``core.fsmonitor``, ``filter.*``, ``core.hooksPath``,
``include.path``, ``remote.*.uploadpack``...) is treated as one that may run a program.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agent_core.sandbox.policy import SandboxPolicy

# section.key, matched case-insensitively (git's section and key names are).
SAFE_KEYS = frozenset({
    "core.repositoryformatversion", "core.filemode", "core.bare", "core.logallrefupdates",
    "core.ignorecase", "core.precomposeunicode", "core.symlinks", "core.autocrlf", "core.eol",
    "core.safecrlf", "core.quotepath", "core.sharedrepository", "core.sparsecheckout",
    "core.sparsecheckoutcone", "core.untrackedcache", "core.commitgraph", "core.abbrev",
    "core.checkstat", "core.trustctime", "core.splitindex", "core.multipackindex",
    "extensions.objectformat", "extensions.worktreeconfig", "extensions.partialclone",
    "extensions.refstorage", "extensions.noop",
    "user.name", "user.email", "init.defaultbranch",
    "pull.rebase", "pull.ff", "push.default", "push.autosetupremote", "fetch.prune",
    "merge.ff", "rebase.autosquash", "rebase.autostash", "diff.renames", "diff.algorithm",
    "status.showuntrackedfiles", "status.branch", "status.short", "gc.auto",
    "protocol.version", "index.version", "lfs.repositoryformatversion", "submodule.active",
    "commit.template", "log.decorate",
})  # fmt: skip
# section.<name>.key: the name is the user's (a remote, a branch, a submodule).
SAFE_NAMED_KEYS = frozenset({
    "remote.url", "remote.pushurl", "remote.fetch", "remote.push", "remote.tagopt",
    "remote.prune", "remote.mirror", "remote.promisor", "remote.partialclonefilter",
    "branch.remote", "branch.merge", "branch.rebase", "branch.pushremote",
    "branch.description", "submodule.url", "submodule.active", "submodule.path",
    "submodule.branch",
})  # fmt: skip
# Sections with nothing but display settings.
SAFE_SECTIONS = frozenset({"advice", "color", "i18n"})


def key_is_safe(key: str) -> bool:
    """Whether a config key (as ``git config --list`` prints it) is known to run nothing."""
    low = key.lower()
    section, _, rest = low.partition(".")
    if section in SAFE_SECTIONS:
        return True
    if "." not in rest:
        return low in SAFE_KEYS
    name_key = rest.rsplit(".", 1)[1]
    return f"{section}.{name_key}" in SAFE_NAMED_KEYS


def config_entries(path: Path, policy: SandboxPolicy) -> list[tuple[str, str]] | None:
    """(key, value) of what one config file sets (no includes), read by MewCode's contained
    git; None when it cannot be read as a git config, or git cannot run contained."""
    from agent_core.git.contained import GitUnavailable, run_git_sync

    try:
        done = run_git_sync(
            ["config", "--file", str(path), "--no-includes", "--list", "-z"], path.parent, policy
        )
    except GitUnavailable:
        return None
    if done.returncode != 0:
        return None
    entries = [e for e in done.stdout.decode("utf-8", "replace").split("\0") if e]
    return [(k, v) for k, _, v in (entry.partition("\n") for entry in entries)]


def config_keys(path: Path, policy: SandboxPolicy) -> list[str] | None:
    """The keys a config file sets (that file only); None when it is not a git config."""
    entries = config_entries(path, policy)
    return None if entries is None else [key for key, _ in entries]


def unsafe_keys(path: Path, policy: SandboxPolicy) -> list[str] | None:
    """The keys of a config file not known to be safe ([] when all are); None when the
    file cannot be read as a git config (which counts as unsafe)."""
    keys = config_keys(path, policy)
    if keys is None:
        return None
    return [key for key in dict.fromkeys(keys) if not key_is_safe(key)]
