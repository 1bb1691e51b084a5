"""@-mentions: which files a prompt attaches, under the Read permission and a byte budget."""

from __future__ import annotations

import os

import pytest

from agent_core.agent.attachments import AttachmentBudget, attach_mentions, mentions
from agent_core.agent.permission_gate import SettingsPermissionGate
from agent_core.attached_files import attachments_of
from agent_core.config.settings import RuleEntry, Settings
from agent_core.messages import Message, TextBlock


def gate(paths, *rules: RuleEntry, mode: str = "default") -> SettingsPermissionGate:
    return SettingsPermissionGate(paths, Settings(), list(rules), lambda: mode)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("explain @app.py.", ["app.py"]),
        ("compare @src/a.py and @src/b.py, then @src/a.py", ["src/a.py", "src/b.py"]),
        ('read @"my notes.md" please', ["my notes.md"]),
        ("mail bob@example.com", []),
        ("(see @docs/x.md)", ["docs/x.md"]),
    ],
)
def test_mentions_are_the_paths_after_an_at(text, found):
    assert mentions(text) == found


def test_a_mentioned_file_is_attached_with_its_path_and_content(paths, project):
    (project / "app.py").write_text("print('hi')\n")
    got = attach_mentions("explain @app.py", project, gate(paths), AttachmentBudget())
    assert [(f.path, f.size, f.shown) for f in got.files] == [("app.py", 12, 12)]
    assert got.notes == []
    (block,) = got.blocks
    assert block.text.startswith('<attached-file path="app.py"')
    assert "print('hi')" in block.text


def test_a_read_deny_rule_is_not_bypassed_by_a_mention(paths, project):
    (project / "secret.txt").write_text("hunter2\n")
    deny = RuleEntry("Read(secret.txt)", "deny", "cli")
    got = attach_mentions("show @secret.txt", project, gate(paths, deny), AttachmentBudget())
    assert got.blocks == [] and got.files == []
    assert len(got.notes) == 1 and "@secret.txt: not attached" in got.notes[0]


def test_a_symlink_to_a_denied_file_is_not_attached(paths, project):
    (project / "secret.txt").write_text("hunter2\n")
    os.symlink(project / "secret.txt", project / "innocent.txt")
    deny = RuleEntry("Read(secret.txt)", "deny", "cli")
    got = attach_mentions("show @innocent.txt", project, gate(paths, deny), AttachmentBudget())
    assert got.blocks == [] and "not attached" in got.notes[0]


def test_a_file_outside_the_project_is_not_attached_as_read_would_not_read_it(
    paths, project, tmp_path
):
    outside = tmp_path / "outside.txt"
    outside.write_text("elsewhere\n")
    got = attach_mentions(f"read @{outside}", project, gate(paths), AttachmentBudget())
    assert got.blocks == []
    assert "not attached" in got.notes[0] and "outside the project" in got.notes[0]


def test_missing_binary_and_folder_mentions_are_one_line_notes(paths, project):
    (project / "blob.bin").write_bytes(b"\x00\x01\x02" * 10)
    (project / "src").mkdir()
    got = attach_mentions(
        "look at @nothere.py @blob.bin @src and ping @bob", project, gate(paths), AttachmentBudget()
    )
    assert got.blocks == []
    assert len(got.notes) == 3  # "@bob" is not a path: no note
    assert "no such file" in got.notes[0]
    assert "binary" in got.notes[1]
    assert "folder" in got.notes[2]
    assert all("\n" not in note for note in got.notes)


def test_the_budget_cuts_a_big_file_and_says_so(paths, project):
    (project / "big.log").write_text("".join(f"line {i:05d}\n" for i in range(10_000)))
    budget = AttachmentBudget(per_file=1_000, per_prompt=1_500)
    (project / "small.txt").write_text("x" * 700 + "\n")
    (project / "late.txt").write_text("late\n")
    got = attach_mentions("@big.log @small.txt @late.txt", project, gate(paths), budget)
    big, small = got.files
    assert big.size == 110_000 and big.shown <= 1_000 and big.shown % 11 == 0  # whole lines
    assert "only the first" in got.blocks[0].text
    assert small.shown <= 1_500 - big.shown
    assert len(got.blocks) == 2  # the prompt's budget is used up before late.txt
    assert any("big.log: only the first" in note for note in got.notes)
    assert any("late.txt: not attached" in note for note in got.notes)


def test_a_saved_message_gives_back_its_text_and_attachments(paths, project):
    (project / "a.py").write_text("x = 1\n")
    got = attach_mentions("explain @a.py", project, gate(paths), AttachmentBudget())
    message = Message(role="user", content=[TextBlock("explain @a.py"), *got.blocks])
    texts, files = attachments_of(message)
    assert texts == ["explain @a.py"] and files == got.files
