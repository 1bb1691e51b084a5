"""The commands users look for: /config, /add-dir, /doctor, /export, the /model picker and
the /mode bypassPermissions confirmation, typed in the prompt of the real app."""

from __future__ import annotations

from pathlib import Path

from agent_core.config.settings import load_settings
from agent_core.messages import Message, TextBlock, ToolResultBlock, ToolUseBlock, user_text
from agent_core.protocol.session import SandboxStatus
from mewcode_tui.commands import config as config_command
from mewcode_tui.screens.confirm import ConfirmScreen
from mewcode_tui.screens.model_picker import ModelPickerScreen
from tests.tui.conftest import past_key_guard, wait_until
from tests.tui.fakes import FakeProvider, FakeRuntime
from tests.tui.test_main_commands import notices, run, start


async def type_command(pilot, screen, text: str) -> None:
    """Type a command that opens a dialog (no line in the chat to wait for) and press Enter."""
    screen.prompt.insert(text)
    await pilot.pause()
    screen.menu.hide()
    await pilot.press("enter")


async def test_help_lists_the_new_commands(make_app, project):
    app = make_app(FakeRuntime(project))
    async with app.run_test(size=(100, 60)) as pilot:
        screen = await start(pilot, app)
        await run(pilot, screen, "/help")
        shown = notices(screen)[-1]
        for name in ("/config [edit]", "/add-dir PATH", "/doctor", "/export [FILE]", "/model"):
            assert name in shown


async def test_config_shows_each_value_with_its_file(make_app, project, paths):
    paths.user_settings.write_text("model: claude-opus-4-6\nlimits:\n  retries: 2\n")
    runtime = FakeRuntime(project)
    runtime.settings = load_settings(paths)
    app = make_app(runtime)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start(pilot, app)
        await run(pilot, screen, "/config")
        shown = notices(screen)[-1]
        lines = shown.splitlines()
        model = next(line for line in lines if line.strip().startswith("model "))
        assert '"claude-opus-4-6"' in model and model.endswith("settings.yaml")
        retries = next(line for line in lines if "limits.retries" in line)
        assert "= 2" in retries and retries.endswith("settings.yaml")
        assert "permissions.allow" in shown and "Bash(git:*)" in shown
        assert "Edit yours with /config edit" in shown
        assert "6. ./.mewcode/settings.local.yaml (absent)" in shown  # the project's, short


async def test_config_edit_opens_the_user_file_and_tells_what_changed(
    make_app, project, paths, monkeypatch
):
    paths.user_settings.write_text("model: claude-opus-4-6\n")
    runtime = FakeRuntime(project)
    runtime.settings = load_settings(paths)
    edited: list[tuple[list[str], str]] = []

    def editor(app, command, path):
        edited.append((command, path))
        Path(path).write_text("model: claude-haiku-4-5\ntheme: mewcode-light\n")
        return None

    monkeypatch.setenv("EDITOR", "myeditor --wait")
    monkeypatch.setattr(config_command, "run_editor", editor)
    app = make_app(runtime)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start(pilot, app)
        await run(pilot, screen, "/config edit")
        await wait_until(pilot, lambda: "Changed in the files" in notices(screen)[-1])
        told = notices(screen)[-1]
        assert edited == [(["myeditor", "--wait"], str(paths.user_settings))]
        assert '~ model: "claude-opus-4-6" → "claude-haiku-4-5"' in told
        assert '+ theme = "mewcode-light"' in told
        assert "restart it to apply them" in told


async def test_add_dir_adds_a_folder_and_refuses_a_missing_one_or_a_file(
    make_app, project, tmp_path
):
    other = tmp_path / "other"
    other.mkdir()
    (tmp_path / "a-file").write_text("x")
    runtime = FakeRuntime(project)
    app = make_app(runtime)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start(pilot, app)
        await run(pilot, screen, f"/add-dir {other}")
        assert notices(screen)[-1].startswith(f"Added {other}:")
        assert runtime.added_directories == [str(other)]
        await run(pilot, screen, f"/add-dir {tmp_path / 'nope'}")
        assert notices(screen)[-1] == (
            f"Cannot add the folder: {tmp_path / 'nope'}: no such directory."
        )
        await run(pilot, screen, f"/add-dir {tmp_path / 'a-file'}")
        assert notices(screen)[-1].endswith("a-file: not a directory.")
        assert runtime.added_directories == [str(other)]


