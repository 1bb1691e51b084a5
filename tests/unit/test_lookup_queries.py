"""The query ops behind /config, /add-dir, /doctor and the /model picker, through a real
SessionHost over a real Runtime; and the pure parts they use."""

from __future__ import annotations

import pytest

from agent_core import events as ev
from agent_core.config.settings import load_settings
from agent_core.config.settings_model import Settings
from agent_core.config.settings_origins import COMMAND_LINE, read_sources, settings_origins
from agent_core.llm.catalog import PROVIDERS, catalog_models
from agent_core.llm.key_source import key_source
from agent_core.llm.pricing import _TABLE
from agent_core.protocol import ops
from tests.helpers.scripted import Step
from tests.helpers.session_driver import SessionDriver
from tests.unit.test_session_host import open_host


async def ask(driver: SessionDriver, op: ops.Op) -> ev.Event:
    return await driver.answer(await driver.session.submit(op))


def by_key(report: ev.SettingsReport) -> dict[str, list[ev.SettingValue]]:
    found: dict[str, list[ev.SettingValue]] = {}
    for value in report.values:
        found.setdefault(value.key, []).append(value)
    return found


# --- /config ---------------------------------------------------------------------------


@pytest.mark.slow
async def test_config_traces_each_value_to_the_file_it_came_from(paths, project) -> None:
    paths.user_settings.write_text("model: claude-opus-4-6\nlimits:\n  retries: 2\n")
    (project / ".mewcode").mkdir()
    # An untrusted project: its model waits for trust, its deny rule applies at once.
    paths.project_settings.write_text(
        "model: gpt-4o\npermissions:\n  deny: ['Bash(rm:*)']\n  defaultMode: plan\n"
    )
    driver = SessionDriver(await open_host(paths, project, []))
    try:
        report = await ask(driver, ops.QueryConfig())
        assert isinstance(report, ev.SettingsReport)
        values = by_key(report)
        assert values["model"] == [
            ev.SettingValue("model", '"claude-opus-4-6"', str(paths.user_settings))
        ]
        assert values["limits.retries"][0].source == str(paths.user_settings)
        assert values["permissions.deny"] == [
            ev.SettingValue("permissions.deny", "Bash(rm:*)", str(paths.project_settings))
        ]
        assert values["permissions.defaultMode"][0].source == str(paths.project_settings)
        assert report.user_file == str(paths.user_settings)
        applies = {f.path: (f.exists, f.applies) for f in report.files}
        assert applies[str(paths.user_settings)] == (True, "user")
        assert applies[str(paths.project_settings)] == (
            True,
            "project, stricter parts only until trusted",
        )
    finally:
        await driver.stop()


async def test_config_reread_shows_the_files_as_they_are_now(paths, project) -> None:
    paths.user_settings.write_text("model: claude-opus-4-6\n")
    driver = SessionDriver(await open_host(paths, project, []))
    try:
        paths.user_settings.write_text("model: claude-haiku-4-5\n")
        in_force = await ask(driver, ops.QueryConfig())
        assert isinstance(in_force, ev.SettingsReport)
        assert by_key(in_force)["model"][0].value == '"claude-opus-4-6"'
        now = await ask(driver, ops.QueryConfig(reread=True))
        assert isinstance(now, ev.SettingsReport)
        assert by_key(now)["model"][0].value == '"claude-haiku-4-5"'

        paths.user_settings.write_text("permissions:\n  deny: [[[\n")
        broken = await ask(driver, ops.QueryConfig(reread=True))
        assert isinstance(broken, ev.OpRefused) and str(paths.user_settings) in broken.reason
    finally:
        await driver.stop()


def test_a_trusted_projects_value_wins_and_one_no_file_holds_is_the_command_line(
    paths, project, tmp_path
) -> None:
    paths.user_settings.write_text("model: claude-opus-4-6\ntheme: mewcode-light\n")
    (project / ".mewcode").mkdir()
    paths.project_settings.write_text("model: gpt-4o\n")
    settings = load_settings(paths, trust_project=True)
    settings.additional_directories.append(str(tmp_path))  # as --add-dir appends it
    files = read_sources(paths, tmp_path / "home")
    traced = {o.key: o for o in settings_origins(settings, files, settings.rules)}
    assert traced["model"].source == str(paths.project_settings)
    assert traced["theme"].source == str(paths.user_settings)
    assert traced["permissions.additionalDirectories"].source == COMMAND_LINE


def test_environment_values_are_never_shown(paths, project, tmp_path) -> None:
    paths.user_settings.write_text("env:\n  DEPLOY_TOKEN: hunter2-secret\n")
    settings = load_settings(paths)
    traced = settings_origins(settings, read_sources(paths, tmp_path), [])
    assert [(o.key, o.value) for o in traced] == [("env.DEPLOY_TOKEN", "(set; not shown)")]


# --- /add-dir ------------------------------------------------------------------------------


