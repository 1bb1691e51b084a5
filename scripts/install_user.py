"""Put the `mewcode` command on PATH: link the venv's entry point into ~/.local/bin.

`make install-user` runs this after `make run`'s install. A link (not a copy or a
`uv tool`/`pipx` environment of its own) keeps the command this checkout's: a `git pull`
and `make run` update it, warm start finds the same venv, and nothing is downloaded.
``$XDG_BIN_HOME`` is used instead of ~/.local/bin when set. An existing file of another
program's is never replaced. Standard library only.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


def bin_folder(env: dict[str, str]) -> Path:
    """Where user commands go: $XDG_BIN_HOME, else ~/.local/bin."""
    chosen = env.get("XDG_BIN_HOME")
    return Path(chosen) if chosen else Path(env.get("HOME", str(Path.home()))) / ".local" / "bin"


def install(venv: Path, env: dict[str, str]) -> str:
    """Link ``venv``'s mewcode into the user's bin folder; the line to print, or SystemExit."""
    source = (venv / "bin" / "mewcode").absolute()
    if not source.exists():
        raise SystemExit(f"{source}: not installed yet; run `make run` (or `make install`) first")
    folder = bin_folder(env)
    link = folder / "mewcode"
    if link.is_symlink() or link.exists():
        if not link.is_symlink() or not Path(os.readlink(link)).name == "mewcode":
            raise SystemExit(f"{link}: another file is there; move it away and run this again")
        link.unlink()  # our earlier link (perhaps to another checkout): replaced
    folder.mkdir(parents=True, exist_ok=True)
    link.symlink_to(source)
    line = f"Linked {link} -> {source}"
    on_path = [Path(p) for p in env.get("PATH", "").split(os.pathsep) if p]
    if folder not in on_path:
        line += f'\n{folder} is not on your PATH: add `export PATH="{folder}:$PATH"` to ~/.profile'
    return line


def main() -> None:
    venv = Path(sys.argv[1] if len(sys.argv) > 1 else ".venv")
    print(install(venv, dict(os.environ)))


if __name__ == "__main__":
    main()
