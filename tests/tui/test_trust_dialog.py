"""The trust dialog on first open of an untrusted project (docs/configuration.md#project-trust).

Driven through the real app and the real Runtime: trusting records the project
in the user's settings and loads its allow rules; "not now" keeps it restricted
and says what was skipped; keys typed before the guard ends do nothing.
"""

from __future__ import annotations

import json

import pytest
import yaml

from agent_core.agent.runtime import Runtime, RuntimeOptions
from agent_core.config.settings import RuleEntry, load_settings
from mewcode_tui.app import MewCodeApp
from mewcode_tui.screens.trust import TrustScreen
from mewcode_tui.session_start import TuiOptions, needs_trust_dialog
from mewcode_tui.transcript import NoticeEntry
from tests.helpers.scripted import EchoTool, ScriptedProvider, Step
from tests.tui.conftest import wait_until

SIZE = (80, 24)


def untrusted_project(paths) -> None:
    paths.user_settings.parent.mkdir(parents=True, exist_ok=True)
    paths.user_settings.write_text("# mine\ntheme: mewcode-dark\n")
    paths.project_settings.parent.mkdir(parents=True, exist_ok=True)
    paths.project_settings.write_text(
        "permissions:\n  allow: ['Bash(make:*)']\n  deny: ['Bash(git push:*)']\n"
        "  defaultMode: acceptEdits\n"
    )


def make_app(paths, project) -> MewCodeApp:
    settings = load_settings(paths)
    options = TuiOptions(
        cwd=project, paths=paths, settings=settings, ask_trust=needs_trust_dialog(paths, settings)
    )

    async def opener(opts, provider):
        return await Runtime.open(
            RuntimeOptions(
                cwd=opts.cwd,
                paths=opts.paths,
                settings=opts.settings,
                provider=provider,
                mode=opts.mode,
                tools=[EchoTool()],
            )
        )

    provider = ScriptedProvider([Step(text="hi")])
    return MewCodeApp(options, provider=provider, opener=opener, clock=lambda: 0.0)


async def open_dialog(pilot, app) -> TrustScreen:
    await wait_until(pilot, lambda: isinstance(app.screen, TrustScreen))
    dialog = app.screen
    await wait_until(pilot, lambda: not dialog.guarded)
    return dialog


def notices(screen) -> list[str]:
    return [e.text for e in screen.transcript.entries if isinstance(e, NoticeEntry)]


def project_rules(screen, paths) -> list[RuleEntry]:
    return [r for r in screen.starter.runtime.rules() if r.source == str(paths.project_settings)]


async def test_trusting_records_it_and_loads_the_projects_allow_rules(paths, project) -> None:
    untrusted_project(paths)
    app = make_app(paths, project)
    async with app.run_test(size=SIZE) as pilot:
        dialog = await open_dialog(pilot, app)
        shown = str(dialog.query_one("#skipped Static").render())
        assert ".mewcode/settings.yaml: permissions.allow (1 rule)" in shown
        assert "permissions.defaultMode (acceptEdits)" in shown
        await pilot.press("1")
        screen = app.main_screen
        await wait_until(pilot, lambda: screen.session_ready)
        assert {r.rule for r in project_rules(screen, paths)} == {
            "Bash(make:*)",
            "Bash(git push:*)",
        }
        assert screen.starter.runtime.mode == "acceptEdits" and screen.status.mode == "acceptEdits"
        assert not any("not applied until you trust" in n for n in notices(screen))
    text = paths.user_settings.read_text()
    assert text.startswith("# mine\ntheme: mewcode-dark\n")  # the user's lines kept
    assert yaml.safe_load(text)["trustedProjects"] == [str(project)]
    assert load_settings(paths).project_trusted  # asked once: the next start is trusted


async def test_not_now_stays_restricted_and_says_what_was_skipped(paths, project) -> None:
    untrusted_project(paths)
    app = make_app(paths, project)
    async with app.run_test(size=SIZE) as pilot:
        await open_dialog(pilot, app)
        await pilot.press("2")
        screen = app.main_screen
        await wait_until(pilot, lambda: screen.session_ready)
        await pilot.pause()
        rules = project_rules(screen, paths)
        assert [(r.rule, r.kind) for r in rules] == [("Bash(git push:*)", "deny")]
        assert screen.starter.runtime.mode == "default"
        skipped = [n for n in notices(screen) if "not applied until you trust" in n]
        assert skipped == [
            f"{paths.project_settings}: not applied until you trust this project: "
            "permissions.allow (1 rule), permissions.defaultMode (acceptEdits) (trust it in the "
            "dialog when mewcode opens, or run with --trust-project)"
        ]
    assert "trustedProjects" not in paths.user_settings.read_text()


