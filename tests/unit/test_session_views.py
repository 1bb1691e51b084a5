"""How calls and early-stopped turns looked live, kept in the session file (issue 12, item 5)."""

from __future__ import annotations

from agent_core.context.compaction import build_compacted_history
from agent_core.messages import Message, TextBlock, user_text
from agent_core.session import (
    CallViewRecord,
    PromptViewRecord,
    SavedViews,
    SessionStore,
    TurnEndRecord,
    load_session,
)


def test_views_load_by_call_id_and_turn_ends_by_position_and_are_redacted(paths) -> None:
    secret = "sk-ant-api03-verysecretvalue"
    store = SessionStore.create(paths, model="m", provider="p", env={"ANTHROPIC_API_KEY": secret})
    store.append_message(user_text("go"))
    store.append_record(
        CallViewRecord(
            call_id="e1",
            status="ok",
            summary="app.py",
            duration_ms=12,
            diff=f"--- a/app.py\n+++ b/app.py\n@@ -1 +1 @@\n-k = 1\n+k = '{secret}'\n",
            diff_path="app.py",
            added=1,
            removed=1,
        )
    )
    store.append_message(Message(role="assistant", content=[TextBlock("[cancelled by user]")]))
    store.append_record(TurnEndRecord(stop_reason="cancelled", marker="[cancelled by user]"))
    store.close()

    assert secret not in store.path.read_text()
    loaded = load_session(store.path)
    assert loaded.warnings == []
    view = loaded.views.calls["e1"]
    assert (view.status, view.duration_ms, view.added, view.removed) == ("ok", 12, 1, 1)
    assert view.diff is not None and "+k = '[REDACTED]'" in view.diff
    # The stop came after the second message.
    assert loaded.views.turn_ends[2].stop_reason == "cancelled"


def test_a_compaction_drops_the_turn_ends_of_the_history_it_replaced(paths) -> None:
    store = SessionStore.create(paths, model="m", provider="p", env={})
    store.append_message(user_text("go"))
    store.append_message(Message(role="assistant", content=[TextBlock("[cancelled by user]")]))
    store.append_record(TurnEndRecord(stop_reason="cancelled"))
    store.append_compaction(build_compacted_history("the summary", "restore", []), 100, 10)
    store.close()
    assert load_session(store.path).views.turn_ends == {}


def test_a_compaction_moves_what_it_kept_with_the_messages(paths) -> None:
    """A cancelled /review kept verbatim by /compact: its stop and typed words go with it."""
    store = SessionStore.create(paths, model="m", provider="p", env={})
    old = [user_text("first"), Message(role="assistant", content=[TextBlock("done")])]
    for message in old:
        store.append_message(message)
    store.append_record(PromptViewRecord(shown="/review"))
    review = user_text("You are reviewing this diff: ...")
    marker = Message(role="assistant", content=[TextBlock("[cancelled by user]")])
    store.append_message(review)
    store.append_message(marker)
    store.append_record(TurnEndRecord(stop_reason="cancelled", marker="[cancelled by user]"))
    store.append_compaction(build_compacted_history("the summary", "", [review, marker]), 10, 5)
    store.close()
    views = load_session(store.path).views
    # The new history: summary, acknowledgement, the /review prompt (index 2), the marker.
    assert views.prompts == {2: "/review"}
    assert list(views.turn_ends) == [4]
    assert views.turn_ends[4].marker == "[cancelled by user]"


def test_the_live_views_follow_a_compaction_as_the_file_does(paths) -> None:
    from agent_core.agent.call_views import ViewKeepingSink

    store = SessionStore.create(paths, model="m", provider="p", env={})
    views = SavedViews()
    sink = ViewKeepingSink(store, lambda: views, 0)
    first = [user_text("first"), Message(role="assistant", content=[TextBlock("done")])]
    review = user_text("You are reviewing this diff: ...")
    marker = Message(role="assistant", content=[TextBlock("[cancelled by user]")])

    def record(view: PromptViewRecord | TurnEndRecord, messages: int) -> None:
        views.note(view, messages)  # as CallViewRecorder does: in memory and in the file
        store.append_record(view)

    for message in first:
        sink.append_message(message)
    record(PromptViewRecord(shown="/review"), 2)
    sink.append_message(review)
    sink.append_message(marker)
    record(TurnEndRecord(stop_reason="cancelled", marker="[cancelled by user]"), 4)
    sink.append_compaction(build_compacted_history("the summary", "", [review, marker]), 10, 5)
    store.close()
    loaded = load_session(store.path).views
    assert views.prompts == {2: "/review"} and list(views.turn_ends) == [4]
    assert loaded.prompts == views.prompts  # the file reads back the same positions
    assert list(loaded.turn_ends) == [4]
