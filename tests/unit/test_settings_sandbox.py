"""`sandbox:` settings: a project may only make the sandbox stricter."""

from __future__ import annotations

from pathlib import Path

from agent_core.config.settings import load_settings


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_defaults_are_network_on_and_sandbox_required(paths) -> None:
    settings = load_settings(paths)
    assert settings.sandbox_network is True and settings.allow_unsandboxed is False


def test_user_settings_may_allow_unsandboxed_and_turn_network_off(paths) -> None:
    _write(paths.user_settings, "sandbox:\n  network: false\n  allowUnsandboxed: true\n")
    settings = load_settings(paths)
    assert settings.sandbox_network is False and settings.allow_unsandboxed is True


def test_project_can_turn_network_off_but_not_on(paths) -> None:
    _write(paths.user_settings, "sandbox:\n  network: false\n")
    _write(paths.project_settings, "sandbox:\n  network: true\n")
    assert load_settings(paths).sandbox_network is False
    _write(paths.user_settings, "")
    _write(paths.local_settings, "sandbox:\n  network: false\n")
    assert load_settings(paths).sandbox_network is False


def test_project_and_local_files_cannot_allow_unsandboxed(paths) -> None:
    for file in (paths.project_settings, paths.local_settings):
        _write(file, "sandbox:\n  allowUnsandboxed: true\n")
    settings = load_settings(paths)
    assert settings.allow_unsandboxed is False
    assert len(settings.problems) == 2
    assert all("allowUnsandboxed is ignored" in p for p in settings.problems)


def test_an_unknown_sandbox_key_is_reported_with_its_line(paths) -> None:
    _write(paths.user_settings, "theme: dark\nsandbox:\n  netwrok: false\n")
    problems = load_settings(paths).problems
    assert len(problems) == 1 and "line 3" in problems[0] and "netwrok" in problems[0]


def test_user_settings_may_allow_unix_sockets(paths) -> None:
    _write(paths.user_settings, "sandbox:\n  allowUnixSockets: [/run/pg.sock, ~/agent.sock]\n")
    settings = load_settings(paths)
    assert settings.allow_unix_sockets == ["/run/pg.sock", "~/agent.sock"]
    assert settings.problems == []


def test_a_bad_unix_socket_entry_is_one_line_naming_the_file(paths) -> None:
    _write(
        paths.user_settings,
        "sandbox:\n  allowUnixSockets:\n    - /run/pg.sock\n    - run/rel.sock\n    - 7\n",
    )
    settings = load_settings(paths)
    assert settings.allow_unix_sockets == ["/run/pg.sock"]
    assert settings.problems == [
        f"{paths.user_settings} line 4: sandbox.allowUnixSockets: 'run/rel.sock' is not an"
        " absolute path or ~/...; ignored",
        f"{paths.user_settings} line 5: sandbox.allowUnixSockets: expected text, got 7; ignored",
    ]


def test_project_and_local_files_cannot_allow_unix_sockets(paths) -> None:
    for file in (paths.project_settings, paths.local_settings):
        _write(file, "sandbox:\n  allowUnixSockets: [/tmp/tmux-1000/default]\n")
    for trusted in (False, True):
        settings = load_settings(paths, trust_project=trusted)
        assert settings.allow_unix_sockets == []
        assert len(settings.problems) == 2, settings.problems
        assert all("allowUnixSockets is ignored here" in p for p in settings.problems)