async def test_quit_leaves_without_recording_anything(paths, project) -> None:
    untrusted_project(paths)
    app = make_app(paths, project)
    async with app.run_test(size=SIZE) as pilot:
        await open_dialog(pilot, app)
        await pilot.press("q")
        await pilot.pause()
        assert app.main_screen.starter.runtime is None
    assert app.return_code == 0
    assert "trustedProjects" not in paths.user_settings.read_text()


async def test_keys_typed_as_the_dialog_opens_do_not_trust(paths, project, monkeypatch) -> None:
    real_init = TrustScreen.__init__

    def long_guard(screen: TrustScreen, *args, **kwargs) -> None:
        real_init(screen, *args, **kwargs)
        screen.key_guard = 30  # the keys below land inside it, however slow the machine

    monkeypatch.setattr(TrustScreen, "__init__", long_guard)
    untrusted_project(paths)
    app = make_app(paths, project)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, TrustScreen))
        await pilot.press("1", "y")  # typed ahead, inside the guard
        assert isinstance(app.screen, TrustScreen) and app.screen.guarded
    assert "trustedProjects" not in paths.user_settings.read_text()


async def test_a_trusted_project_opens_without_the_dialog(paths, project) -> None:
    untrusted_project(paths)
    paths.user_settings.write_text(f"trustedProjects: ['{project}']\n")
    app = make_app(paths, project)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.main_screen
        await wait_until(pilot, lambda: screen.session_ready)
        assert not isinstance(app.screen, TrustScreen)
        assert "Bash(make:*)" in {r.rule for r in project_rules(screen, paths)}


async def test_the_dialog_names_the_project_mcp_servers_trust_would_start(paths, project) -> None:
    import json

    entry = {"command": "uvx", "args": ["mcp-server-git", "--repo", "${REPO_TOKEN:-none}"]}
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"git": entry}}))
    app = make_app(paths, project)
    async with app.run_test(size=SIZE) as pilot:
        dialog = await open_dialog(pilot, app)
        shown = str(dialog.query_one("#skipped Static").render())
        assert (
            ".mcp.json: MCP server git (uvx mcp-server-git --repo '${REPO_TOKEN:-none}')" in shown
        )
        await pilot.press("2")


def claude_hook(project, command: str) -> None:
    import json

    hook = {"hooks": [{"type": "command", "command": command}]}
    (project / ".claude").mkdir(exist_ok=True)
    (project / ".claude" / "settings.json").write_text(
        json.dumps({"hooks": {"SessionStart": [hook]}})
    )


@pytest.mark.slow
async def test_a_changed_hook_in_a_trusted_project_is_asked_about_again(
    paths, project, tmp_path
) -> None:
    from agent_core.config.trust import record_trust

    witness = tmp_path / "hook-ran"
    claude_hook(project, "true")
    record_trust(paths)
    claude_hook(project, f"touch {witness}")
    app = make_app(paths, project)
    async with app.run_test(size=SIZE) as pilot:
        dialog = await open_dialog(pilot, app)
        assert "changed since you trusted it" in str(dialog.query_one("#title").render())
        shown = str(dialog.query_one("#skipped Static").render())
        assert f"touch {witness} (was: true)" in shown
        await pilot.press("2")  # not now: it waits
        screen = app.main_screen
        await wait_until(pilot, lambda: screen.session_ready)
        assert not witness.exists()
    app = make_app(paths, project)
    async with app.run_test(size=SIZE) as pilot:
        await open_dialog(pilot, app)  # asked again next time
        await pilot.press("1")
        screen = app.main_screen
        await wait_until(pilot, lambda: screen.session_ready)
        await wait_until(pilot, witness.exists)  # trusted now: the SessionStart hook runs
    assert not needs_trust_dialog(paths, load_settings(paths))


async def test_the_dialog_lists_what_claude_code_files_set_that_waits(paths, project) -> None:
    # The issue: a folder whose only setting is a .claude hook showed "Nothing yet", and
    # "Not now" then warned that hooks wait for trust.
    claude = project / ".claude"
    claude.mkdir()
    hook = {"type": "command", "command": "echo hi"}
    settings = {
        "hooks": {"Stop": [{"matcher": "*", "hooks": [hook]}]},
        "env": {"A": "1"},
        "permissions": {"allow": ["Bash(make:*)"]},
    }
    (claude / "settings.json").write_text(json.dumps(settings))
    (claude / "settings.local.json").write_text('{"model": "theirs"}')
    app = make_app(paths, project)
    async with app.run_test(size=SIZE) as pilot:
        dialog = await open_dialog(pilot, app)
        shown = str(dialog.query_one("#skipped Static").render())
        assert "Nothing yet" not in shown
        assert ".claude/settings.json: permissions.allow (1 rule), env, hooks" in shown
        assert ".claude/settings.local.json: model" in shown