async def test_doctor_names_the_key_variable_and_what_to_do(make_app, project, monkeypatch):
    monkeypatch.setenv("MEWCODE_PRELOAD", "0")
    runtime = FakeRuntime(project)
    runtime.provider = FakeProvider("anthropic", "claude-sonnet-4-6")
    runtime.provider_env = {"ANTHROPIC_API_KEY": "sk-ant-secret-value"}
    runtime.sandbox = SandboxStatus("none", False)
    app = make_app(runtime)
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await start(pilot, app)
        await run(pilot, screen, "/doctor")
        shown = notices(screen)[-1]
        assert (
            "✓ provider  anthropic · model claude-sonnet-4-6 · key: environment variable ANTHROPIC_API_KEY"
            in shown
        )
        assert "sk-ant-secret-value" not in shown
        assert "✗ sandbox   none: commands run unconfined" in shown
        assert "→ install bubblewrap" in shown
        assert "no MCP servers configured" in shown and "0 hooks loaded" in shown
        assert "⚠ preload   warm start is off" in shown and "→ unset MEWCODE_PRELOAD" in shown


async def test_export_writes_the_conversation_and_keeps_an_existing_file(make_app, project):
    history = [
        user_text("what is in notes.txt?"),
        Message(
            "assistant",
            [TextBlock("Let me look."), ToolUseBlock("c1", "Read", {"file_path": "notes.txt"})],
        ),
        Message("user", [ToolResultBlock("c1", "line one\nline two")]),
        Message("assistant", [TextBlock("It holds two lines.")]),
    ]
    runtime = FakeRuntime(project, history=history)
    app = make_app(runtime)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start(pilot, app)
        await run(pilot, screen, "/export")
        target = project / "mewcode-export-fake-session.md"
        assert notices(screen)[-1] == f"Exported 4 messages to {target}."
        text = target.read_text()
        assert "## User\n\nwhat is in notes.txt?" in text
        assert '**Read** `{"file_path": "notes.txt"}`\n\n```\nline one\nline two\n```' in text
        assert text.rstrip().endswith("It holds two lines.")
        target.write_text("mine")
        await run(pilot, screen, "/export")
        assert "exists: /export mewcode-export-fake-session.md --force" in notices(screen)[-1]
        assert target.read_text() == "mine"
        await run(pilot, screen, "/export --force")
        assert "It holds two lines." in target.read_text()


async def test_model_without_a_name_opens_a_picker_enter_switches_esc_cancels(make_app, project):
    runtime = FakeRuntime(project)
    runtime.provider = FakeProvider("anthropic", "claude-sonnet-4-6")
    switched: list[tuple[str, str | None]] = []

    async def switch_model(model: str, provider: str | None = None) -> None:
        switched.append((model, provider))
        runtime.provider = FakeProvider("anthropic", model)

    runtime.switch_model = switch_model  # type: ignore[method-assign]
    app = make_app(runtime)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start(pilot, app)
        await type_command(pilot, screen, "/model")
        await wait_until(pilot, lambda: isinstance(app.screen, ModelPickerScreen))
        picker = app.screen
        assert [m.model for m in picker.listing.models][:2] == [
            "claude-sonnet-4-6",
            "claude-opus-4-6",
        ]
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)
        assert switched == []

        await type_command(pilot, screen, "/model")
        await wait_until(pilot, lambda: isinstance(app.screen, ModelPickerScreen))
        await pilot.press("enter")  # the first model that is not the current one
        await wait_until(pilot, lambda: switched == [("claude-opus-4-6", None)])
        await wait_until(pilot, lambda: "Now using claude-opus-4-6" in notices(screen)[-1])

        await run(pilot, screen, "/model claude-haiku-4-5")  # a name still switches at once
        assert switched[-1] == ("claude-haiku-4-5", None)


async def test_bypass_permissions_asks_first_and_no_keeps_the_mode(make_app, project):
    runtime = FakeRuntime(project)
    app = make_app(runtime)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start(pilot, app)
        await type_command(pilot, screen, "/mode bypassPermissions")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")  # typed ahead: the guard ignores it
        assert isinstance(app.screen, ConfirmScreen) and runtime.mode == "default"
        await past_key_guard(pilot, app)
        await pilot.press("n")
        await wait_until(pilot, lambda: notices(screen)[-1] == "Mode unchanged.")
        assert runtime.mode == "default"

        await type_command(pilot, screen, "/mode bypassPermissions")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await past_key_guard(pilot, app)
        await pilot.press("y")
        await wait_until(pilot, lambda: runtime.mode == "bypassPermissions")
        await wait_until(pilot, lambda: notices(screen)[-1] == "Mode bypassPermissions.")

        await run(pilot, screen, "/mode plan")  # the other modes switch without a question
        assert runtime.mode == "plan"
