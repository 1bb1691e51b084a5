"""A folder's listing with a hash per file: equal digests mean nothing in it changed."""

from __future__ import annotations

import hashlib
from pathlib import Path


def tree_digest(root: Path) -> dict[str, str]:
    """{relative path: sha256 of the file, or "dir"} for everything under ``root``."""
    digest: dict[str, str] = {}
    for path in sorted(root.rglob("*")):
        name = str(path.relative_to(root))
        digest[name] = "dir" if path.is_dir() else hashlib.sha256(path.read_bytes()).hexdigest()
    return digest
