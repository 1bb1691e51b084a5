"""Where MewCode keeps its files. Always passed in, never global."""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from agent_core.config.project_root import find_project_root


@dataclass(frozen=True)
class MewcodePaths:
    home: Path  # MEWCODE_HOME, default ~/.mewcode
    project: Path  # the project root (project_root.py), which may hold the start folder

    @classmethod
    def from_env(cls, start: Path, env: Mapping[str, str] | None = None) -> MewcodePaths:
        """The paths for a session started in ``start``: its project root found upwards."""
        source = os.environ if env is None else env
        user_home = Path(source.get("HOME") or Path.home())
        home = Path(source.get("MEWCODE_HOME") or user_home / ".mewcode").expanduser()
        return cls(home=home, project=find_project_root(start, user_home, home))

    @property
    def project_key(self) -> str:
        """A readable, collision-safe directory name for the project."""
        text = str(self.project)
        slug = re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-")[-60:] or "root"
        digest = hashlib.sha256(text.encode()).hexdigest()[:8]
        return f"{slug}-{digest}"

    @property
    def sessions_dir(self) -> Path:
        return self.home / "projects" / self.project_key

    @property
    def user_settings(self) -> Path:
        return self.home / "settings.yaml"

    @property
    def project_settings(self) -> Path:
        return self.project / ".mewcode" / "settings.yaml"

    @property
    def local_settings(self) -> Path:
        return self.project / ".mewcode" / "settings.local.yaml"
