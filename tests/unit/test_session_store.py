"""SessionStore: durable appends, crash-tolerant loading, listing."""

from __future__ import annotations

import os

import msgspec
import pytest

from agent_core.messages import Message, TextBlock, ToolResultBlock, ToolUseBlock, user_text
from agent_core.session import (
    CustomRecord,
    SessionNotFound,
    SessionStore,
    latest_session_id,
    list_sessions,
    load_session,
)
from agent_core.session.repair import ENDED_NOTE, NOT_RUN, history_problems


def assistant(text: str, *uses: ToolUseBlock) -> Message:
    return Message(role="assistant", content=[TextBlock(text), *uses])


def results(*ids: str) -> Message:
    return Message(role="user", content=[ToolResultBlock(i, f"out {i}") for i in ids])


def new_store(paths, env=None):
    return SessionStore.create(paths, model="claude-test", provider="anthropic", env=env or {})


def test_round_trip_keeps_messages_meta_and_file_location(paths):
    store = new_store(paths)
    convo = [
        user_text("fix the bug"),
        assistant("looking", ToolUseBlock("t1", "Read", {"path": "a.py"})),
        results("t1"),
        assistant("done"),
    ]
    for msg in convo:
        store.append_message(msg)
    store.close()

    assert store.path == paths.sessions_dir / f"{store.session_id}.jsonl"
    reopened, loaded = SessionStore.open(paths, store.session_id, env={})
    reopened.close()
    assert loaded.messages == convo
    assert loaded.warnings == []
    assert loaded.meta.session_id == store.session_id
    assert loaded.meta.model == "claude-test"
    assert loaded.meta.cwd == str(paths.project)


def test_every_line_is_one_json_record_with_timestamp(paths):
    store = new_store(paths)
    store.append_message(user_text("hi"))
    store.close()
    lines = store.path.read_bytes().splitlines()
    kinds = [msgspec.json.decode(line)["type"] for line in lines]
    assert kinds == ["meta", "message"]
    assert all(msgspec.json.decode(line)["ts"].endswith("Z") for line in lines)


def test_session_ids_sort_by_creation_and_are_unique(paths):
    ids = [new_store(paths).session_id for _ in range(20)]
    assert len(set(ids)) == 20
    assert all(len(i.split("-")) == 3 for i in ids)


def test_torn_last_line_is_skipped_with_warning_and_next_append_starts_fresh(paths):
    store = new_store(paths)
    store.append_message(user_text("first"))
    store.append_message(assistant("answer"))
    store.close()
    with open(store.path, "ab") as fh:  # a crash in the middle of a write
        fh.write(b'{"type":"message","message":{"role":"user","con')

    reopened, loaded = SessionStore.open(paths, store.session_id)
    assert [m.text() for m in loaded.messages] == ["first", "answer"]
    assert any("incomplete last line" in w for w in loaded.warnings)

    reopened.append_message(user_text("after the crash"))
    reopened.append_message(assistant("still here"))
    reopened.close()
    again = load_session(store.path)
    assert [m.text() for m in again.messages] == [
        "first",
        "answer",
        "after the crash",
        "still here",
    ]
    # The torn line is now an ordinary damaged line, reported with its number.
    assert any("line 4" in w and "(skipped)" in w for w in again.warnings)


def test_damaged_middle_line_is_reported_with_number_and_rest_loads(paths):
    store = new_store(paths)
    for msg in [user_text("a"), assistant("b"), user_text("c"), assistant("d")]:
        store.append_message(msg)
    store.close()
    lines = store.path.read_bytes().splitlines(keepends=True)
    lines[2] = b"{this is not json\n"  # the "b" answer
    store.path.write_bytes(b"".join(lines))

    loaded = load_session(store.path)
    assert f"session {store.path.name} line 3: not valid JSON (skipped)" in loaded.warnings
    # "a" and "c" merge into one user message so the history stays valid.
    assert [m.role for m in loaded.messages] == ["user", "assistant"]
    assert loaded.messages[0].content == [TextBlock("a"), TextBlock("c")]
    assert history_problems(loaded.messages) == []


