"""File memory loaded into the environment block: the CLAUDE.md family and its @imports."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agent_core.memory.files import collect_memory, load_memory, memory_reach
from agent_core.memory.imports import import_paths


@pytest.fixture
def world(tmp_path: Path) -> dict[str, Path]:
    """A user home (with ~/.ssh), MEWCODE_HOME, a project root and a subfolder start."""
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("SECRET-WITNESS-KEY")
    (home / ".claude").mkdir()
    mewhome = tmp_path / "mewhome"
    mewhome.mkdir()
    project = tmp_path / "project"
    (project / "sub" / "deeper").mkdir(parents=True)
    return {"home": home, "mew": mewhome, "project": project, "start": project / "sub" / "deeper"}


def reach(world: dict[str, Path], start: Path | None = None):
    home = world["home"]
    return memory_reach(
        world["mew"], home, world["project"], start or world["start"],
        [world["project"]], [str(home / ".ssh")],
    )  # fmt: skip


def test_the_family_loads_user_then_root_down_to_the_start_folder(world) -> None:
    home, project = world["home"], world["project"]
    (world["mew"] / "MEWCODE.md").write_text("mewcode-user")
    (home / ".claude" / "CLAUDE.md").write_text("claude-user")
    (project / "CLAUDE.md").write_text("root-claude")
    (project / "CLAUDE.local.md").write_text("root-local")
    (project / "sub" / "CLAUDE.md").write_text("sub-claude")
    (project / "sub" / "deeper" / "AGENTS.md").write_text("deeper-agents")
    text = load_memory(reach(world))
    order = ["mewcode-user", "claude-user", "root-claude", "root-local", "sub-claude"]
    positions = [text.index(word) for word in [*order, "deeper-agents"]]
    assert positions == sorted(positions)
    assert 'source="project memory: sub/CLAUDE.md"' in text


def test_memory_budgets_still_cut_each_file_and_the_whole(world) -> None:
    (world["project"] / "MEWCODE.md").write_text("x" * 10_000)
    (world["project"] / "CLAUDE.md").write_text("c" * 10_000)
    text = load_memory(reach(world), per_file=6_000, total=7_000)
    assert "x" * 6_000 in text and "x" * 6_001 not in text and "[... cut" in text
    assert "c" * 1_000 in text and "c" * 1_001 not in text
    assert load_memory(reach(world)) != "" and load_memory(reach(world, world["project"]))


def test_imports_follow_relative_home_and_absolute_paths_and_cut_cycles(world) -> None:
    project = world["project"]
    (project / "docs").mkdir()
    (project / "CLAUDE.md").write_text("See @docs/a.md and @~/.claude/style.md.")
    (project / "docs" / "a.md").write_text(f"alpha @b.md @{project / 'CLAUDE.md'}")
    (project / "docs" / "b.md").write_text("beta @a.md")  # a cycle back to a.md
    (world["home"] / ".claude" / "style.md").write_text("tabs please")
    loaded = collect_memory(reach(world))
    names = [f.path.name for f in loaded.files]
    assert names == ["CLAUDE.md", "a.md", "b.md", "style.md"]
    assert loaded.notices == []


def test_imports_stop_five_levels_deep_with_a_notice(world) -> None:
    project = world["project"]
    for level in range(8):
        (project / f"l{level}.md").write_text(f"level-{level} @l{level + 1}.md")
    (project / "CLAUDE.md").write_text("@l0.md")
    loaded = collect_memory(reach(world))
    text = "".join(f.text for f in loaded.files)
    assert "level-4" in text and "level-5" not in text  # CLAUDE.md + five hops
    assert any("5 levels deep" in n for n in loaded.notices)


def test_an_import_outside_the_allowed_area_is_never_read(world) -> None:
    project, home = world["project"], world["home"]
    (project / "CLAUDE.md").write_text("@~/.ssh/id_rsa @../outside.md @link.md")
    (project.parent / "outside.md").write_text("OUTSIDE-WITNESS")
    os.symlink(home / ".ssh" / "id_rsa", project / "link.md")
    loaded = collect_memory(reach(world))
    text = load_memory(reach(world))
    assert "SECRET-WITNESS-KEY" not in text and "OUTSIDE-WITNESS" not in text
    assert len(loaded.notices) == 3
    assert "CLAUDE.md: @~/.ssh/id_rsa not imported: a hidden path" in loaded.notices[0]


def test_a_project_memory_file_linking_out_is_not_read(world) -> None:
    os.symlink(world["home"] / ".ssh" / "id_rsa", world["project"] / "CLAUDE.md")
    loaded = collect_memory(reach(world))
    assert loaded.files == [] and "CLAUDE.md: not read" in loaded.notices[0]


def test_imports_inside_code_are_not_imports() -> None:
    text = "Use @a.md\n```\n@fenced.md\n```\nand `@span.md` or me@mail.com, (@b.md)"
    assert import_paths(text) == ["a.md"]
    assert import_paths("~~~md\n@x.md\n~~~\n@y.md") == ["y.md"]


@pytest.mark.slow
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
