"""`mewcode --input-format stream-json --output-format stream-json`: the runtime, then the session."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys


def stream_json_command(args: argparse.Namespace) -> int:
    """Open the runtime as ``-p`` does and serve the app on stdin and stdout until stdin ends."""
    from agent_core.agent.runtime import Runtime
    from agent_core.llm.factory import detect_provider, make_provider
    from mewcode_tui.cli import _setup, fail, refuse_bypass, start_flags
    from mewcode_tui.session_start import runtime_options

    if args.prompt:
        return fail(
            "--input-format stream-json reads the prompts on stdin: pass none as an argument", 2
        )
    if args.resume == "":
        return fail("--resume needs a session id here (or use --continue for the latest)", 2)
    flags = start_flags(args)
    cwd, paths, settings = _setup(args, flags)
    refuse_bypass(flags.mode or settings.default_mode, settings)
    name = flags.provider or detect_provider(settings, os.environ)
    if name is None:
        return fail(
            "no API key configured: set ANTHROPIC_API_KEY or OPENAI_API_KEY "
            "(or OPENAI_BASE_URL for a compatible server)",
            2,
        )
    provider = make_provider(
        name, flags.model or settings.model, settings=settings, env=os.environ, cwd=cwd
    )
    opts = runtime_options(
        cwd,
        paths,
        settings,
        provider,
        flags,
        mode=flags.mode or settings.default_mode,
        resume_id=args.resume or None,
        continue_latest=args.continue_latest,
    )

    async def go() -> int:
        from agent_core.protocol.host import SessionHost
        from mewcode_tui.stream_json.front import StreamJsonSession
        from mewcode_tui.stream_json.stdin_lines import stdin_lines

        try:
            runtime = await Runtime.open(opts)
        except BaseException:
            if opts.mcp is not None:
                await opts.mcp.aclose()
            raise
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
