"""The mounts bubblewrap lays out for a SandboxPolicy: pure, given what exists on disk.

Over a read-only root: the session's private temp dir at /tmp, the writable roots
bound back read-write, read-only entries (existing protected paths among them)
read-only again, hidden paths covered, and an empty read-only stand-in where a
protected path does not exist. Mounts go shallow to deep so the deepest entry wins.

Under a private /tmp the host's /tmp is gone, so every entry that lies in it is bound
whatever its mode (a read-only home in /tmp must stay visible), and a hidden path in
it that no entry brings back needs no cover of its own.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from typing import Literal

from agent_core.sandbox.policy import SHARED_TMP, SandboxPolicy

PathKind = Literal["dir", "file"] | None
KindOf = Callable[[str], PathKind]


def path_kind(path: str) -> PathKind:
    """ "dir", "file" (anything that is not a directory) or None when nothing is there."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    return "dir" if stat.S_ISDIR(mode) else "file"


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def _depth(path: str) -> int:
    return path.rstrip("/").count("/")  # absolute, normalised paths


def _in_private_tmp(policy: SandboxPolicy, path: str) -> bool:
    return policy.temp_dir is not None and _inside(path, SHARED_TMP)


def _modes(policy: SandboxPolicy) -> dict[str, bool]:
    """Every writable (True) and read-only (False) entry; listed both ways is read-only."""
    mode: dict[str, bool] = {path: True for path in policy.writable}
    mode.update({path: False for path in policy.read_only})
    mode.update({entry.path: False for entry in policy.protected})
    return mode


def effective_hidden(policy: SandboxPolicy, kind: KindOf = path_kind) -> list[str]:
    """The hidden paths that need covering: existing, and not already gone with /tmp."""
    entries = [p for p in _modes(policy) if kind(p) is not None]
    found = []
    for hidden in dict.fromkeys(policy.hidden):
        if kind(hidden) is None:
            continue
        if _in_private_tmp(policy, hidden) and not any(
            _inside(hidden, e) and e != hidden for e in entries
        ):
            continue  # nothing in the private /tmp brings it back: invisible already
        found.append(hidden)
    return found


def mount_layers(policy: SandboxPolicy, kind: KindOf = path_kind) -> list[tuple[str, bool]]:
    """(path, writable) binds to lay over a read-only root, shallow to deep.

    An entry that changes nothing (read-only under read-only, writable under writable)
    or that does not exist, or that lies under a hidden path, is left out.
    """
    mode = _modes(policy)
    hidden = effective_hidden(policy, kind)
    layers: list[tuple[str, bool]] = []
    for path in sorted(mode, key=_depth):
        if kind(path) is None or any(_inside(path, h) for h in hidden):
            continue
        holders = [p for p in mode if p != path and _inside(path, p)]
        if _in_private_tmp(policy, path):
            # The host's /tmp is not there: only entries bound inside it are.
            holders = [p for p in holders if _inside(p, SHARED_TMP) and kind(p) is not None]
            if not holders:
                layers.append((path, mode[path]))
                continue
        inherited = mode[max(holders, key=_depth)] if holders else False
        if mode[path] != inherited or path in policy.pinned:
            layers.append((path, mode[path]))
    return layers


def hidden_mounts(policy: SandboxPolicy, kind: KindOf = path_kind) -> list[tuple[str, PathKind]]:
    """(path, kind) of the hidden paths to cover: outermost only, shallow first."""
    present = [(h, kind(h)) for h in effective_hidden(policy, kind)]
    outer = [(h, k) for h, k in present if not any(o != h and _inside(h, o) for o, _ in present)]
    return sorted(outer, key=lambda entry: _depth(entry[0]))


def reexposed(
    policy: SandboxPolicy, hidden: str, kind: KindOf = path_kind
) -> list[tuple[str, bool]]:
    """(path, writable) entries lying inside a hidden directory, shallow to deep."""
    entries = [(p, True) for p in policy.writable] + [(p, False) for p in policy.read_only]
    inner = [(p, w) for p, w in entries if p != hidden and _inside(p, hidden) and kind(p)]
    return sorted(dict(inner).items(), key=lambda entry: _depth(entry[0]))


def placeholders(policy: SandboxPolicy, kind: KindOf = path_kind) -> list[tuple[str, str]]:
    """(path, "dir") of the protected folders to stand in for: missing, in a writable
    place, and with their parent there (a placeholder never makes its parents).

    Only folders: an empty folder is invisible to git, but a file stand-in (.mcp.json,
    .gitmodules) would be picked up by a command's `git add -A` and committed; a missing
    protected file is left to the guard (guarded_files.py), which moves out what a
    command created there."""
    hidden = effective_hidden(policy, kind)
    found: list[tuple[str, str]] = []
    for entry in dict.fromkeys(policy.protected):
        path = entry.path
        if entry.kind != "dir" or kind(path) is not None:
            continue
        if kind(os.path.dirname(path)) != "dir" or any(_inside(path, h) for h in hidden):
            continue
        if writable_at(policy, path):
            found.append((path, entry.kind))
    return sorted(found, key=lambda item: _depth(item[0]))


def writable_at(policy: SandboxPolicy, path: str) -> bool:
    """Whether the policy's other entries would leave ``path`` writable."""
    holders = [(p, True) for p in policy.writable] + [(p, False) for p in policy.read_only]
    holders += [(e.path, False) for e in policy.protected if e.path != path]
    holders = [(p, w) for p, w in holders if _inside(path, p)]
    if not holders:
        return False
    deepest = max(_depth(p) for p, _ in holders)
    return all(w for p, w in holders if _depth(p) == deepest)
