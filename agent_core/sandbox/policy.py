"""What a sandboxed command may touch: pure data, built from the project and settings.

The OS backends (bubblewrap, Landlock, Seatbelt) enforce a ``SandboxPolicy``;
nothing here touches the system.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

import msgspec

# Under the user's home: credentials no command needs to read.
SECRET_HOME_DIRS = (".ssh", ".aws", ".gnupg", ".azure", ".kube", ".docker", ".config/gcloud")
# In MEWCODE_HOME: what would let a command read the API key or loosen its own rules.
SECRET_MEWCODE_FILES = ("credentials.yaml", "settings.yaml", "settings.local.yaml")
# In MEWCODE_HOME: the warm-start server's sockets; it runs `mewcode` outside any sandbox
# (it refuses confined peers too: mewcode_tui/preload/confinement.py).
MEWCODE_DAEMON_DIRS = ("run",)
# Inside a writable project, still read-only: code git runs later, outside any sandbox.
PROTECTED_PROJECT_PATHS = (
    ".git/hooks",
    ".git/config",
    ".git/config.worktree",
    ".git/commondir",
    ".mewcode",
    ".mcp.json",
)
# Sockets of servers that would run a command outside the sandbox for us (tmux, D-Bus
# and systemd-run, docker, screen). {uid} is the user's.
DAEMON_SOCKETS = (
    "/tmp/tmux-{uid}",
    "/run/user/{uid}",
    "/run/dbus",
    "/run/systemd/private",
    "/run/docker.sock",
    "/run/containerd",
    "/run/screen",
)


class SandboxPolicy(msgspec.Struct, frozen=True):
    """Absolute, resolved paths. Everything is readable and nothing is writable, except:

    a path is writable when the deepest ``writable``/``read_only`` entry holding it is a
    ``writable`` one (so a scratch dir inside a read-only MEWCODE_HOME inside /tmp is
    writable), and a path under a ``hidden`` entry cannot be read or written at all,
    unless a deeper ``writable``/``read_only`` entry lets it back in (bubblewrap binds
    both back; Landlock only the writable ones).
    """

    writable: tuple[str, ...]
    read_only: tuple[str, ...] = ()
    hidden: tuple[str, ...] = ()
    network: bool = True
    # Writable directories kept as mount points where the backend can (bubblewrap), so
    # a command cannot rename them away with the read-only entries inside (.git).
    pinned: tuple[str, ...] = ()
    # Unix sockets the user lets commands reach (sandbox.allowUnixSockets). Landlock
    # cannot allow single paths: with any entry, it lets every Unix socket be reached.
    unix_sockets: tuple[str, ...] = ()


def _real(path: Path | str) -> str:
    return os.path.realpath(os.path.expanduser(str(path)))


def default_temp_dir() -> Path:
    """The temp dir commands will use: $TMPDIR (or TEMP, TMP) as it is now, else the system's.

    Read afresh each time: tempfile.gettempdir() caches its first answer.
    """
    for name in ("TMPDIR", "TEMP", "TMP"):
        value = os.environ.get(name)
        if value and os.path.isdir(value):
            return Path(value)
    return Path(tempfile.gettempdir())


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def sandbox_policy(
    project: Path,
    additional_dirs: Iterable[Path],
    scratch: Path,
    home: Path,
    mewcode_home: Path,
    network: bool = True,
    temp_dir: Path | None = None,
    unix_sockets: Iterable[str] = (),
) -> SandboxPolicy:
    """The policy for one session's commands (``unix_sockets``: absolute or ``~/`` paths)."""
    project_s = _real(project)
    writable = [project_s]
    for extra in additional_dirs:
        writable.append(_real(project / Path(os.path.expanduser(str(extra)))))
    writable.append(_real(scratch))
    writable.append(_real(temp_dir or default_temp_dir()))
    writable = list(dict.fromkeys(writable))
    home_s, mew_s = _real(home), _real(mewcode_home)
    read_only: list[str] = []
    # Home and MEWCODE_HOME stay read-only even when they sit inside a writable root
    # (a temp dir), except for the parts that are themselves writable roots.
    for guarded in (home_s, mew_s):
        if any(_inside(guarded, w) and guarded != w for w in writable):
            read_only.append(guarded)
    for rel in PROTECTED_PROJECT_PATHS:
        read_only.append(os.path.join(project_s, rel))
    pinned: list[str] = []
    git_dir = os.path.join(project_s, ".git")
    if os.path.isdir(git_dir) and not os.path.islink(git_dir):
        writable.append(git_dir)  # writable as before, but a mount point: it cannot be renamed
        pinned.append(git_dir)
    hidden = [os.path.join(home_s, rel) for rel in SECRET_HOME_DIRS]
    hidden += [os.path.join(mew_s, name) for name in SECRET_MEWCODE_FILES]
    hidden += [os.path.join(mew_s, name) for name in MEWCODE_DAEMON_DIRS]
    tmux_dir = os.environ.get("TMUX_TMPDIR")
    uid = os.getuid()
    sockets = [s.format(uid=uid) for s in DAEMON_SOCKETS]
    if tmux_dir:
        sockets.append(os.path.join(tmux_dir, f"tmux-{uid}"))
    # A symlinked ~/.ssh is hidden where it points (a mount cannot cover the link itself).
    hidden = [_real(path) for path in [*hidden, *sockets]]
    return SandboxPolicy(
        writable=tuple(writable),
        read_only=tuple(dict.fromkeys(read_only)),
        hidden=tuple(dict.fromkeys(hidden)),
        network=network,
        pinned=tuple(pinned),
        unix_sockets=tuple(dict.fromkeys(_under_home(path, home) for path in unix_sockets)),
    )


def _under_home(path: str, home: Path) -> str:
    """``~/x`` as a path under ``home`` (the session's, not $HOME's), resolved."""
    if path.startswith("~/"):
        path = str(home) + path[1:]
    return os.path.realpath(path)
