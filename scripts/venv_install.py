"""Create the project's virtualenv and install MewCode into it, with uv when it is there.

`make run` installs what running needs (`python scripts/venv_install.py .venv`);
`make test` adds the test and lint tools (`... .venv test`). uv (a `uv` binary
or `python -m uv`) installs in seconds; it does not read pip's configuration, so
the index, find-links and constraints pip is configured with are passed to it.
Without uv, pip installs, without compiling bytecode up front; it upgrades
itself only when too old for an editable install from pyproject.toml.
Standard library only: it runs before the venv exists.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

# pip learned editable installs from pyproject.toml (PEP 660) in 21.3.
MIN_PIP = (21, 3)
# The checkout goes on sys.path through a plain .pth line. setuptools' default
# editable mode installs an import hook instead, whose own imports (pathlib,
# importlib.util...) cost every Python start in the venv ~11 ms: a tenth of the
# warm `mewcode` start.
EDITABLE_MODE = "editable_mode=compat"


def uv_command(python: str) -> list[str] | None:
    """How to run uv here: a binary on PATH, else ``python -m uv``; None without uv."""
    binary = shutil.which("uv")
    if binary:
        return [binary]
    probe = subprocess.run([python, "-m", "uv", "--version"], capture_output=True, check=False)
    return [python, "-m", "uv"] if probe.returncode == 0 else None


def pip_config(python: str) -> dict[str, str]:
    """``pip config list`` (files and PIP_* variables) as {option: value}, the later winning."""
    try:
        out = subprocess.run(
            [python, "-m", "pip", "config", "list"], capture_output=True, text=True, check=False
        ).stdout
    except OSError:
        return {}
    return parse_pip_config(out)


def parse_pip_config(text: str) -> dict[str, str]:
    """Lines like ``global.find-links='/opt/wheels'`` -> {"find-links": "/opt/wheels"}."""
    options: dict[str, str] = {}
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if not sep:
            continue
        options[key.rpartition(".")[2]] = value.strip().strip("'\"")
    return options


def uv_index_args(options: dict[str, str]) -> list[str]:
    """The uv arguments that reach the same packages pip's options reach."""
    args: list[str] = []
    if options.get("index-url"):
        args += ["--index-url", options["index-url"]]
    for flag in ("extra-index-url", "find-links", "constraint"):
        for value in options.get(flag, "").split():
            args += [f"--{flag}", value]
    if "extra-index-url" in options:
        # pip picks the best version across all indexes; uv stops at the first that has the name.
        args += ["--index-strategy", "unsafe-best-match"]
    return args


def pip_version(venv_python: str) -> tuple[int, ...] | None:
    """The venv's pip version, or None when the venv has no pip."""
    probe = subprocess.run(
        [venv_python, "-m", "pip", "--version"], capture_output=True, text=True, check=False
    )
    if probe.returncode != 0:
        return None
    number = probe.stdout.split()[1]
    return tuple(int(part) for part in number.split(".")[:2] if part.isdigit())


def run(command: list[str], env: dict[str, str] | None = None) -> None:
    print("+ " + " ".join(command), flush=True)
    subprocess.run(command, check=True, env=env)


def editable_install(command: list[str], flag: str, target: str, env: dict[str, str]) -> None:
    """``command -e target`` in the compat mode; in the default mode where that is gone."""
    # setuptools warns that the mode is transitional, in a banner on every install.
    quiet = {**env, "PYTHONWARNINGS": "ignore"}
    try:
        run([*command, flag, EDITABLE_MODE, "-e", target], quiet)
    except subprocess.CalledProcessError:
        print("note: installing with setuptools' default editable mode", flush=True)
        run([*command, "-e", target], env)


def install(venv: Path, extra: str | None) -> None:
    """Make ``venv`` if missing and install the project (with ``extra``) editable into it."""
    python = sys.executable
    venv_python = str(venv / "bin" / "python")
    target = f".[{extra}]" if extra else "."
    uv = uv_command(python)
    if uv is not None:
        if not Path(venv_python).exists():
            run([*uv, "venv", "--quiet", "--python", python, str(venv)])
        options = pip_config(python)
        env = dict(os.environ)
        if options.get("cert"):
            env.setdefault("SSL_CERT_FILE", options["cert"])
        index = uv_index_args(options)
        command = [*uv, "pip", "install", "--quiet", "--python", venv_python, *index]
        editable_install(command, "--config-setting", target, env)
        precompile(venv_python, os.environ)
        return
    if not Path(venv_python).exists():
        run([python, "-m", "venv", str(venv)])
    version = pip_version(venv_python)
    if version is None:  # a venv uv made earlier has no pip
        run([venv_python, "-m", "ensurepip", "--quiet"])
        version = pip_version(venv_python)
    if version is None or version < MIN_PIP:
        run([venv_python, "-m", "pip", "install", "--quiet", "--upgrade", "pip"])
    # No bytecode compiling of every installed module up front (half the install time
    # here): Python compiles what it imports on first use, as after a uv install.
    command = [venv_python, "-m", "pip", "install", "--quiet", "--no-compile"]
    editable_install(command, "--config-settings", target, dict(os.environ))
    precompile(venv_python, os.environ)


# What bytecode written up front buys (measured on the 2-core development machine under
# load, docs/benchmarks.md#bytecode): compiling the runtime's packages takes 6-12 s once;
# a cold `mewcode -p` without bytecode takes 5.2-6.8 s, with it 3.6-4.1 s. Python writes
# the bytecode it compiles on first import, so the saving is once per install unless
# PYTHONDONTWRITEBYTECODE is set: then every cold start pays again, and the install
# compiles everything instead.
COMPILE_CODE = (
    "import compileall, sys, sysconfig; "
    "ok = compileall.compile_dir(sysconfig.get_paths()['purelib'], quiet=1, workers=0); "
    "ok = compileall.compile_dir('agent_core', quiet=1, workers=0) and ok; "
    "ok = compileall.compile_dir('mewcode_tui', quiet=1, workers=0) and ok; "
    "sys.exit(0 if ok else 1)"
)


def precompile(venv_python: str, env: os._Environ[str] | dict[str, str]) -> None:
    """Compile the venv's packages and the checkout when Python will not write bytecode."""
    if not env.get("PYTHONDONTWRITEBYTECODE"):
        return
    print("note: PYTHONDONTWRITEBYTECODE is set: compiling bytecode once now", flush=True)
    try:
        run([venv_python, "-c", COMPILE_CODE])
    except subprocess.CalledProcessError:  # a file that does not compile is not run anyway
        print("note: some files did not compile; they compile when imported", flush=True)


def main(argv: list[str]) -> int:
    if not 1 <= len(argv) <= 2:
        sys.stderr.write("usage: python scripts/venv_install.py VENV [EXTRA]\n")
        return 2
    try:
        install(Path(argv[0]), argv[1] if len(argv) == 2 else None)
    except subprocess.CalledProcessError as exc:
        sys.stderr.write(f"venv_install: {' '.join(exc.cmd)} failed (exit {exc.returncode})\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
