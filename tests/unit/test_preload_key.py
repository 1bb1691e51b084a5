"""The preload server key (an edit means a new server) and the child's fresh environment."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mewcode_tui.preload import key as key_module
from mewcode_tui.preload.location import UnsafeRunDir, preload_disabled, run_dir


@pytest.fixture
def fake_source(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for package in key_module.PACKAGES:
        (tmp_path / package).mkdir()
        (tmp_path / package / "a.py").write_text("x = 1\n")
    (tmp_path / "mewcode_tui" / "app.tcss").write_text("Screen {}\n")
    monkeypatch.setattr(key_module, "source_root", lambda: str(tmp_path))
    return tmp_path


def test_key_is_stable_until_a_source_file_changes(fake_source: Path) -> None:
    first = key_module.server_key()
    assert key_module.server_key() == first
    source = fake_source / "agent_core" / "a.py"
    source.write_text("x = 2\n")  # same size: the mtime tells
    os.utime(source, ns=(time.time_ns(), time.time_ns() + 1_000_000))
    second = key_module.server_key()
    assert second != first
    (fake_source / "mewcode_tui" / "app.tcss").write_text("Screen { color: red; }\n")
    assert key_module.server_key() != second


def test_key_changes_with_a_new_file_but_not_with_bytecode(fake_source: Path) -> None:
    first = key_module.server_key()
    (fake_source / "mewcode_tui" / "__pycache__").mkdir()
    (fake_source / "mewcode_tui" / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"x")
    assert key_module.server_key() == first
    (fake_source / "mewcode_tui" / "new.py").write_text("")
    assert key_module.server_key() != first


def test_key_of_the_real_tree_is_fast() -> None:
    started = time.perf_counter()
    key_module.server_key()
    assert time.perf_counter() - started < 0.1


def test_run_dir_is_created_private_and_a_loose_one_refused(tmp_path: Path) -> None:
    made = run_dir(tmp_path / "home", create=True)
    assert oct(os.stat(made).st_mode & 0o777) == "0o700"
    os.chmod(made, 0o750)
    with pytest.raises(UnsafeRunDir, match="mode 750, expected 700"):
        run_dir(tmp_path / "home", create=False)


@pytest.mark.parametrize(
    ("env", "settings", "disabled"),
    [
        ({}, None, False),
        ({"MEWCODE_PRELOAD": "0"}, None, True),
        ({}, "model: x\npreload: false\n", True),
        ({}, "preload: true\n", False),
        ({}, "# preload: false\n", False),
    ],
)
def test_preload_can_be_turned_off(tmp_path: Path, env, settings, disabled) -> None:
    if settings is not None:
        (tmp_path / "settings.yaml").write_text(settings)
    assert preload_disabled(env, tmp_path) is disabled


@pytest.mark.slow
def test_child_takes_the_callers_environment_cwd_and_temporary_directory(tmp_path: Path) -> None:
    """What a library fixes at import is the server key's (below); the rest is replaced."""
    code = f"""
import os, tempfile
os.environ.update(TMPDIR="/tmp")
tempfile.gettempdir()
from mewcode_tui.preload.child import replace_environment
env = dict(PATH=os.environ["PATH"], TMPDIR={str(tmp_path)!r}, ONLY_IN_CALLER="yes")
replace_environment(env, {str(tmp_path)!r})
print(tempfile.gettempdir(), os.getcwd(), os.environ.get("ONLY_IN_CALLER"), "HOME" in os.environ)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == [str(tmp_path), str(tmp_path), "yes", "False"]


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("TEXTUAL_ANIMATIONS", "none"),  # textual.constants, read at import
        ("ESCDELAY", "25"),
        ("TERM_PROGRAM", "iTerm.app"),  # textual's xterm parser, at import
        ("UNICODE_VERSION", "9.0.0"),  # rich's cell widths, cached on first use
        ("ANTHROPIC_LOG", "debug"),  # the SDK's log level, at import
        ("OTEL_PROPAGATORS", "b3"),  # OpenTelemetry (through mcp), at import
    ],
)
def test_a_variable_a_library_fixes_at_import_gets_its_own_server(
    name: str, value: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(name, raising=False)
    before = key_module.server_key()
    monkeypatch.setenv(name, value)
    assert key_module.server_key() != before


@pytest.mark.parametrize(
    "name", ["NO_COLOR", "COLORTERM", "TERM", "COLUMNS", "TERM_PROGRAM", "MY_OWN_VAR"]
)
def test_a_variable_read_on_each_run_is_served_by_the_same_server(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(name, raising=False)
    before = key_module.server_key()
    monkeypatch.setenv(name, "1")
    assert key_module.server_key() == before