async def test_an_added_folder_is_readable_and_outside_it_is_still_not(
    paths, project, tmp_path
) -> None:
    from agent_core.tools.read import ReadTool

    added = tmp_path / "docs"
    added.mkdir()
    (added / "guide.md").write_text("hello\n")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "secret.md").write_text("no\n")
    host = await open_host(paths, project, [])
    driver = SessionDriver(host)
    runtime = host.runtime
    read = ReadTool()
    try:
        before = runtime.gate.decide(read, {"file_path": str(added / "guide.md")})
        assert before.decision in ("ask", "deny")

        answer = await ask(driver, ops.AddDirectory(path=str(added)))
        assert answer == ev.DirectoryAdded(op_id=answer.op_id, path=str(added), new=True)
        assert runtime.gate.decide(read, {"file_path": str(added / "guide.md")}).decision == (
            "allow"
        )
        outside_verdict = runtime.gate.decide(read, {"file_path": str(outside / "secret.md")})
        assert outside_verdict.decision == before.decision
        assert str(added) in runtime.sandbox_policy.writable  # commands may work there too
        again = await ask(driver, ops.AddDirectory(path=str(added / "..") + "/docs"))
        assert isinstance(again, ev.DirectoryAdded) and not again.new

        missing = await ask(driver, ops.AddDirectory(path="no-such-folder"))
        assert isinstance(missing, ev.OpRefused)
        assert missing.reason == "no-such-folder: no such directory"
        a_file = await ask(driver, ops.AddDirectory(path=str(added / "guide.md")))
        assert isinstance(a_file, ev.OpRefused)
        assert a_file.reason == f"{added / 'guide.md'}: not a directory"
    finally:
        await driver.stop()


@pytest.mark.slow
async def test_a_read_in_an_added_folder_runs_in_a_turn_without_asking(
    paths, project, tmp_path
) -> None:
    added = tmp_path / "docs"
    added.mkdir()
    (added / "guide.md").write_text("the guide says hello\n")
    steps = [
        Step(calls=[("c1", "Read", {"file_path": str(added / "guide.md")})]),
        Step(text="done"),
    ]
    host = await open_host(paths, project, steps)
    host.can_ask = False  # an ask would be a denial: only an allow lets the Read run
    driver = SessionDriver(host)
    try:
        await ask(driver, ops.AddDirectory(path=str(added)))
        done = await ask(driver, ops.UserTurn(text="read the guide"))
        assert isinstance(done, ev.TurnCompleted)
        result = next(e for e in driver.events() if isinstance(e, ev.ToolResult))
        assert not result.is_error and "the guide says hello" in result.content
    finally:
        await driver.stop()


# --- /doctor -------------------------------------------------------------------------------


async def test_the_doctor_reports_each_part_with_what_to_do(paths, project) -> None:
    driver = SessionDriver(await open_host(paths, project, []))
    try:
        report = await ask(driver, ops.QueryDoctor())
        assert isinstance(report, ev.DoctorReport)
        topics = [c.topic for c in report.checks]
        assert topics[:3] == ["provider", "sandbox", "mcp"] and "hooks" in topics
        mcp = next(c for c in report.checks if c.topic == "mcp")
        assert (mcp.state, mcp.detail) == ("ok", "no MCP servers configured")
        for check in report.checks:
            assert check.state == "ok" or check.fix, check
    finally:
        await driver.stop()


@pytest.mark.parametrize(
    ("settings", "env", "saved", "expected"),
    [
        (
            Settings(),
            {"ANTHROPIC_API_KEY": "sk-1"},
            False,
            (True, "environment variable ANTHROPIC_API_KEY"),
        ),
        (
            Settings(api_key_env="MY_KEY"),
            {"MY_KEY": "sk-1"},
            False,
            (True, "environment variable MY_KEY"),
        ),
        (Settings(), {}, True, (True, "credentials file {creds}")),
        (Settings(), {}, False, (False, "no key in ANTHROPIC_API_KEY nor in {creds}")),
    ],
)
def test_the_key_source_names_where_never_what(
    settings, env, saved, expected, mewcode_home
) -> None:
    env = {**env, "MEWCODE_HOME": str(mewcode_home)}
    creds = mewcode_home / "credentials.yaml"
    if saved:
        creds.write_text("anthropic:\n  api_key: sk-saved-secret\n")
    found, where = key_source("anthropic", settings, env)
    assert (found, where) == (expected[0], expected[1].format(creds=creds))
    assert "sk-" not in where


def test_a_keyless_server_and_the_demo_need_no_key() -> None:
    assert key_source("demo", Settings(), {}) == (True, "no key needed")
    found, where = key_source("openai", Settings(), {"OPENAI_BASE_URL": "http://u:pw@host"})
    assert found and "pw" not in where


# --- /model ----------------------------------------------------------------------------------


def test_the_picker_offers_the_default_first_and_only_priced_models() -> None:
    for name, entry in PROVIDERS.items():
        models = catalog_models(name)
        assert models[0] == entry.default_model
        assert len(set(models)) == len(models)
        for model in models:
            assert model in _TABLE or model == "demo", f"{name}: {model} has no price entry"
    assert catalog_models("nope") == ()


async def test_the_model_list_names_the_current_model_first_when_the_table_lacks_it(
    paths, project
) -> None:
    driver = SessionDriver(await open_host(paths, project, []))
    try:
        listing = await ask(driver, ops.QueryModels())
        assert isinstance(listing, ev.ModelList)
        assert (listing.provider, listing.current) == ("scripted", "scripted-model")
        assert [m.model for m in listing.models] == ["scripted-model"]
    finally:
        await driver.stop()
