"""/export's Markdown and /config's change lines: pure text from the session's reports."""

from __future__ import annotations

from agent_core import events as ev
from agent_core.messages import Message, TextBlock, ToolResultBlock, ToolUseBlock
from mewcode_tui.commands.config import changed_lines
from mewcode_tui.commands.export import conversation_markdown, short_result


def report(*items: ev.HistoryItem, calls=None) -> ev.HistoryReport:
    return ev.HistoryReport(op_id="", items=list(items), calls=calls or {})


def test_a_result_holding_a_fence_gets_a_longer_one() -> None:
    history = report(
        ev.HistoryItem(Message("user", [TextBlock("show it")]), words=["show it"]),
        ev.HistoryItem(Message("assistant", [ToolUseBlock("c1", "Bash", {"command": "cat x"})])),
        ev.HistoryItem(Message("user", [ToolResultBlock("c1", "```py\nx = 1\n```", True)])),
        calls={"c1": ev.CallViewRecord("c1", "error", summary="cat x")},
    )
    text = conversation_markdown(history, "T")
    assert "**Bash** `cat x` — error\n\n````\n```py\nx = 1\n```\n````" in text


def test_the_summary_is_shown_once_and_its_acknowledgement_not_at_all() -> None:
    history = report(
        ev.HistoryItem(Message("user", [TextBlock("<summary>we fixed it</summary>")]), "summary"),
        ev.HistoryItem(Message("assistant", [TextBlock("Understood.")]), "summary_ack"),
    )
    text = conversation_markdown(history, "T")
    assert "## Earlier conversation (summarised)" in text and "Understood." not in text


def test_a_long_result_is_cut_to_its_first_lines() -> None:
    cut = short_result("\n".join(f"line {n}" for n in range(20)))
    assert cut.splitlines()[-1] == "… (14 more lines)" and "line 5" in cut and "line 6" not in cut


def test_an_edit_is_told_as_added_removed_and_changed_keys() -> None:
    def settings(**values: str) -> ev.SettingsReport:
        return ev.SettingsReport(
            op_id="",
            values=[ev.SettingValue(k, v, "f") for k, v in values.items()],
            files=[],
            user_file="f",
        )

    before = settings(model='"a"', theme='"dark"')
    after = settings(model='"b"', provider='"openai"')
    assert changed_lines(before, after) == [
        '  ~ model: "a" → "b"',
        '  + provider = "openai"',
        '  - theme (was "dark")',
    ]
    assert changed_lines(before, before) == []


def test_export_never_writes_through_a_symlink_a_command_could_have_planted(tmp_path) -> None:
    """MewCode writes the export itself, outside the sandbox: a link at the file's name
    (dangling or not) is refused, and its target is never created or changed."""
    import pytest

    from agent_core.errors import MewCodeError
    from mewcode_tui.commands.export import write_export

    outside = tmp_path / "outside"
    outside.mkdir()
    planted = tmp_path / "mewcode-export-s1.md"
    planted.symlink_to(outside / "authorized_keys")  # dangling: exists() says False
    for force in (False, True):
        with pytest.raises(MewCodeError, match="symbolic link"):
            write_export(planted, "conversation", force)
    assert not (outside / "authorized_keys").exists()
    (outside / "authorized_keys").write_text("keep")
    with pytest.raises(MewCodeError, match="symbolic link"):
        write_export(planted, "conversation", True)
    assert (outside / "authorized_keys").read_text() == "keep"


def test_export_writes_a_new_file_and_replaces_one_only_with_force(tmp_path) -> None:
    import pytest

    from agent_core.errors import MewCodeError
    from mewcode_tui.commands.export import write_export

    path = tmp_path / "out.md"
    write_export(path, "one", False)
    with pytest.raises(MewCodeError, match="--force replaces it"):
        write_export(path, "two", False)
    write_export(path, "two", True)
    assert path.read_text() == "two"