def test_crash_mid_turn_closes_dangling_tool_calls_and_persists_the_repair(paths):
    store = new_store(paths)
    store.append_message(user_text("run it"))
    store.append_message(assistant("ok", ToolUseBlock("t1", "Bash", {"command": "make"})))
    store.close()

    reopened, loaded = SessionStore.open(paths, store.session_id)
    assert loaded.messages[-2].content == [ToolResultBlock("t1", NOT_RUN, is_error=True)]
    assert loaded.messages[-1].text() == ENDED_NOTE
    assert history_problems(loaded.messages) == []
    # The loop can now append the next user message as is.
    reopened.append_message(user_text("try again"))
    reopened.append_message(assistant("ran it"))
    reopened.close()
    again = load_session(store.path)
    assert again.warnings == []
    assert again.messages[:-2] == loaded.messages
    assert [m.text() for m in again.messages[-2:]] == ["try again", "ran it"]


def test_history_ending_with_user_message_gets_a_closing_note(paths):
    store = new_store(paths)
    store.append_message(user_text("hello"))
    store.close()
    _, loaded = SessionStore.open(paths, store.session_id)
    assert [m.role for m in loaded.messages] == ["user", "assistant"]
    assert loaded.messages[-1].text() == ENDED_NOTE


def test_compaction_record_replaces_history_on_load(paths):
    store = new_store(paths)
    for msg in [user_text("old 1"), assistant("old 2"), user_text("old 3"), assistant("old 4")]:
        store.append_message(msg)
    summary = [user_text("summary of old"), assistant("ok")]
    store.append_compaction(summary, tokens_before=9000, tokens_after=100)
    store.append_message(user_text("new"))
    store.append_message(assistant("new answer"))
    store.close()
    loaded = load_session(store.path)
    assert [m.text() for m in loaded.messages] == ["summary of old", "ok", "new", "new answer"]


def test_custom_records_come_back_as_extras(paths):
    store = new_store(paths)
    store.append_record(CustomRecord(name="snapshot", data={"turn": 1, "commit": "abc"}))
    store.close()
    loaded = load_session(store.path)
    assert [(e.name, e.data) for e in loaded.extras] == [("snapshot", {"turn": 1, "commit": "abc"})]


def test_records_of_an_unknown_kind_are_skipped_quietly(paths):
    store = new_store(paths)
    store.append_message(user_text("a"))
    store.close()
    with open(store.path, "ab") as fh:
        fh.write(b'{"type":"from-the-future","x":1}\n')
    loaded = load_session(store.path)
    assert loaded.messages[0].text() == "a"
    assert any("1 record(s) of an unknown kind" in w for w in loaded.warnings)


def test_secrets_never_reach_the_session_file(paths):
    env = {"ANTHROPIC_API_KEY": "sk-ant-api03-verysecretvalue"}
    store = new_store(paths, env=env)
    store.append_message(user_text("my key is sk-ant-api03-verysecretvalue"))
    store.append_message(
        assistant(
            "",
            ToolUseBlock("t1", "Bash", {"command": "curl -H 'Authorization: Bearer abcdefghijkl'"}),
        )
    )
    store.close()
    raw = store.path.read_text()
    assert "verysecretvalue" not in raw
    assert "abcdefghijkl" not in raw
    assert "[REDACTED]" in raw


def test_session_dir_is_created_on_demand(paths):
    store = new_store(paths)
    folder = paths.sessions_dir / store.session_id
    assert not folder.exists()
    assert store.dir == folder
    assert folder.is_dir()


def test_open_unknown_session_is_a_clear_error(paths):
    with pytest.raises(SessionNotFound, match="no session nope"):
        SessionStore.open(paths, "nope")


