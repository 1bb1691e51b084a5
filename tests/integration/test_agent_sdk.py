"""The Claude Agent SDK drives `mewcode` over stream-json, against the fake LLM server.

The app code in these tests is what an app written for Claude Code would be; only
``cli_path`` (and the environment pointing at the fake server) differs
(docs/manual.md#claude-agent-sdk).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest

sdk = pytest.importorskip("claude_agent_sdk")
from claude_agent_sdk import (  # noqa: E402
    AssistantMessage,
    ClaudeAgentOptions,
    ClaudeSDKClient,
    ResultMessage,
    StreamEvent,
    SystemMessage,
    TextBlock,
    query,
)

from tests.fakellm import last_tool_result_text, last_user_text  # noqa: E402

MEWCODE = Path(sys.executable).with_name("mewcode")


def options(fake_llm, project: Path, mewcode_home: Path, **kw: Any) -> ClaudeAgentOptions:
    env = {
        **fake_llm.env("anthropic"),
        "MEWCODE_HOME": str(mewcode_home),
        "MEWCODE_PRELOAD": "0",  # no detached server outliving the test
    }
    return ClaudeAgentOptions(cli_path=str(MEWCODE), cwd=str(project), env=env, **kw)


def roles_alternate(body: dict) -> bool:
    roles = [m["role"] for m in body["messages"]]
    return roles[0] == "user" and all(a != b for a, b in zip(roles, roles[1:], strict=False))


async def test_query_reads_a_file_and_answers(fake_llm, project, mewcode_home, caplog) -> None:
    (project / "x.txt").write_text("the cat sat on the mat\n")
    fake_llm.script(
        [
            {"tool_calls": [{"id": "toolu_1", "name": "Read", "input": {"file_path": "x.txt"}}]},
            lambda body: {"text": f"It says: {last_tool_result_text(body).split(chr(9))[-1]}"},
        ]
    )
    seen = [
        m
        async for m in query(
            prompt="what does x.txt say", options=options(fake_llm, project, mewcode_home)
        )
    ]
    init = next(m for m in seen if isinstance(m, SystemMessage))
    assert init.subtype == "init" and init.data["cwd"] == str(project)
    result = seen[-1]
    assert isinstance(result, ResultMessage) and not result.is_error
    assert "the cat sat on the mat" in (result.result or "")
    assert result.session_id == init.data["session_id"]
    tool_use = next(
        b
        for m in seen
        if isinstance(m, AssistantMessage)
        for b in m.content
        if b.__class__.__name__ == "ToolUseBlock"
    )
    assert tool_use.name == "Read" and tool_use.input == {"file_path": "x.txt"}
    assert all(m.parent_tool_use_id is None for m in seen if isinstance(m, AssistantMessage))
    # The init line says which protocol level it speaks: the SDK does not warn "too old".
    assert "too old" not in caplog.text


async def test_two_messages_run_as_two_turns_of_one_session(
    fake_llm, project, mewcode_home
) -> None:
    fake_llm.script(
        [{"text": "Hello, Ada."}, lambda body: {"text": f"You said: {last_user_text(body)}"}]
    )
    async with ClaudeSDKClient(options(fake_llm, project, mewcode_home)) as client:
        await client.query("my name is Ada")
        first = [m async for m in client.receive_response()]
        await client.query("what is my name?")
        second = [m async for m in client.receive_response()]
    assert isinstance(first[-1], ResultMessage) and first[-1].result == "Hello, Ada."
    assert (
        isinstance(second[-1], ResultMessage) and second[-1].result == "You said: what is my name?"
    )
    assert first[-1].session_id == second[-1].session_id
    # The second turn's request carries the first exchange: one conversation.
    history = json.dumps(fake_llm.requests[1].body["messages"])
    assert "my name is Ada" in history and "Hello, Ada." in history
    assert roles_alternate(fake_llm.requests[1].body)


async def test_interrupt_mid_stream_leaves_a_valid_history(fake_llm, project, mewcode_home) -> None:
    long_text = "word " * 400
    fake_llm.script([{"text": long_text, "chunk_size": 5, "delay_ms": 20}, {"text": "fine"}])
    opts = options(fake_llm, project, mewcode_home, include_partial_messages=True)
    async with ClaudeSDKClient(opts) as client:
        await client.query("write a lot")
        seen: list[Any] = []
        async for message in client.receive_response():
            seen.append(message)
            if isinstance(message, StreamEvent) and len(seen) == 3:
                await client.interrupt()
        await client.query("are you there?")
        after = [m async for m in client.receive_response()]
    deltas = [m for m in seen if isinstance(m, StreamEvent)]
    assert deltas and deltas[0].event["type"] == "message_start"
    assert isinstance(seen[-1], ResultMessage) and seen[-1].is_error
    assert seen[-1].subtype == "error_during_execution"
    assert fake_llm.remaining == 0  # the cut answer was not all sent: 2 requests, 2 steps
    assert isinstance(after[-1], ResultMessage) and after[-1].result == "fine"
    body = fake_llm.requests[-1].body
    assert roles_alternate(body) and "are you there?" in json.dumps(body["messages"][-1])


async def test_partial_messages_stream_the_text_before_the_message(
    fake_llm, project, mewcode_home
) -> None:
    fake_llm.script([{"text": "Hello there, friend", "chunk_size": 4}])
    opts = options(fake_llm, project, mewcode_home, include_partial_messages=True)
    seen = [m async for m in query(prompt="hi", options=opts)]
    events = [m.event for m in seen if isinstance(m, StreamEvent)]
    kinds = [e["type"] for e in events]
    assert kinds[:2] == ["message_start", "content_block_start"]
    assert kinds[-3:] == ["content_block_stop", "message_delta", "message_stop"]
    text = "".join(e["delta"]["text"] for e in events if e["type"] == "content_block_delta")
    assert text == "Hello there, friend"
    # The whole message still follows its deltas.
    last_stream = max(i for i, m in enumerate(seen) if isinstance(m, StreamEvent))
    message = next(m for m in seen[last_stream:] if isinstance(m, AssistantMessage))
    assert [b.text for b in message.content if isinstance(b, TextBlock)] == ["Hello there, friend"]
    assert all(m.parent_tool_use_id is None for m in seen if isinstance(m, StreamEvent))


def run_stream_json(fake_llm, project: Path, mewcode_home: Path, stdin: str, *extra: str):
    env = {
        **os.environ,
        **fake_llm.env("anthropic"),
        "MEWCODE_HOME": str(mewcode_home),
        "MEWCODE_PRELOAD": "0",
    }
    return subprocess.run(
        [str(MEWCODE), "--input-format", "stream-json", "--output-format", "stream-json", *extra],
        input=stdin,
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def user_line(text: str) -> str:
    return json.dumps({"type": "user", "message": {"role": "user", "content": text}}) + "\n"


def test_a_malformed_line_gets_one_error_line_and_the_session_goes_on(
    fake_llm, project, mewcode_home
) -> None:
    fake_llm.script([{"text": "still here"}])
    stdin = "{not json\n" + '{"type": "bogus"}\n' + user_line("hello")
    proc = run_stream_json(fake_llm, project, mewcode_home, stdin)
    assert proc.returncode == 0, proc.stderr
    errors = [line for line in proc.stderr.splitlines() if "stdin line" in line]
    assert len(errors) == 2
    assert errors[0].startswith("mewcode: stdin line 1: not JSON")
    assert "stdin line 2: unknown type 'bogus'" in errors[1]
    results = [json.loads(x) for x in proc.stdout.splitlines() if '"type":"result"' in x]
    assert [r["result"] for r in results] == ["still here"]


PNG_1PX = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC"
)


def image_block(media_type: str = "image/png", data: str = PNG_1PX) -> dict:
    return {"type": "image", "source": {"type": "base64", "media_type": media_type, "data": data}}


async def test_an_image_in_a_user_message_reaches_the_model(
    fake_llm, project, mewcode_home
) -> None:
    fake_llm.script([{"text": "a red dot"}])

    async def messages():
        content = [{"type": "text", "text": "what is this?"}, image_block()]
        yield {"type": "user", "message": {"role": "user", "content": content}}

    async with ClaudeSDKClient(options(fake_llm, project, mewcode_home)) as client:
        await client.query(messages())
        seen = [m async for m in client.receive_response()]
    assert isinstance(seen[-1], ResultMessage) and seen[-1].result == "a red dot"
    sent = fake_llm.requests[0].body["messages"][-1]["content"]
    assert {"type": "text", "text": "what is this?"} in sent
    assert image_block() in sent


def test_a_bad_image_is_refused_with_a_result_and_the_next_message_runs(
    fake_llm, project, mewcode_home
) -> None:
    fake_llm.script([{"text": "ok"}])
    bad = [image_block("image/png", "AA==")]  # base64, but not a PNG
    line = json.dumps({"type": "user", "message": {"role": "user", "content": bad}}) + "\n"
    proc = run_stream_json(fake_llm, project, mewcode_home, line + user_line("text only"))
    results = [json.loads(x) for x in proc.stdout.splitlines() if '"type":"result"' in x]
    assert results[0]["is_error"]
    assert results[0]["result"] == (
        "attachments[0]: declared image/png, but the data is no image MewCode knows"
    )
    assert results[1]["result"] == "ok"
    assert len(fake_llm.requests) == 1


@pytest.mark.parametrize(
    ("flag", "said"),
    [
        (["--max-budget-usd", "0"], "--max-budget-usd 0: expected a number of dollars above 0"),
        (["--session-id=abc"], "--session-id abc: expected a UUID such as"),
        (["--tools", "Read,Shell"], "--tools: unknown tool 'Shell' (built-ins: Read, Glob"),
        (["--session-id", str(uuid.uuid4()), "--continue"], "does not go with --resume"),
        (["--setting-sources=project"], "leaving one out is not supported"),
        (["--permission-prompt-tool", "mcp__x__ask"], "only stdio is supported"),
    ],
)
def test_a_flag_mewcode_cannot_honour_is_refused_in_one_line(
    fake_llm, project, mewcode_home, flag, said
) -> None:
    proc = run_stream_json(fake_llm, project, mewcode_home, "", *flag)
    assert proc.returncode == 1
    assert proc.stderr.count("\n") == 1 and said in proc.stderr, proc.stderr
    assert fake_llm.requests == []


async def test_the_apps_can_use_tool_denies_an_edit_and_the_model_hears_why(
    fake_llm, project, mewcode_home
) -> None:
    from claude_agent_sdk import PermissionResultAllow, PermissionResultDeny

    (project / "x.txt").write_text("old line\n")
    edit = {"file_path": "x.txt", "old_string": "old line", "new_string": "new line"}
    fake_llm.script(
        [
            {"tool_calls": [{"id": "toolu_r", "name": "Read", "input": {"file_path": "x.txt"}}]},
            {"tool_calls": [{"id": "toolu_e", "name": "Edit", "input": edit}]},
            lambda body: {"text": f"Told: {last_tool_result_text(body)}"},
        ]
    )
    asked: list[tuple[str, dict]] = []

    async def can_use_tool(name, tool_input, context):
        asked.append((name, tool_input))
        if name == "Edit":
            return PermissionResultDeny(message="edits need a ticket number")
        return PermissionResultAllow()

    opts = options(fake_llm, project, mewcode_home, can_use_tool=can_use_tool)
    async with ClaudeSDKClient(opts) as client:
        await client.query("change x.txt")
        seen = [m async for m in client.receive_response()]
    assert [name for name, _ in asked] == ["Edit"]  # the Read needed no one's yes
    assert asked[0][1] == edit
    assert (project / "x.txt").read_text() == "old line\n"
    told = last_tool_result_text(fake_llm.requests[2].body)
    assert "edits need a ticket number" in told
    result = seen[-1]
    assert isinstance(result, ResultMessage) and "edits need a ticket number" in (
        result.result or ""
    )
    assert [d["tool_name"] for d in result.permission_denials or []] == ["Edit"]


async def test_an_app_cannot_allow_what_a_deny_rule_denies(fake_llm, project, mewcode_home) -> None:
    from claude_agent_sdk import PermissionResultAllow

    asked: list[str] = []

    async def allow_everything(name, tool_input, context):
        asked.append(name)
        return PermissionResultAllow()

    fake_llm.script(
        [
            {
                "tool_calls": [
                    {
                        "id": "toolu_w",
                        "name": "Write",
                        "input": {"file_path": "y.txt", "content": "x"},
                    }
                ]
            },
            lambda body: {"text": f"Told: {last_tool_result_text(body)}"},
        ]
    )
    opts = options(
        fake_llm, project, mewcode_home, can_use_tool=allow_everything, disallowed_tools=["Write"]
    )
    async with ClaudeSDKClient(opts) as client:
        await client.query("write y.txt")
        [m async for m in client.receive_response()]
    assert asked == [] and not (project / "y.txt").exists()
    assert "Permission denied" in (last_tool_result_text(fake_llm.requests[1].body) or "")


async def test_a_hook_callback_registered_through_initialize_denies_a_read(
    fake_llm, project, mewcode_home
) -> None:
    from claude_agent_sdk import HookMatcher

    (project / "secret.txt").write_text("the launch codes\n")
    fake_llm.script(
        [
            {
                "tool_calls": [
                    {"id": "toolu_s", "name": "Read", "input": {"file_path": "secret.txt"}}
                ]
            },
            lambda body: {"text": f"Told: {last_tool_result_text(body)}"},
        ]
    )
    fired: list[tuple[dict, str | None]] = []

    async def no_secrets(hook_input, tool_use_id, context):
        fired.append((hook_input, tool_use_id))
        return {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": "secrets stay secret",
            }
        }

    hooks = {"PreToolUse": [HookMatcher(matcher="Read", hooks=[no_secrets])]}
    seen = [
        m
        async for m in query(
            prompt="read secret.txt", options=options(fake_llm, project, mewcode_home, hooks=hooks)
        )
    ]
    assert len(fired) == 1
    hook_input, tool_use_id = fired[0]
    assert hook_input["hook_event_name"] == "PreToolUse" and hook_input["tool_name"] == "Read"
    assert hook_input["tool_input"] == {"file_path": "secret.txt"} and tool_use_id == "toolu_s"
    told = last_tool_result_text(fake_llm.requests[1].body) or ""
    assert "secrets stay secret" in told and "launch codes" not in told
    assert isinstance(seen[-1], ResultMessage) and not seen[-1].is_error


def settings_asking(*rules: str) -> str:
    """A ``--settings`` JSON text making these calls ask (so the app's callback is asked)."""
    return json.dumps({"permissions": {"ask": list(rules)}})


async def test_an_apps_updated_input_cannot_turn_an_asked_command_into_a_denied_one(
    fake_llm, project, mewcode_home
) -> None:
    from claude_agent_sdk import PermissionResultAllow

    witness = project / "witness.txt"
    witness.write_text("still here\n")
    fake_llm.script(
        [
            {
                "tool_calls": [
                    {"id": "toolu_b", "name": "Bash", "input": {"command": "touch made.txt"}}
                ]
            },
            lambda body: {"text": f"Told: {last_tool_result_text(body)}"},
        ]
    )
    asked: list[dict] = []

    async def swap_the_command(name, tool_input, context):
        asked.append(tool_input)
        return PermissionResultAllow(updated_input={"command": "rm -f witness.txt"})

    opts = options(
        fake_llm,
        project,
        mewcode_home,
        can_use_tool=swap_the_command,
        disallowed_tools=["Bash(rm:*)"],
    )
    async with ClaudeSDKClient(opts) as client:
        await client.query("make a file")
        seen = [m async for m in client.receive_response()]
    assert asked == [{"command": "touch made.txt"}]
    assert witness.read_text() == "still here\n"  # the rm never ran
    assert not (project / "made.txt").exists()  # nor did the command the app replaced
    told = last_tool_result_text(fake_llm.requests[1].body) or ""
    assert told.startswith("Permission denied (rules)") and "Bash(rm:*)" in told
    result = seen[-1]
    assert isinstance(result, ResultMessage)
    denials = result.permission_denials or []
    assert [d["tool_input"] for d in denials] == [{"command": "rm -f witness.txt"}]


async def test_an_apps_updated_input_to_mcp_json_is_a_second_question_about_that_file(
    fake_llm, project, mewcode_home
) -> None:
    from claude_agent_sdk import PermissionResultAllow, PermissionResultDeny

    (project / "notes.txt").write_text("draft\n")
    (project / ".mcp.json").write_text("{}\n")
    notes = {"file_path": "notes.txt", "old_string": "draft", "new_string": "final"}
    server = '{"mcpServers": {"x": {"command": "sh", "args": ["-c", "touch pwned"]}}}'
    mcp = {"file_path": ".mcp.json", "old_string": "{}", "new_string": server}
    reads = [
        {"id": "toolu_r1", "name": "Read", "input": {"file_path": "notes.txt"}},
        {"id": "toolu_r2", "name": "Read", "input": {"file_path": ".mcp.json"}},
    ]
    fake_llm.script(
        [
            {"tool_calls": reads},
            {"tool_calls": [{"id": "toolu_e", "name": "Edit", "input": notes}]},
            lambda body: {"text": f"Told: {last_tool_result_text(body)}"},
        ]
    )
    asked: list[dict] = []

    async def redirect_then_refuse(name, tool_input, context):
        asked.append(tool_input)
        if tool_input["file_path"] == "notes.txt":
            return PermissionResultAllow(updated_input=mcp)
        return PermissionResultDeny(message="not that file")

    opts = options(fake_llm, project, mewcode_home, can_use_tool=redirect_then_refuse)
    async with ClaudeSDKClient(opts) as client:
        await client.query("finish the notes")
        seen = [m async for m in client.receive_response()]
    assert asked == [notes, mcp]  # the app was asked about .mcp.json by name
    assert (project / ".mcp.json").read_text() == "{}\n"
    assert (project / "notes.txt").read_text() == "draft\n"
    told = last_tool_result_text(fake_llm.requests[2].body) or ""
    assert told.startswith("Not run (user): the user denied this call: not that file"), told
    result = seen[-1]
    assert isinstance(result, ResultMessage)
    assert [d["tool_input"] for d in result.permission_denials or []] == [mcp]


async def read_a_answered_with(
    fake_llm, project: Path, mewcode_home: Path, updated_input: dict, **kw: Any
) -> tuple[str, list[Any]]:
    """The model reads a.txt, which asks; the app allows it with ``updated_input``.

    Returns the tool result the model was sent and the messages the app saw.
    """
    from claude_agent_sdk import PermissionResultAllow

    (project / "a.txt").write_text("plain a\n")
    fake_llm.script(
        [
            {"tool_calls": [{"id": "toolu_r", "name": "Read", "input": {"file_path": "a.txt"}}]},
            lambda body: {"text": f"Got: {last_tool_result_text(body)}"},
        ]
    )

    async def change_the_input(name, tool_input, context):
        return PermissionResultAllow(updated_input=updated_input)

    opts = options(
        fake_llm,
        project,
        mewcode_home,
        can_use_tool=change_the_input,
        settings=settings_asking("Read(a.txt)"),
        **kw,
    )
    async with ClaudeSDKClient(opts) as client:
        await client.query("read a.txt")
        seen = [m async for m in client.receive_response()]
    return last_tool_result_text(fake_llm.requests[1].body) or "", seen


@pytest.mark.parametrize("target", ["secret.txt", "OUTSIDE"])
async def test_an_apps_updated_input_cannot_read_a_denied_path(
    fake_llm, project, mewcode_home, tmp_path, target
) -> None:
    (project / "secret.txt").write_text("the launch codes\n")
    outside = tmp_path / "outside.txt"
    outside.write_text("the launch codes\n")
    path = str(outside) if target == "OUTSIDE" else target
    told, _ = await read_a_answered_with(
        fake_llm,
        project,
        mewcode_home,
        {"file_path": path},
        disallowed_tools=["Read(secret.txt)"],
    )
    assert told.startswith("Permission denied"), told
    assert "launch codes" not in json.dumps(fake_llm.requests[1].body)


async def test_an_apps_updated_input_reads_another_allowed_file(
    fake_llm, project, mewcode_home
) -> None:
    (project / "b.txt").write_text("the b side\n")
    told, seen = await read_a_answered_with(fake_llm, project, mewcode_home, {"file_path": "b.txt"})
    assert "the b side" in told and "plain a" not in told
    result = seen[-1]
    assert isinstance(result, ResultMessage) and not result.is_error
    assert not result.permission_denials


async def test_an_apps_updated_input_that_the_tool_rejects_is_a_one_line_tool_error(
    fake_llm, project, mewcode_home
) -> None:
    told, _ = await read_a_answered_with(fake_llm, project, mewcode_home, {"file_path": 7})
    assert "file_path" in told and "\n" not in told.strip() and "plain a" not in told


async def test_a_session_past_its_budget_sends_no_more_requests(
    fake_llm, project, mewcode_home
) -> None:
    (project / "x.txt").write_text("x\n")
    read = {"tool_calls": [{"id": "toolu_1", "name": "Read", "input": {"file_path": "x.txt"}}]}
    fake_llm.script([read, {"text": "never sent"}])
    opts = options(fake_llm, project, mewcode_home, max_budget_usd=0.000001)
    seen = [m async for m in query(prompt="read x.txt", options=opts)]
    result = seen[-1]
    assert isinstance(result, ResultMessage) and result.is_error
    assert result.subtype == "error_max_budget_usd"
    assert result.total_cost_usd and result.total_cost_usd > 0.000001
    assert len(fake_llm.requests) == 1  # the first round spent the budget: no second one


async def test_the_apps_tool_list_is_the_tools_the_model_is_offered(
    fake_llm, project, mewcode_home
) -> None:
    fake_llm.script([{"text": "ok"}])
    chosen = options(fake_llm, project, mewcode_home, tools=["Read", "Grep"])
    seen = [m async for m in query(prompt="hi", options=chosen)]
    init = next(m for m in seen if isinstance(m, SystemMessage))
    offered = [t["name"] for t in fake_llm.requests[0].body["tools"]]
    assert offered == ["Read", "Grep"]
    assert init.data["tools"] == ["Read", "Grep"]


async def test_an_empty_tool_list_offers_the_model_no_tools(
    fake_llm, project, mewcode_home
) -> None:
    fake_llm.script([{"text": "ok"}])
    chosen = options(fake_llm, project, mewcode_home, tools=[])
    [m async for m in query(prompt="hi", options=chosen)]
    assert not fake_llm.requests[0].body.get("tools")


async def test_the_apps_session_id_names_the_session_and_is_not_taken_twice(
    fake_llm, project, mewcode_home
) -> None:
    chosen_id = str(uuid.uuid4())
    fake_llm.script([{"text": "first"}, {"text": "second"}])
    named = options(fake_llm, project, mewcode_home, session_id=chosen_id)
    seen = [m async for m in query(prompt="hi", options=named)]
    assert isinstance(seen[-1], ResultMessage) and seen[-1].session_id == chosen_id
    saved = list((mewcode_home / "projects").rglob(f"{chosen_id}.jsonl"))
    assert len(saved) == 1
    proc = run_stream_json(
        fake_llm, project, mewcode_home, user_line("again"), "--session-id", chosen_id
    )
    assert proc.returncode == 1
    assert f"--session-id {chosen_id}: this project has a session with that id" in proc.stderr
    assert len(fake_llm.requests) == 1
