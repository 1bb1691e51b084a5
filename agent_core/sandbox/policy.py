"""What a sandboxed command may touch: pure data, built from the project and settings.

The OS backends (bubblewrap, Landlock, Seatbelt) enforce a ``SandboxPolicy``;
nothing here touches the system except looking at which paths exist.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Literal

import msgspec

# Under the user's home: credentials no command needs to read.
SECRET_HOME_PATHS = (
    ".ssh",
    ".aws",
    ".gnupg",
    ".azure",
    ".kube",
    ".docker",
    ".config/gcloud",
    ".config/gh",
    ".config/hub",
    ".config/git/credentials",
    ".git-credentials",
    ".netrc",
    ".npmrc",
    ".pypirc",
    ".pgpass",
    ".vault-token",
    ".cargo/credentials",
    ".cargo/credentials.toml",
    ".gem/credentials",
    ".claude/.credentials.json",
)
# In MEWCODE_HOME, what commands may still read (everything else there is hidden:
# credentials, settings, other sessions, logs, cache, memory, the warm-start server's
# sockets). The session's own folder is let back in by session.py.
MEWCODE_VISIBLE = ("skills",)
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
# The shared temp directory that the session's own one stands in for.
SHARED_TMP = "/tmp"
# The variables programs take their temp dir from.
TEMP_VARS = ("TMPDIR", "TMP", "TEMP")

PathKind = Literal["file", "dir"]
# In every writable working root (the project, extra directories): files that start
# programs, kept unwritable whether they exist or not. git runs hooks and config-named
# programs; MewCode, Claude Code, editors and direnv load settings, hooks and servers.
PROTECTED_IN_ROOT: tuple[tuple[str, PathKind], ...] = (
    (".mewcode", "dir"),
    (".claude", "dir"),
    (".mcp.json", "file"),
    (".gitmodules", "file"),
    (".envrc", "file"),
    (".vscode", "dir"),
    (".idea", "dir"),
    (".husky", "dir"),
    # Hook managers' own settings: the hooks they install run what these say.
    (".pre-commit-config.yaml", "file"),
    ("lefthook.yml", "file"),
    (".lefthook.yml", "file"),
    ("lefthook-local.yml", "file"),
)
# What the guard only reports when a command changed it where the sandbox could not stop
# it: the programs they start ask first (editors' workspace trust, `direnv allow`), and
# editors rewrite them on their own while a command runs.
REPORT_ONLY = frozenset({".vscode", ".idea", ".envrc", ".gitmodules"})
# Inside every git directory (the project's, nested repositories').
PROTECTED_IN_GIT_DIR: tuple[tuple[str, PathKind], ...] = (
    ("hooks", "dir"),
    ("config", "file"),
    ("config.worktree", "file"),
    ("commondir", "file"),
)
# The hooks git runs (githooks(5)).
GIT_HOOK_NAMES = (
    "applypatch-msg", "pre-applypatch", "post-applypatch", "pre-commit", "pre-merge-commit",
    "prepare-commit-msg", "commit-msg", "post-commit", "pre-rebase", "post-checkout",
    "post-merge", "pre-push", "pre-receive", "update", "proc-receive", "post-receive",
    "post-update", "reference-transaction", "push-to-checkout", "pre-auto-gc", "post-rewrite",
    "sendemail-validate", "fsmonitor-watchman", "p4-changelist", "p4-prepare-changelist",
    "p4-post-changelist", "p4-pre-submit", "post-index-change",
)  # fmt: skip
# Under the home directory, when it lies inside a writable root: the shell's and git's
# start-up files.
PROTECTED_IN_HOME: tuple[tuple[str, PathKind], ...] = (
    (".bashrc", "file"),
    (".bash_profile", "file"),
    (".bash_login", "file"),
    (".bash_logout", "file"),
    (".profile", "file"),
    (".zshrc", "file"),
    (".zprofile", "file"),
    (".zshenv", "file"),
    (".zlogin", "file"),
    (".zlogout", "file"),
    (".gitconfig", "file"),
    (".config/git", "dir"),
    (".config/fish", "dir"),
)


class Protected(msgspec.Struct, frozen=True, array_like=True):
    """A path no command may write, existing or not; ``kind`` is what it is (or would be).

    ``put_back``: where the sandbox cannot keep it read-only, the guard undoes a change
    (what git runs by itself, and what loosens MewCode's own rules); else it reports it.
    """

    path: str
    kind: PathKind
    put_back: bool = True


class SandboxPolicy(msgspec.Struct, frozen=True):
    """Absolute, resolved paths. Everything is readable and nothing is writable, except:

    a path is writable when the deepest ``writable``/``read_only`` entry holding it is a
    ``writable`` one (so a scratch dir inside a read-only MEWCODE_HOME inside /tmp is
    writable), and a path under a ``hidden`` entry cannot be read or written at all,
    unless a deeper ``writable``/``read_only`` entry lets it back in.

    ``protected`` paths are never writable: where one exists it is read-only, where it
    does not, bubblewrap mounts an empty read-only stand-in so it cannot be created
    (Landlock cannot: the guard in guarded_files.py puts back what a command changed).
    ``temp_dir`` is the session's own temp directory: commands see it as /tmp and $TMPDIR
    (bubblewrap), or get it as $TMPDIR with the shared /tmp read-only (Landlock, Seatbelt).
    """

    writable: tuple[str, ...]
    read_only: tuple[str, ...] = ()
    hidden: tuple[str, ...] = ()
    network: bool = True
    # Writable directories kept as mount points where the backend can (bubblewrap), so
    # a command cannot rename them away with the read-only entries inside (.git).
    pinned: tuple[str, ...] = ()
    protected: tuple[Protected, ...] = ()
    temp_dir: str | None = None
    # Where the guard moves what a command wrote to a protected path (this session's).
    quarantine: str | None = None
    # What git's core.hooksPath makes hooks of (folders, or hook files by name): the file
    # tools ask before writing there, in every mode.
    hooks_paths: tuple[str, ...] = ()
    # Unix sockets the user lets commands reach (sandbox.allowUnixSockets). Landlock
    # cannot allow single paths: with any entry, it lets every Unix socket be reached.
    unix_sockets: tuple[str, ...] = ()


def _real(path: Path | str) -> str:
    return os.path.realpath(os.path.expanduser(str(path)))


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def _programs_in_tmp() -> list[str]:
    found = [sys.prefix, sys.base_prefix, *os.environ.get("PATH", "").split(os.pathsep)]
    real = [_real(p) for p in found if p and os.path.isabs(p)]
    return [p for p in dict.fromkeys(real) if _inside(p, SHARED_TMP) and os.path.isdir(p)]


def protected_in_git_dir(git_dir: str) -> list[Protected]:
    """What a command may not write inside one git directory."""
    return [Protected(os.path.join(git_dir, rel), kind) for rel, kind in PROTECTED_IN_GIT_DIR]


def protected_in_root(root: str) -> list[Protected]:
    """What a command may not write in one working root: settings and git's own files."""
    found = [
        Protected(os.path.join(root, rel), kind, put_back=rel not in REPORT_ONLY)
        for rel, kind in PROTECTED_IN_ROOT
    ]
    found += protected_in_git_dir(os.path.join(root, ".git"))
    return found


def hooks_dir_protection(directory: str, writable: list[str]) -> list[Protected]:
    """A ``core.hooksPath`` directory: kept whole, or, where it holds a writable root
    (``core.hooksPath = .``), the hook files in it by name."""
    if not any(_inside(root, directory) for root in writable):
        return [Protected(directory, "dir")]
    return [Protected(os.path.join(directory, name), "file") for name in GIT_HOOK_NAMES]


def protected_in_home(home: str) -> list[Protected]:
    return [Protected(os.path.join(home, rel), kind) for rel, kind in PROTECTED_IN_HOME]


def secret_paths(home: str, extra: Iterable[str] = ()) -> list[str]:
    """The credentials hidden from every command: the defaults and ``sandbox.hiddenPaths``."""
    found = [os.path.join(home, rel) for rel in SECRET_HOME_PATHS]
    for entry in extra:
        text = os.path.join(home, entry[2:]) if entry.startswith("~/") else entry
        if os.path.isabs(text):
            found.append(text)
    return found


def sandbox_policy(
    project: Path,
    additional_dirs: Iterable[Path],
    scratch: Path,
    home: Path,
    mewcode_home: Path,
    network: bool = True,
    temp_dir: Path | None = None,
    *,
    hidden_paths: Iterable[str] = (),
    protected_dirs: Iterable[Path] = (),
    unix_sockets: Iterable[str] = (),
) -> SandboxPolicy:
    """The policy for one session's commands.

    ``temp_dir`` is the session's private temp dir (default: ``scratch``);
    ``hidden_paths`` adds to the hidden credentials; ``protected_dirs`` adds directories
    that start programs (a ``core.hooksPath``); ``unix_sockets``: sockets commands may reach
    (absolute or ``~/`` paths).
    """
    project_s = _real(project)
    roots = [project_s]
    for extra in additional_dirs:
        roots.append(_real(project / Path(os.path.expanduser(str(extra)))))
    roots = list(dict.fromkeys(roots))
    temp_s = _real(temp_dir or scratch)
    writable = list(dict.fromkeys([*roots, _real(scratch), temp_s]))
    home_s, mew_s = _real(home), _real(mewcode_home)
    read_only: list[str] = []
    # Home stays read-only even when it sits inside a writable root, except for the
    # parts that are themselves writable roots; it must stay visible in a private /tmp.
    if any(_inside(home_s, w) and home_s != w for w in writable) or _inside(home_s, SHARED_TMP):
        read_only.append(home_s)
    # What commands run from must stay visible in the private /tmp: $PATH's folders there
    # and this Python's install (a checkout with its .venv under /tmp).
    read_only += [p for p in _programs_in_tmp() if not any(_inside(p, w) for w in writable)]
    protected: list[Protected] = []
    for root in roots:
        protected += protected_in_root(root)
    hooks: list[Protected] = []
    for directory in protected_dirs:
        hooks += hooks_dir_protection(_real(directory), writable)
    protected += hooks
    if any(_inside(home_s, w) for w in writable):
        protected += protected_in_home(home_s)
    pinned: list[str] = []
    git_dir = os.path.join(project_s, ".git")
    if os.path.isdir(git_dir) and not os.path.islink(git_dir):
        writable.append(git_dir)  # writable as before, but a mount point: it cannot be renamed
        pinned.append(git_dir)
    hidden = secret_paths(home_s, hidden_paths)
    hidden.append(mew_s)
    read_only += [os.path.join(mew_s, name) for name in MEWCODE_VISIBLE]
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
        protected=tuple(dict.fromkeys(protected)),
        temp_dir=temp_s,
        hooks_paths=tuple(dict.fromkeys(entry.path for entry in hooks)),
        unix_sockets=tuple(dict.fromkeys(_under_home(path, home) for path in unix_sockets)),
    )


def _under_home(path: str, home: Path) -> str:
    """``~/x`` as a path under ``home`` (the session's, not $HOME's), resolved."""
    if path.startswith("~/"):
        path = str(home) + path[1:]
    return os.path.realpath(path)


def read_only_policy(session: SandboxPolicy, writable: Iterable[str] = ()) -> SandboxPolicy:
    """The session's policy for what MewCode itself runs confined (its git, ripgrep):
    hidden paths stay hidden; no network; nothing writable but ``writable`` (not even the
    temp dir); no Unix socket let in. With nothing else writable no guard is needed (and
    none runs: the guard reads configs through MewCode's git)."""
    return msgspec.structs.replace(
        session,
        writable=tuple(dict.fromkeys(os.path.realpath(w) for w in writable)),
        pinned=(),
        network=False,
        protected=(),
        temp_dir=None,
        unix_sockets=(),
    )
