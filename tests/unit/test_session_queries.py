"""The slash commands' ops through a real SessionHost over a real Runtime: memory, rules,
context, the review diff, custom commands, skills, hooks and the session list."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from agent_core import events as ev
from agent_core.memory.long_term import LongTermMemory
from agent_core.protocol import ops
from tests.helpers.scripted import Step
from tests.helpers.session_driver import SessionDriver
from tests.unit.test_session_host import open_host


async def ask(driver: SessionDriver, op: ops.Op) -> ev.Event:
    return await driver.answer(await driver.session.submit(op))


async def test_facts_are_remembered_listed_searched_and_forgotten(paths, project) -> None:
    other = LongTermMemory(type(paths)(paths.home, project.parent))  # another project's fact
    other.remember("the other project deploys on Fridays")
    other.close()
    (project / "MEWCODE.md").write_text("Use tabs.\n")
    driver = SessionDriver(await open_host(paths, project, []))
    try:
        added = await ask(driver, ops.RememberFact(text="The staging DB is on port 5433."))
        assert isinstance(added, ev.FactRemembered)
        assert (added.fact_id, added.scope, added.new, added.redacted) == (
            2,
            "project",
            True,
            False,
        )
        again = await ask(driver, ops.RememberFact(text="the staging db is on port 5433"))
        assert isinstance(again, ev.FactRemembered) and (again.fact_id, again.new) == (2, False)
        secret = await ask(
            driver, ops.RememberFact(text="pw DB_PASSWORD=hunter2x9", scope="global")
        )
        assert (
            isinstance(secret, ev.FactRemembered) and secret.redacted and secret.scope == "global"
        )

        report = await ask(driver, ops.QueryMemory())
        assert isinstance(report, ev.MemoryReport)
        assert report.store == str(paths.home / "memory.db")
        assert [f.path for f in report.files] == [str(project / "MEWCODE.md")]
        assert [(f.id, f.scope) for f in report.facts] == [(3, "global"), (2, "project")]
        found = await ask(driver, ops.QueryMemory(search="staging port"))
        assert isinstance(found, ev.MemoryReport) and [f.id for f in found.facts] == [2]

        elsewhere = await ask(driver, ops.ForgetFact(fact_id=1))  # not this project's to delete
        assert elsewhere == ev.FactForgotten(op_id=elsewhere.op_id, fact_id=1, deleted=False)
        gone = await ask(driver, ops.ForgetFact(fact_id=2))
        assert isinstance(gone, ev.FactForgotten) and gone.deleted
        blank = await ask(driver, ops.RememberFact(text="   "))
        assert isinstance(blank, ev.OpRefused) and blank.reason == "the fact is empty"
    finally:
        await driver.stop()


async def test_a_fact_is_refused_naming_the_memory_file_that_is_off(paths, project) -> None:
    db = paths.home / "memory.db"
    db.write_bytes(b"not a database\n" * 100)
    driver = SessionDriver(await open_host(paths, project, []))
    try:
        refused = await ask(driver, ops.RememberFact(text="remember this"))
        assert isinstance(refused, ev.OpRefused) and refused.op == "remember_fact"
        assert refused.reason.startswith(f"{db}: ") and "off for this session" in refused.reason
        report = await ask(driver, ops.QueryMemory())
        assert isinstance(report, ev.MemoryReport) and any(str(db) in p for p in report.problems)
    finally:
        await driver.stop()
    assert db.read_bytes() == b"not a database\n" * 100


async def test_rules_are_listed_with_their_file_and_removed_from_it(paths, project) -> None:
    settings = paths.home / "settings.yaml"
    settings.write_text(
        json.dumps({"permissions": {"allow": ["Bash(git:*)"], "deny": ["Read(x)"]}})
    )
    driver = SessionDriver(await open_host(paths, project, []))
    try:
        listing = await ask(driver, ops.ListRules())
        assert isinstance(listing, ev.RuleList)
        saved = ev.RuleEntry("Bash(git:*)", "allow", str(settings))
        assert (
            saved in listing.rules
            and ev.RuleEntry("Read(x)", "deny", str(settings)) in listing.rules
        )
        removed = await ask(driver, ops.RemoveRule(rule=saved))
        assert isinstance(removed, ev.RuleRemoved) and removed.removed and removed.rule == saved
        assert "Bash(git:*)" not in settings.read_text() and "Read(x)" in settings.read_text()
        after = await ask(driver, ops.ListRules())
        assert isinstance(after, ev.RuleList) and saved not in after.rules
        twice = await ask(driver, ops.RemoveRule(rule=saved))
        assert isinstance(twice, ev.RuleRemoved) and not twice.removed
        cli = await ask(driver, ops.RemoveRule(rule=ev.RuleEntry("Edit", "allow", "cli")))
        assert isinstance(cli, ev.OpRefused) and "came from the command line" in cli.reason
    finally:
        await driver.stop()


async def test_the_context_report_is_the_runtimes_breakdown(paths, project) -> None:
    host = await open_host(paths, project, [])
    driver = SessionDriver(host)
    try:
        report = await ask(driver, ops.QueryContext())
        assert isinstance(report, ev.ContextReport)
        assert report.breakdown == host.runtime.context_breakdown()
        assert report.breakdown["context_window"] > 0 and report.breakdown["system_prompt"] > 0
    finally:
        await driver.stop()


def committed_repo_with_a_change(project) -> None:
    def git(*args: str) -> None:
        subprocess.run(
            ["git", "-c", "user.email=t@t", "-c", "user.name=t", *args],
            cwd=project,
            check=True,
            capture_output=True,
        )

    (project / "a.txt").write_text("one\n" * 50)
    git("init", "-q")
    git("add", "a.txt")
    git("commit", "-qm", "first")
    (project / "a.txt").write_text("two\n" * 50)


@pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")
@pytest.mark.slow
async def test_the_review_diff_is_cut_to_the_asked_size(paths, project) -> None:
    from agent_core.sandbox import sandbox_status

    if not sandbox_status().available:
        pytest.skip("git runs contained only with an OS sandbox")
    committed_repo_with_a_change(project)
    driver = SessionDriver(await open_host(paths, project, []))
    try:
        whole = await ask(driver, ops.QueryDiff())
        assert isinstance(whole, ev.DiffReport) and not whole.problem and not whole.cut
        assert "-one\n" in whole.diff and "+two\n" in whole.diff
        cut = await ask(driver, ops.QueryDiff(max_chars=40))
        assert isinstance(cut, ev.DiffReport) and cut.cut and cut.diff == whole.diff[:40]
        bad = await ask(driver, ops.QueryDiff(max_chars=0))
        assert isinstance(bad, ev.OpRefused) and "max_chars must be positive" in bad.reason
    finally:
        await driver.stop()


async def test_without_a_sandbox_the_review_diff_says_why(paths, project, monkeypatch) -> None:
    monkeypatch.setenv("MEWCODE_SANDBOX", "none")
    driver = SessionDriver(await open_host(paths, project, []))
    try:
        report = await ask(driver, ops.QueryDiff())
        assert isinstance(report, ev.DiffReport) and report.diff == ""
        assert report.problem.startswith("git cannot run contained here")
    finally:
        await driver.stop()


async def test_custom_commands_come_with_their_body_and_file_notices(paths, project) -> None:
    folder = project / ".claude" / "commands"
    (folder / "frontend").mkdir(parents=True)
    (folder / "greet.md").write_text(
        "---\ndescription: Say hello\nargument-hint: [name]\nmodel: x\n---\nHello $ARGUMENTS."
    )
    (folder / "frontend" / "component.md").write_text("# Make a component\nBuild $1.")
    driver = SessionDriver(await open_host(paths, project, []))
    try:
        listing = await ask(driver, ops.QueryCommands())
        assert isinstance(listing, ev.CommandList)
        by_name = {c.name: c for c in listing.commands}
        assert by_name["greet"] == ev.CommandInfo(
            "greet", "Say hello", "[name]", str(folder / "greet.md"), "Hello $ARGUMENTS."
        )
        assert by_name["frontend:component"].description == "Make a component"
        assert listing.notices == [
            f"{folder / 'greet.md'}: model not supported: /greet runs with the session's "
            "permissions and model"
        ]
    finally:
        await driver.stop()


async def test_skills_and_hooks_are_told_as_a_list_shows_them(paths, project) -> None:
    skill = paths.home / "skills" / "tidy"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: tidy\ndescription: Tidy imports\n---\nDo it.")
    hooks = {
        "Stop": [{"hooks": [{"type": "command", "command": "make test"}]}],
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./c.sh"}]}],
    }
    (paths.home / "settings.yaml").write_text(json.dumps({"hooks": hooks}))
    driver = SessionDriver(await open_host(paths, project, []))
    try:
        skills = await ask(driver, ops.QuerySkills())
        assert isinstance(skills, ev.SkillList)
        tidy = next(s for s in skills.skills if s.name == "tidy")
        assert (tidy.description, tidy.path) == ("Tidy imports", str(skill / "SKILL.md"))
        assert skills.folders == [
            str(paths.home / "skills"),
            str(project / ".mewcode" / "skills"),
        ]
        listed = await ask(driver, ops.QueryHooks())
        assert isinstance(listed, ev.HookList)
        assert [(h.event, h.matcher, h.command) for h in listed.active] == [
            ("PreToolUse", "Bash", "./c.sh"),
            ("Stop", "", "make test"),
        ]
        assert {h.source for h in listed.active} == {str(paths.home / "settings.yaml")}
    finally:
        await driver.stop()


@pytest.mark.slow
async def test_the_session_list_carries_what_the_picker_shows(paths, project) -> None:
    host = await open_host(paths, project, [Step(text="hello")])
    driver = SessionDriver(host)
    try:
        await ask(driver, ops.UserTurn(text="first prompt"))
        listing = await ask(driver, ops.ListSessions())
        assert isinstance(listing, ev.SessionList)
        (only,) = listing.sessions
        assert (only.session_id, only.first_prompt, only.message_count) == (
            host.session_id,
            "first prompt",
            2,
        )
        assert only.size_bytes == host.runtime.session_path.stat().st_size
    finally:
        await driver.stop()
