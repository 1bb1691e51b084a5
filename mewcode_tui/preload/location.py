"""Where the preload server listens, and whether the user turned it off. Standard library only."""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Mapping
from pathlib import Path

DISABLE_ENV = "MEWCODE_PRELOAD"
# A cheap look at the user settings file: a YAML parse would cost the client its speed.
_DISABLED_LINE = re.compile(r"^preload:\s*(false|no|off)\s*(#.*)?$", re.MULTILINE | re.IGNORECASE)


class UnsafeRunDir(Exception):
    """MEWCODE_HOME/run is not a private directory of this user."""


def mewcode_home(env: Mapping[str, str]) -> Path:
    """MEWCODE_HOME, default ~/.mewcode (as agent_core.config.paths reads it)."""
    return Path(env.get("MEWCODE_HOME") or Path.home() / ".mewcode").expanduser()


def preload_disabled(env: Mapping[str, str], home: Path) -> bool:
    """``MEWCODE_PRELOAD=0`` or a ``preload: false`` line in the user settings file."""
    if env.get(DISABLE_ENV, "").strip().lower() in ("0", "false", "no", "off"):
        return True
    try:
        text = (home / "settings.yaml").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return _DISABLED_LINE.search(text) is not None


def run_dir(home: Path, *, create: bool) -> Path:
    """``MEWCODE_HOME/run``: created 0700; refused unless it is ours and private."""
    path = home / "run"
    if create:
        home.mkdir(mode=0o700, parents=True, exist_ok=True)
        try:
            path.mkdir(mode=0o700)
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


def socket_path(home: Path, key: str, *, create: bool = False) -> Path:
    """The server socket for ``key``."""
    return run_dir(home, create=create) / f"preload-{key}.sock"
