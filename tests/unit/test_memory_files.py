"""File memory loaded into the environment block (SPEC §10)."""

from __future__ import annotations

from agent_core.memory.files import load_memory


def test_memory_files_load_in_order_within_budgets(tmp_path) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    project.mkdir()
    (home / "MEWCODE.md").write_text("user: prefer tabs")
    (project / "MEWCODE.md").write_text("project: run make test")
    (project / "CLAUDE.md").write_text("x" * 10_000)
    (project / "MEWCODE.local.md").write_text("local: my db is on port 5433")
    text = load_memory(home, project, per_file=6_000, total=16_000)
    assert (
        text.index("prefer tabs") < text.index("make test") < text.index("xxx") < text.index("5433")
    )
    assert text.count("x" * 6_001) == 0 and "[... cut" in text


def test_total_budget_and_no_files(tmp_path) -> None:
    (tmp_path / "AGENTS.md").write_text("a" * 5_000)
    (tmp_path / "CLAUDE.md").write_text("c" * 5_000)
    text = load_memory(tmp_path / "nohome", tmp_path, per_file=6_000, total=7_000)
    assert text.count("c") < 2_100 and "[... cut" in text
    assert load_memory(tmp_path / "a", tmp_path / "b") == ""


async def test_the_model_sees_the_project_memory(paths, project) -> None:
    from agent_core.agent.runtime import Runtime, RuntimeOptions
    from agent_core.config.settings import load_settings
    from tests.helpers.scripted import ScriptedProvider, Step

    (project / "MEWCODE.md").write_text("Always run `make check` before committing.")
    provider = ScriptedProvider([Step(text="ok")])
    rt = await Runtime.open(
        RuntimeOptions(cwd=project, paths=paths, settings=load_settings(paths), provider=provider)
    )
    await rt.run_turn("hi", None)
    await rt.close()
    env_block = provider.requests[0].system[1]
    assert "make check" in env_block.text and not env_block.cache
