"""/doctor: provider, key source, sandbox, MCP servers, hooks and the warm-start server,
each with what to do when it is wrong (docs/manual.md#the-full-screen-ui)."""

from __future__ import annotations

import asyncio
import os

from agent_core import events as ev
from agent_core.protocol import ops
from agent_core.terminal_text import visible_text
from mewcode_tui.commands.registry import CommandHost, SlashCommand, ask

MARKS = {"ok": "✓", "warning": "⚠", "error": "✗"}


def preload_check(env: dict[str, str]) -> ev.DoctorCheck:
    """The warm-start server of this MEWCODE_HOME for the code running now (reads its socket)."""
    from mewcode_tui.preload.command import live_servers, starting
    from mewcode_tui.preload.key import server_key
    from mewcode_tui.preload.location import (
        DISABLE_ENV,
        UnsafeRunDir,
        mewcode_home,
        preload_disabled,
    )

    home = mewcode_home(env)
    if preload_disabled(env, home):
        # The variable alone decides when it says off; else the settings line did.
        by_env = preload_disabled({DISABLE_ENV: env.get(DISABLE_ENV, "")}, os.devnull)
        return ev.DoctorCheck(
            "preload",
            "warning",
            "warm start is off: every `mewcode` starts cold",
            f"unset {DISABLE_ENV}"
            if by_env
            else f"remove preload: false from {home}/settings.yaml",
        )
    try:
        servers = live_servers(home)
        key = server_key()
    except (OSError, UnsafeRunDir) as exc:
        return ev.DoctorCheck(
            "preload", "error", f"cannot read {home}/run: {exc}", "make it yours and private (0700)"
        )
    if any(found == key for found, _pid in servers):
        pid = next(pid for found, pid in servers if found == key)
        return ev.DoctorCheck("preload", "ok", f"a warm-start server runs (pid {pid})")
    if starting(home, key):
        return ev.DoctorCheck("preload", "ok", "a warm-start server is starting")
    return ev.DoctorCheck(
        "preload",
        "warning",
        "no warm-start server for this version: the next `mewcode` starts cold",
        "quit and run `mewcode` again: a cold run starts one as it exits",
    )


def doctor_lines(checks: list[ev.DoctorCheck]) -> str:
    lines = ["Doctor:"]
    width = max((len(c.topic) for c in checks), default=0)
    for check in checks:
        lines.append(f"  {MARKS[check.state]} {check.topic:<{width}}  {visible_text(check.detail)}")
        if check.fix and check.state != "ok":
            lines.append(f"    {'':<{width}}  → {visible_text(check.fix)}")
    wrong = sum(c.state != "ok" for c in checks)
    lines.append("All good." if not wrong else f"{wrong} to look at.")
    return "\n".join(lines)


async def doctor(host: CommandHost, args: str) -> None:
    if host.session is None:
        host.say("Still starting: try again once the session is open.", "warning")
        return
    report = await ask(host.session, ops.QueryDoctor(), ev.DoctorReport)
    preload = await asyncio.to_thread(preload_check, dict(os.environ))
    host.say(doctor_lines([*report.checks, preload]))


COMMANDS = [
    SlashCommand(
        "doctor", "local", "Check provider, key, sandbox, MCP, hooks and warm start", doctor
    ),
]
