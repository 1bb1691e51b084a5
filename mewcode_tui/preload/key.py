"""The preload server's key: which interpreter, settings and installed code it serves.

Standard library only, built-in modules only, and fast (a few ms): every start of
the client computes it. A server is only ever asked by clients whose key matches
its own, so an edit of any source file, a theme, or an upgrade of a library is
never served stale.
"""

from __future__ import annotations

import os
import sys

from mewcode_tui.preload.confinement import confinement
from mewcode_tui.preload.dependency_state import key_material

try:  # the built-in module: hashlib would load OpenSSL, ~3 ms of the client's start
    from _sha2 import sha256  # Python 3.12+
except ImportError:
    try:
        from _sha256 import sha256  # Python 3.11
    except ImportError:  # a build without it
        from hashlib import sha256

# Our own packages: every file that can change what a run does.
PACKAGES = ("agent_core", "mewcode_tui")
CODE_SUFFIXES = (".py", ".tcss", ".yaml", ".md")


def source_root() -> str:
    """The directory holding agent_core/ and mewcode_tui/ (a checkout or site-packages)."""
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))


def _walk(directory: str, digest) -> None:
    try:
        entries = sorted(os.scandir(directory), key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            if entry.name != "__pycache__" and not entry.name.startswith("."):
                _walk(entry.path, digest)
        elif entry.name.endswith(CODE_SUFFIXES):
            st = entry.stat()
            digest.update(f"{entry.path}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())


def _installed_dists(digest) -> None:
    """Every installed distribution's dist-info (name-version) and mtime: an upgrade or a
    reinstall of any library the server has imported, or may import, means a new key."""
    for entry in sys.path:
        if not entry.endswith("-packages"):
            continue
        try:
            names = sorted(os.listdir(entry))
        except OSError:
            continue
        for name in names:
            if name.endswith(".dist-info"):
                path = os.path.join(entry, name)
                try:
                    digest.update(f"{path}\0{os.stat(path).st_mtime_ns}\n".encode())
                except OSError:
                    digest.update(f"{path}\0gone\n".encode())


def _interpreter_settings(digest) -> None:
    """What the process fixed for its life: the interpreter's flags (UTF-8 mode, -O, -X ...),
    the PYTHON* variables (PYTHONPATH, PYTHONHASHSEED ...) and those the libraries read at
    import (dependency_state.py), which a forked child cannot change. The server is started
    with the client's flags and environment, so they agree."""
    digest.update(f"{tuple(sys.flags)}\n".encode())
    fixed = key_material(dict(os.environ))
    for name in sorted(fixed):
        digest.update(f"{name}={fixed[name]}\0".encode())


def server_key() -> str:
    """A short hex digest of the interpreter, our source files and the libraries' versions."""
    digest = sha256()
    digest.update(f"{sys.executable}\0{sys.version}\n".encode())
    root = source_root()
    for package in PACKAGES:
        _walk(os.path.join(root, package), digest)
    _installed_dists(digest)
    _interpreter_settings(digest)
    try:
        digest.update(f"{confinement()}\n".encode())
    except OSError:  # no /proc: the server's own check refuses what it cannot tell
        digest.update(b"confinement unknown\n")
    return digest.hexdigest()[:20]
