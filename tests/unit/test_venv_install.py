"""`make run` installs only what running needs; `make test` adds the test tools; uv when present."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def load_installer():
    spec = importlib.util.spec_from_file_location("venv_install", ROOT / "scripts/venv_install.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


PIP_CONFIG = """global.cert='/etc/ssl/certs/ca.crt'
global.extra-index-url='file:///opt/pypi/simple file:///opt/more/simple'
global.find-links='/opt/wheels'
:env:.find-links='/srv/wheels'
:env:.default-timeout='180'
"""


def test_uv_is_pointed_at_the_indexes_pip_is_configured_with() -> None:
    installer = load_installer()
    options = installer.parse_pip_config(PIP_CONFIG)
    assert options["find-links"] == "/srv/wheels"  # the environment wins, as in pip
    assert installer.uv_index_args(options) == [
        "--extra-index-url",
        "file:///opt/pypi/simple",
        "--extra-index-url",
        "file:///opt/more/simple",
        "--find-links",
        "/srv/wheels",
        "--index-strategy",
        "unsafe-best-match",
    ]
    assert installer.uv_index_args({}) == []


@pytest.fixture
def commands(monkeypatch, tmp_path: Path) -> tuple[object, list[list[str]], Path]:
    installer = load_installer()
    ran: list[list[str]] = []
    monkeypatch.setattr(installer, "run", lambda command, env=None: ran.append(command))
    monkeypatch.delenv("PYTHONDONTWRITEBYTECODE", raising=False)  # no compile step
    venv = tmp_path / ".venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_text("")
    return installer, ran, venv


def test_pip_installs_without_upgrading_itself_when_recent_enough(commands, monkeypatch) -> None:
    installer, ran, venv = commands
    monkeypatch.setattr(installer, "uv_command", lambda python: None)
    monkeypatch.setattr(installer, "pip_version", lambda python: (23, 2))
    installer.install(venv, None)
    pip = [str(venv / "bin/python"), "-m", "pip", "install", "--quiet"]
    # The checkout on sys.path by a plain .pth line, not setuptools' slower import hook.
    assert ran == [[*pip, "--no-compile", "--config-settings", "editable_mode=compat", "-e", "."]]
    ran.clear()
    monkeypatch.setattr(installer, "pip_version", lambda python: (21, 0))
    installer.install(venv, "test")
    assert [c[-1] for c in ran] == ["pip", ".[test]"]  # too old for PEP 660: upgrade first


def test_uv_installs_when_present_with_pips_indexes(commands, monkeypatch) -> None:
    installer, ran, venv = commands
    monkeypatch.setattr(installer, "uv_command", lambda python: ["uv"])
    monkeypatch.setattr(installer, "pip_config", lambda python: {"find-links": "/opt/wheels"})
    installer.install(venv, "test")
    assert ran == [
        ["uv", "pip", "install", "--quiet", "--python", str(venv / "bin/python")]
        + ["--find-links", "/opt/wheels", "--config-setting", "editable_mode=compat"]
        + ["-e", ".[test]"]
    ]


def test_a_setuptools_without_the_compat_mode_gets_the_default_editable_install(
    commands, monkeypatch
) -> None:
    installer, ran, venv = commands
    monkeypatch.setattr(installer, "uv_command", lambda python: None)
    monkeypatch.setattr(installer, "pip_version", lambda python: (23, 2))

    def run(command, env=None):
        ran.append(command)
        if "editable_mode=compat" in command:
            raise subprocess.CalledProcessError(1, command)

    monkeypatch.setattr(installer, "run", run)
    installer.install(venv, None)
    assert ran[-1] == [str(venv / "bin/python"), "-m", "pip", "install", "--quiet"] + [
        "--no-compile",
        "-e",
        ".",
    ]


def stamp_at(path: Path, when: int) -> None:
    path.touch()
    os.utime(path, (when, when))


def dry_run(folder: Path, target: str) -> str:
    return subprocess.run(
        ["make", "-n", target], cwd=folder, capture_output=True, text=True, check=True
    ).stdout


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
@pytest.mark.slow
def test_make_run_installs_the_runtime_and_make_test_adds_the_test_extras(tmp_path: Path) -> None:
    (tmp_path / "scripts").mkdir()
    for name in ("Makefile", "pyproject.toml", "scripts/venv_install.py"):
        shutil.copy(ROOT / name, tmp_path / name)
        os.utime(tmp_path / name, (1000, 1000))
    install_run = "scripts/venv_install.py .venv\n"
    install_test = "scripts/venv_install.py .venv test\n"

    first = dry_run(tmp_path, "run")
    assert install_run in first and install_test not in first
    (tmp_path / ".venv").mkdir()
    stamp_at(tmp_path / ".venv/.installed-run", 2000)  # what that install leaves
    assert "venv_install" not in dry_run(tmp_path, "run")  # no reinstall on every run
    assert install_test in dry_run(tmp_path, "lint")  # switching to test adds the extras
    stamp_at(tmp_path / ".venv/.installed-test", 2000)
    assert "venv_install" not in dry_run(tmp_path, "lint") + dry_run(tmp_path, "run")
    # a changed pyproject installs again (explicit times: a file's mtime has the
    # kernel's coarse tick, so a stamp and a utime() can land in the same tick)
    os.utime(tmp_path / "pyproject.toml", (3000, 3000))
    assert install_run in dry_run(tmp_path, "run") and install_test in dry_run(tmp_path, "lint")
    for stamp in (".installed-run", ".installed-test"):
        stamp_at(tmp_path / ".venv" / stamp, 4000)
    assert "venv_install" not in dry_run(tmp_path, "lint")
    os.utime(tmp_path / "scripts/venv_install.py", (2**31, 2**31))  # so does a changed installer
    assert install_test in dry_run(tmp_path, "lint")


def test_bytecode_is_compiled_up_front_only_when_python_will_not_write_it(
    commands, monkeypatch
) -> None:
    installer, ran, venv = commands
    monkeypatch.setattr(installer, "uv_command", lambda python: None)
    monkeypatch.setattr(installer, "pip_version", lambda python: (23, 2))
    installer.install(venv, None)
    assert not any("compileall" in " ".join(c) for c in ran)
    ran.clear()
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    monkeypatch.setattr(installer, "uv_command", lambda python: ["uv"])
    monkeypatch.setattr(installer, "pip_config", lambda python: {})
    installer.install(venv, None)
    assert ran[-1][:2] == [str(venv / "bin/python"), "-c"] and "compileall" in ran[-1][2]


@pytest.mark.slow
def test_the_compile_step_writes_bytecode_although_python_is_told_not_to(tmp_path: Path) -> None:
    installer = load_installer()
    (tmp_path / "agent_core").mkdir()
    (tmp_path / "agent_core" / "m.py").write_text("x = 1\n")
    (tmp_path / "mewcode_tui").mkdir()
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    subprocess.run(
        [shutil.which("python3") or "python3", "-c", installer.COMPILE_CODE],
        cwd=tmp_path, env=env, check=True, capture_output=True,
    )  # fmt: skip
    assert list((tmp_path / "agent_core" / "__pycache__").glob("m.*.pyc"))
