"""Where the preload server listens, and whether the user turned it off.

The client imports this on every start: built-in modules only (no pathlib, no re),
so that importing it costs well under a millisecond. Paths are plain strings.
"""

from __future__ import annotations

import os
import stat

TYPE_CHECKING = False  # not typing's: importing typing costs the client ~2 ms
if TYPE_CHECKING:
    from collections.abc import Callable

DISABLE_ENV = "MEWCODE_PRELOAD"
_OFF = ("0", "false", "no", "off")


class UnsafeRunDir(Exception):
    """MEWCODE_HOME/run is not a private directory of this user."""


def mewcode_home(env: dict[str, str]) -> str:
    """MEWCODE_HOME, default ~/.mewcode (as agent_core.config.paths reads it)."""
    home = env.get("MEWCODE_HOME") or os.path.join(os.path.expanduser("~"), ".mewcode")
    return os.path.expanduser(home)


def preload_disabled(env: dict[str, str], home: str | os.PathLike[str]) -> bool:
    """``MEWCODE_PRELOAD=0`` or a top-level ``preload: false`` line in the user settings file."""
    if env.get(DISABLE_ENV, "").strip().lower() in _OFF:
        return True
    try:
        with open(os.path.join(home, "settings.yaml"), encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return False
    # A cheap look at the file: a YAML parse would cost the client its speed.
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep and key.lower() == "preload" and value.split("#", 1)[0].strip().lower() in _OFF[1:]:
            return True
    return False


def run_dir(home: str | os.PathLike[str], *, create: bool) -> str:
    """``MEWCODE_HOME/run``: created 0700; refused unless it is ours and private."""
    path = os.path.join(home, "run")
    if create:
        os.makedirs(home, mode=0o700, exist_ok=True)
        try:
            os.mkdir(path, 0o700)
        except FileExistsError:
            pass
    st = os.lstat(path)
    if not stat.S_ISDIR(st.st_mode):
        raise UnsafeRunDir(f"{path}: not a directory")
    if st.st_uid != os.getuid():
        raise UnsafeRunDir(f"{path}: owned by uid {st.st_uid}, not {os.getuid()}")
    if stat.S_IMODE(st.st_mode) & 0o077:
        raise UnsafeRunDir(f"{path}: mode {stat.S_IMODE(st.st_mode):o}, expected 700")
    return path


def socket_path(home: str | os.PathLike[str], key: str, *, create: bool = False) -> str:
    """The server socket for ``key``."""
    return os.path.join(run_dir(home, create=create), f"preload-{key}.sock")


# AF_UNIX paths hold at most 107 bytes; a longer MEWCODE_HOME is reached through a
# descriptor of its run directory (/proc/self/fd/N/name is short and means the same).
_MAX_SOCKET_PATH = 107


def use_socket_path(path: str, use: Callable[[str], None]) -> None:
    """``use(path)`` (a bind or a connect), through a short alias when ``path`` is too long."""
    if len(os.fsencode(path)) <= _MAX_SOCKET_PATH:
        use(path)
        return
    directory = os.open(os.path.dirname(path), os.O_PATH | os.O_DIRECTORY)
    try:
        use(f"/proc/self/fd/{directory}/{os.path.basename(path)}")
    finally:
        os.close(directory)
