"""The warm start's view of its dependencies: the versions it was written for, and its one reset."""

from __future__ import annotations

import sys
import tomllib
import types
from importlib import metadata
from pathlib import Path

import pytest

from mewcode_tui.preload import dependency_state
from mewcode_tui.preload.dependency_state import WRITTEN_FOR, version_tuple

ROOT = Path(__file__).resolve().parents[2]


def _dotted(version: tuple[int, ...]) -> str:
    return ".".join(map(str, version))


@pytest.mark.parametrize("package", sorted(WRITTEN_FOR))
def test_the_installed_version_is_one_the_warm_start_was_written_for(package: str) -> None:
    """On failure: read mewcode_tui/preload/dependency_state.py against the new version
    (what it reads at import, what it caches), then move WRITTEN_FOR and pyproject's cap."""
    minimum, below = WRITTEN_FOR[package]
    installed = metadata.version(package)
    assert minimum <= version_tuple(installed) < below, (
        f"{package} {installed} is outside >={_dotted(minimum)},<{_dotted(below)}"
    )


def test_pyproject_caps_each_dependency_where_the_warm_start_was_checked() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    specs = {}
    for requirement in pyproject["project"]["dependencies"]:
        name, sep, spec = requirement.partition(">=")
        specs[name.strip()] = sep + spec
    for package, (minimum, below) in WRITTEN_FOR.items():
        assert specs.get(package) == f">={_dotted(minimum)},<{_dotted(below)}", package


@pytest.mark.parametrize(
    ("text", "expected"),
    [("8.2.8", (8, 2, 8)), ("2.0rc1", (2, 0)), ("3.57.0.post1", (3, 57, 0)), ("dev", ())],
)
def test_version_tuple_takes_the_leading_numbers(text: str, expected: tuple[int, ...]) -> None:
    assert version_tuple(text) == expected


def test_a_version_outside_the_range_is_a_reason_to_start_cold(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = metadata.version
    monkeypatch.setattr(metadata, "version", lambda p: "9.0.0" if p == "textual" else real(p))
    assert dependency_state.version_problems() == [
        "textual 9.0.0 is outside the range the warm start was written for (>=8.0,<9)"
    ]


def _fake_sdk_logs(monkeypatch: pytest.MonkeyPatch, **attributes: object) -> None:
    module = types.ModuleType("anthropic._utils._logs")
    for name, value in attributes.items():
        setattr(module, name, value)
    monkeypatch.setitem(sys.modules, "anthropic._utils._logs", module)
    monkeypatch.delitem(sys.modules, "openai._utils._logs", raising=False)
    monkeypatch.setattr(dependency_state, "version_problems", lambda: [])


def test_an_sdk_log_setup_of_the_shape_it_was_written_for_is_no_problem(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = []
    _fake_sdk_logs(monkeypatch, setup_logging=lambda: calls.append("set up"))
    assert dependency_state.problems() == []
    dependency_state.caller_sdk_logging()
    assert calls == ["set up"]


@pytest.mark.parametrize(
    ("attributes", "problem"),
    [
        ({}, "anthropic._utils._logs.setup_logging is missing"),
        ({"setup_logging": "debug"}, "anthropic._utils._logs.setup_logging is missing"),
        (
            {"setup_logging": lambda level: None},
            "anthropic._utils._logs.setup_logging now takes arguments (level)",
        ),
    ],
    ids=["gone", "not-a-function", "new-parameter"],
)
def test_an_sdk_log_setup_that_changed_shape_is_a_reason_to_start_cold(
    attributes: dict[str, object], problem: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fake_sdk_logs(monkeypatch, **attributes)
    assert dependency_state.problems() == [problem]


def test_an_sdk_the_server_did_not_import_is_no_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in dependency_state.SDK_LOG_SETUP:
        monkeypatch.delitem(sys.modules, name, raising=False)
    monkeypatch.setattr(dependency_state, "version_problems", lambda: [])
    assert dependency_state.problems() == []
    dependency_state.caller_sdk_logging()  # nothing to set up, nothing raised


def test_the_keyed_environment_is_the_interpreters_and_the_libraries_variables() -> None:
    env = {
        "PYTHONPATH": "/x",
        "TEXTUAL_FPS": "5",
        "ESCDELAY": "25",
        "NO_COLOR": "1",
        "HOME": "/home/u",
        "ANTHROPIC_API_KEY": "secret",
    }
    assert dependency_state.keyed_environment(env) == {
        "PYTHONPATH": "/x",
        "TEXTUAL_FPS": "5",
        "ESCDELAY": "25",
    }


def test_no_variable_is_both_keyed_and_read_when_used() -> None:
    assert [n for n in dependency_state.READ_WHEN_USED if dependency_state.keyed(n)] == []


@pytest.mark.parametrize(
    ("env", "iterm"),
    [
        ({"TERM_PROGRAM": "iTerm.app"}, "True"),
        ({"LC_TERMINAL": "iTerm2", "TERM_PROGRAM": "tmux"}, "True"),
        ({"TERM_PROGRAM": "tmux"}, "False"),
        ({"TERM_PROGRAM": "vscode"}, "False"),
        ({}, "False"),
    ],
)
def test_the_key_holds_whether_textual_sees_iterm_not_which_terminal(
    env: dict[str, str], iterm: str
) -> None:
    assert dependency_state.key_material(env) == {"textual: iTerm": iterm}
