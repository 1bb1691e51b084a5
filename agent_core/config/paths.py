"""Where MewCode keeps its files. Always passed in, never global."""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class MewcodePaths:
    home: Path  # MEWCODE_HOME, default ~/.mewcode
    project: Path  # the project root (cwd)

    @classmethod
    def from_env(cls, project: Path, env: Mapping[str, str] | None = None) -> MewcodePaths:
        source = os.environ if env is None else env
        home = Path(source.get("MEWCODE_HOME") or Path.home() / ".mewcode").expanduser()
        return cls(home=home, project=project.resolve())

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