def test_list_sessions_newest_first_with_first_prompt_and_counts(paths):
    older = new_store(paths)
    older.append_message(user_text("first   session\nprompt"))
    older.append_message(assistant("a"))
    older.close()
    newer = new_store(paths)
    newer.append_message(user_text("second"))
    newer.close()
    os.utime(older.path, (1_000_000, 1_000_000))

    infos = list_sessions(paths)
    assert [i.session_id for i in infos] == [newer.session_id, older.session_id]
    assert infos[1].first_prompt == "first session prompt"
    assert infos[1].message_count == 2
    assert infos[0].message_count == 1
    assert infos[1].size_bytes == older.path.stat().st_size
    assert latest_session_id(paths) == newer.session_id


def test_listing_an_empty_project(paths):
    assert list_sessions(paths) == []
    assert latest_session_id(paths) is None


def test_disk_full_mid_write_is_a_clear_error_and_later_appends_start_fresh(paths, monkeypatch):
    import errno

    from agent_core.session import journal

    store = new_store(paths)
    store.append_message(user_text("kept"))
    real_write = os.write

    def full_disk(fd, data):
        real_write(fd, bytes(data)[: len(data) // 2])  # half the line lands, then ENOSPC
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(journal.os, "write", full_disk)
    with pytest.raises(journal.JournalWriteError, match="No space left on device"):
        store.append_message(assistant("lost"))
    monkeypatch.setattr(journal.os, "write", real_write)

    store.append_message(assistant("after space was freed"))
    store.close()
    loaded = load_session(store.path)
    assert [m.text() for m in loaded.messages] == ["kept", "after space was freed"]
    assert any("line 3" in w and "(skipped)" in w for w in loaded.warnings)


CANONICAL = "0f8fad5b-d9cb-469f-a165-70867728950e"


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        (CANONICAL.upper(), f"expected the lowercase form {CANONICAL}"),
        ("0F8fad5b-d9cb-469f-a165-70867728950e", f"expected the lowercase form {CANONICAL}"),
        (CANONICAL.replace("-", ""), f"expected the form {CANONICAL} (lowercase, with hyphens)"),
        ("{" + CANONICAL + "}", f"expected the form {CANONICAL}"),
        ("urn:uuid:" + CANONICAL, f"expected the form {CANONICAL}"),
        ("abc", "expected a UUID such as"),
    ],
)
def test_a_session_id_in_another_spelling_is_refused_not_rewritten(raw: str, said: str) -> None:
    from agent_core.errors import MewCodeError
    from agent_core.session.store import valid_session_uuid

    with pytest.raises(MewCodeError) as caught:
        valid_session_uuid(raw)
    message = str(caught.value)
    assert message.startswith(f"--session-id {raw}: ") and said in message
    assert "\n" not in message


def test_a_canonical_session_id_is_kept_as_given() -> None:
    from agent_core.session.store import valid_session_uuid

    assert valid_session_uuid(CANONICAL) == CANONICAL


def test_a_session_title_is_the_users_words_without_attached_files(paths):
    from agent_core.attached_files import file_block
    from agent_core.events import AttachedFile

    store = new_store(paths)
    attached = file_block(AttachedFile("src/app.py", 12, 12), "print('hi')\n")
    store.append_message(Message(role="user", content=[TextBlock("explain @src/app.py"), attached]))
    store.close()
    (info,) = list_sessions(paths)
    assert info.first_prompt == "explain @src/app.py"


def test_a_session_started_by_a_slash_command_is_titled_by_the_command(paths):
    from agent_core.session import PromptViewRecord

    store = new_store(paths)
    store.append_record(PromptViewRecord(shown="/review the parser"))
    store.append_message(user_text("Review the following uncommitted changes ... ```diff"))
    store.close()
    (info,) = list_sessions(paths)
    assert info.first_prompt == "/review the parser"
