"""/memory lists the memory files and the remembered facts, searches, adds and deletes."""

from __future__ import annotations

from agent_core.memory.long_term import LongTermMemory
from tests.tui.fakes import FakeRuntime
from tests.tui.test_main_commands import notices, run, start
from tests.tui.test_main_tools import screen_lines


async def test_memory_add_list_search_delete(make_app, project, paths):
    (project / "MEWCODE.md").write_text("Use tabs.\n")
    other = LongTermMemory(type(paths)(paths.home, project.parent))  # another project's fact
    other.remember("the other project deploys on Fridays")
    other.close()
    app = make_app(FakeRuntime(project))
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await start(pilot, app)
        await run(pilot, screen, "/memory")
        listing = notices(screen)[-1]
        assert "File memory (loaded every session):\n  " in listing
        assert listing.splitlines()[1].endswith("MEWCODE.md")
        assert "none yet: /memory add TEXT" in listing and "Fridays" not in listing

        await run(pilot, screen, "/memory add The staging DB is on port 5433.")
        assert notices(screen)[-1] == "Remembered #2 (project)."
        await run(pilot, screen, "/memory add the staging db is on port 5433")
        assert notices(screen)[-1] == "Already remembered as #2."
        await run(pilot, screen, "/memory add --global I prefer short commit messages")
        assert notices(screen)[-1] == "Remembered #3 (global)."

        await run(pilot, screen, "/memory")
        facts = notices(screen)[-1].split("memory.db): ", 1)[1].splitlines()
        assert facts == [
            "2 for this project and global",
            "  #3 [global] I prefer short commit messages",
            "  #2 [project] The staging DB is on port 5433.",
        ]
        assert any(
            "#3 [global] I prefer short commit messages" in line for line in screen_lines(app)
        )

        await run(pilot, screen, "/memory search staging port")
        assert notices(screen)[-1] == (
            "Memory matching 'staging port':\n  #2 [project] The staging DB is on port 5433."
        )
        await run(pilot, screen, "/memory rm 1")  # the other project's: not this one's to delete
        assert notices(screen)[-1] == "No fact #1 in this project's or the global memory."
        await run(pilot, screen, "/memory delete 2")
        assert notices(screen)[-1] == "Deleted #2."
        await run(pilot, screen, "/memory search staging")
        assert notices(screen)[-1].endswith("nothing matches")
        await run(pilot, screen, "/memory delete two")
        assert "expected a fact id such as 3, got 'two'" in notices(screen)[-1]
        await run(pilot, screen, "/memory forget everything")
        assert notices(screen)[-1].startswith("Usage: /memory [search TEXT")


async def test_memory_add_says_when_a_secret_was_kept_out(make_app, project, paths):
    app = make_app(FakeRuntime(project))
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await start(pilot, app)
        await run(pilot, screen, "/memory add deploy with DB_PASSWORD=hunter2x9")
        assert notices(screen)[-1] == (
            "Remembered #1 (project). A secret in it was stored as [REDACTED]."
        )
        await run(pilot, screen, "/memory search deploy")
        assert notices(screen)[-1].endswith("#1 [project] deploy with DB_PASSWORD=[REDACTED]")


async def test_memory_with_a_corrupt_file_says_which_file(make_app, project, paths):
    db = paths.home / "memory.db"
    db.write_bytes(b"not a database\n" * 100)
    app = make_app(FakeRuntime(project))
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await start(pilot, app)
        await run(pilot, screen, "/memory add remember this")
        warning = notices(screen)[-1]
        assert warning.startswith(f"{db}: ") and "off for this session" in warning
        assert db.read_bytes() == b"not a database\n" * 100


async def test_memory_lists_imports_and_the_imports_it_skipped(make_app, project):
    import os
    from pathlib import Path

    home = Path(os.environ["HOME"])
    (home / ".ssh").mkdir()
    (home / ".ssh" / "id_rsa").write_text("key")
    (project / "docs").mkdir()
    (project / "docs" / "style.md").write_text("Tabs.")
    (project / "CLAUDE.md").write_text("@docs/style.md and @~/.ssh/id_rsa")
    app = make_app(FakeRuntime(project))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start(pilot, app)
        await run(pilot, screen, "/memory")
        lines = notices(screen)[-1].splitlines()
        assert lines[1].endswith("CLAUDE.md")
        assert lines[2].endswith("docs/style.md (imported by " + lines[1].strip() + ")")
        assert lines[3] == (
            "  skipped: CLAUDE.md: @~/.ssh/id_rsa not imported: a hidden path "
            "(credentials, MewCode's own files or a Read deny rule)"
        )
