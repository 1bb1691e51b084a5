"""Agent overhead per round: a scripted 20-round session against the zero-latency fake server.

Baseline (same run, same server, same 20 answers): the raw Anthropic SDK sending the same
20 request bodies the agent sent (same history, tools and system prompt) and consuming the
streams. Measured: the whole runtime — request building, streaming through the provider,
events over the rendezvous channel, permission checks, the Read tool, the fsynced session
file. The difference divided by 20 is the agent's own time per round, apart from SDK
import (done once before timing) and the server's time (in both).
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from pathlib import Path

from bench.common import info, interleaved, median, report

ROUNDS = 20


def script() -> list[dict]:
    read = {
        "text": "Reading the file to check it.",
        "usage": {"input_tokens": 900, "output_tokens": 40},
        "tool_calls": [{"name": "Read", "input": {"file_path": "notes.txt"}}],
    }
    final = {
        "text": "All twenty rounds are done. " * 8,
        "usage": {"input_tokens": 950, "output_tokens": 60},
    }
    return [read] * (ROUNDS - 1) + [final]


async def raw_sdk(server, bodies: list[dict]) -> None:
    """The SDK alone sending the very request bodies the agent sent, consuming each stream."""
    import anthropic

    client = anthropic.AsyncAnthropic(
        api_key="bench", base_url=server.anthropic_base_url, max_retries=0
    )
    for body in bodies:
        params = {k: v for k, v in body.items() if k != "stream"}
        stream = await client.messages.create(**params, stream=True)
        async for _event in stream:
            pass
    await client.close()


async def agent_turn(server, project: Path, home: Path) -> None:
    from agent_core.agent.runtime import Runtime, RuntimeOptions
    from agent_core.channel import RendezvousChannel
    from agent_core.config.paths import MewcodePaths
    from agent_core.config.settings import load_settings
    from agent_core.llm.anthropic_provider import AnthropicProvider

    paths = MewcodePaths(home=home, project=project)
    provider = AnthropicProvider(
        "claude-haiku-4-5", api_key="bench", base_url=server.anthropic_base_url
    )
    runtime = await Runtime.open(
        RuntimeOptions(cwd=project, paths=paths, settings=load_settings(paths), provider=provider)
    )
    channel: RendezvousChannel = RendezvousChannel()

    async def consume() -> None:
        async for event in channel:
            if type(event).__name__ == "TurnCompleted":
                return

    consumer = asyncio.create_task(consume())
    done = await runtime.run_turn("go", channel, can_ask=False)
    await consumer
    await runtime.close()
    assert done.stop_reason == "end_turn" and done.iterations == ROUNDS, done


def main() -> bool:
    import anthropic  # noqa: F401  (SDK import is outside the measurement)

    from tests.fakellm import FakeLLMServer

    with tempfile.TemporaryDirectory() as tmp, FakeLLMServer() as server:
        project = Path(tmp, "project")
        project.mkdir()
        (project / "notes.txt").write_text("a line of notes\n" * 50)
        home = Path(tmp, "home")
        os.environ["MEWCODE_HOME"] = str(home)

        server.script(script())
        asyncio.run(agent_turn(server, project, home))  # records the exact request bodies
        bodies = [r.body for r in server.requests]

        def run_sdk() -> None:
            server.script(script())
            asyncio.run(raw_sdk(server, bodies))

        def run_agent() -> None:
            server.script(script())
            asyncio.run(agent_turn(server, project, home))

        times = interleaved({"sdk": run_sdk, "agent": run_agent}, repeat=5, warmup=1)
    sdk, agent = median(times["sdk"]), median(times["agent"])
    info("agent overhead per round", (agent - sdk) / ROUNDS * 1000, "ms")
    return report(f"agent {ROUNDS}-round session", agent, sdk, 2.0, baseline_name="raw SDK streams")
