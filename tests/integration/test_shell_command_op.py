"""`!command`: the user's shell command runs as a Bash call, judged as the model's would be
(issue 25, item 7)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from agent_core import events as ev
from agent_core.agent.runtime import Runtime, RuntimeOptions
from agent_core.config.settings import load_settings
from agent_core.messages import TextBlock
from agent_core.permissions.cli_rules import cli_rules
from agent_core.protocol.host import SessionHost
from agent_core.protocol.ops import ShellCommand, UserTurn
from tests.helpers.scripted import ScriptedProvider, Step


async def open_host(paths, project: Path, provider: ScriptedProvider, allow: list[str]):
    runtime = await Runtime.open(
        RuntimeOptions(
            cwd=project,
            paths=paths,
            settings=load_settings(paths),
            provider=provider,
            cli_rules=cli_rules(allow),
        )
    )
    host = SessionHost(runtime, can_ask=False, settle_tools=False)
    host.start()
    return Reader(host), runtime


class Reader:
    """The host's one reader: events are collected, and ``answer`` waits for an op's."""

    def __init__(self, host: SessionHost) -> None:
        self.host = host
        self.events: asyncio.Queue[ev.Event] = asyncio.Queue()
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for item in self.host.events():
            await self.events.put(item.event)

    async def answer(self, op) -> list[ev.Event]:
        """The events up to the one answering ``op`` (its turn.completed or op.refused)."""
        op_id = await self.host.submit(op)
        seen: list[ev.Event] = []
        while True:
            event = await asyncio.wait_for(self.events.get(), 30)
            seen.append(event)
            if isinstance(event, ev.TurnCompleted) and event.turn_id == op_id:
                return seen
            if isinstance(event, ev.OpRefused) and event.op_id == op_id:
                return seen

    async def close(self) -> None:
        await self.host.close()
        self.task.cancel()


def last_text(runtime: Runtime) -> str:
    """The text of the ! command's message (the assistant's note follows it)."""
    message, ack = runtime.history[-2:]
    assert message.role == "user" and ack.role == "assistant"
    return "".join(b.text for b in message.content if isinstance(b, TextBlock))


async def test_a_shell_command_runs_and_the_model_reads_it_next_turn(paths, project) -> None:
    provider = ScriptedProvider([Step(text="I see the file.")])
    host, runtime = await open_host(paths, project, provider, ["Bash"])
    (project / "notes.txt").write_text("hello\n")
    events = await host.answer(ShellCommand(command="ls"))
    assert not provider.requests  # no model request for a ! command
    results = [e for e in events if isinstance(e, ev.ToolResult)]
    assert [r.tool for r in results] == ["Bash"] and "notes.txt" in results[0].content
    assert [e.stop_reason for e in events if isinstance(e, ev.TurnCompleted)] == ["end_turn"]
    assert last_text(runtime) == (
        "<bash-input>ls</bash-input>\n<bash-stdout>notes.txt</bash-stdout><bash-stderr></bash-stderr>"
    )
    await host.answer(UserTurn(text="what is there?"))
    sent = str([m.content for m in provider.requests[0].messages])
    assert "<bash-input>ls</bash-input>" in sent and "notes.txt" in sent
    await host.close()


async def test_a_blacklisted_shell_command_does_not_run_and_the_history_says_why(
    paths, project
) -> None:
    witness = project / "ran"
    provider = ScriptedProvider([])
    # Even with every Bash command allowed by a rule, the blacklist has the last word.
    host, runtime = await open_host(paths, project, provider, ["Bash"])
    command = f"touch {witness} && rm -rf /"
    events = await host.answer(ShellCommand(command=command))
    decisions = [e for e in events if isinstance(e, ev.PermissionDecision)]
    assert [(d.decision, d.layer) for d in decisions] == [("deny", "blacklist")]
    assert not witness.exists()
    text = last_text(runtime)
    assert text.startswith(f"<bash-input>{command}</bash-input>\n<bash-stdout></bash-stdout>")
    assert "<bash-stderr>Permission denied" in text
    await host.close()


async def test_a_shell_command_that_would_ask_is_denied_when_no_one_can_answer(
    paths, project
) -> None:
    witness = project / "asked"
    host, runtime = await open_host(paths, project, ScriptedProvider([]), [])
    events = await host.answer(ShellCommand(command=f"touch {witness}"))
    assert [e.decision for e in events if isinstance(e, ev.PermissionDecision)] == ["deny"]
    assert not witness.exists()
    assert "<bash-stderr>" in last_text(runtime) and "approval was not available" in last_text(
        runtime
    )
    await host.close()


async def test_a_blank_shell_command_is_refused(paths, project) -> None:
    host, _ = await open_host(paths, project, ScriptedProvider([]), [])
    events = await host.answer(ShellCommand(command="  "))
    assert isinstance(events[-1], ev.OpRefused) and "no command" in events[-1].reason
    await host.close()
