"""A running command's live output: the last lines, bounded in memory, sent a few times a second."""

from __future__ import annotations

import asyncio
import time

from agent_core import events as ev
from agent_core.tools.bash_live import LiveTail, TailStreamer


def test_the_tail_keeps_the_last_lines_and_bounded_memory_whatever_is_printed() -> None:
    tail = LiveTail(lines=5, chars=200)
    for i in range(1, 20_001):
        tail.feed(f"tick {i}\n".encode())
    assert tail.text().splitlines() == [f"tick {i}" for i in range(19_996, 20_001)]
    assert tail.total_chars == sum(len(f"tick {i}\n") for i in range(1, 20_001))
    assert len(tail._text) <= 400  # what it holds, not just what it shows


def test_one_long_line_is_cut_to_the_character_bound() -> None:
    tail = LiveTail(lines=5, chars=100)
    tail.feed(b"x" * 10_000)
    assert tail.text() == "x" * 100


def test_escapes_are_removed_and_a_redrawn_line_shows_its_last_state() -> None:
    tail = LiveTail()
    tail.feed(b"\x1b[32mok\x1b[0m\r\n 10%\r 55%\r\n")
    tail.feed("caf\u00e9".encode()[:4])  # a character split between two reads
    tail.feed("caf\u00e9".encode()[4:] + b"\n")
    assert tail.text() == "ok\n 55%\ncafé"


def test_updates_wait_for_the_interval_and_for_new_output() -> None:
    tail = LiveTail(interval_s=0.25)
    assert not tail.fresh
    tail.feed(b"one\n")
    assert tail.fresh and tail.wait_s(10.0) == 0.0  # the first goes at once
    assert tail.take(10.0) == "one"
    assert not tail.fresh  # nothing new: nothing to send
    tail.feed(b"two\n")
    assert tail.fresh and abs(tail.wait_s(10.1) - 0.15) < 1e-9
    assert tail.wait_s(10.25) == 0.0
    assert tail.take(10.25) == "one\ntwo"


async def test_the_streamer_sends_a_few_updates_not_one_per_chunk_and_stops_before_the_result() -> (
    None
):
    sent: list[ev.ToolOutputUpdate] = []

    async def emit(event: ev.ToolOutputUpdate) -> None:
        sent.append(event)

    streamer = TailStreamer(LiveTail(interval_s=0.2), emit, "c1").start()
    started = time.monotonic()
    for i in range(1, 201):  # 200 chunks in about 0.4 s
        streamer.feed(f"tick {i}\n".encode())
        await asyncio.sleep(0.002)
    deadline = time.monotonic() + 5
    while not sent or not sent[-1].text.endswith("tick 200"):  # the last output's update
        assert time.monotonic() < deadline, "the last lines were never sent"
        await asyncio.sleep(0.01)
    elapsed = time.monotonic() - started
    streamer.stop()
    assert 2 <= len(sent) <= elapsed / 0.2 + 2  # one per interval at most, not one per chunk
    assert all(e.call_id == "c1" and not e.final for e in sent)
    assert sent[-1].total_chars == sum(len(f"tick {i}\n") for i in range(1, 201))
    count = len(sent)
    streamer.feed(b"after the end\n")
    await asyncio.sleep(0.3)
    assert len(sent) == count  # stopped: nothing follows the call's result
