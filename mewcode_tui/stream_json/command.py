"""`mewcode --input-format stream-json --output-format stream-json`: the runtime, then the session."""

from __future__ import annotations

import argparse
import asyncio
import sys


def stream_json_command(args: argparse.Namespace) -> int:
    """Open the runtime as ``-p`` does and serve the app on stdin and stdout until stdin ends."""
    from mewcode_tui.cli import (
        NO_KEY,
        _setup,
        fail,
        headless_options,
        open_runtime,
        refuse_bypass,
        start_flags,
    )

    if args.prompt:
        return fail(
            "--input-format stream-json reads the prompts on stdin: pass none as an argument", 2
        )
    if args.resume == "":
        return fail("--resume needs a session id here (or use --continue for the latest)", 2)
    flags = start_flags(args)
    cwd, paths, settings = _setup(args, flags)
    refuse_bypass(flags.mode or settings.default_mode, settings)
    opts = headless_options(args, flags, cwd, paths, settings)
    if opts is None:
        return fail(NO_KEY, 2)

    async def go() -> int:
        from agent_core.protocol.host import SessionHost
        from mewcode_tui.stream_json.front import StreamJsonSession
        from mewcode_tui.stream_json.stdin_lines import stdin_lines

        runtime = await open_runtime(opts)
        ask_app = args.permission_prompt_tool == "stdio"
        host = SessionHost(runtime, can_ask=ask_app)
        session = StreamJsonSession(
            host,
            sys.stdout,
            sys.stderr,
            partial=args.include_partial_messages,
            ask_app=ask_app,
            fork=args.fork_session,
        )
        return await session.run(stdin_lines(sys.stdin.buffer))

    return asyncio.run(go())
