"""Claude Code flags whose meaning MewCode cannot give (yet): refused with one line, early.

The Claude Agent SDK passes some of them; a refusal that names the flag beats argparse's
"unrecognized arguments" and never leaves a run doing less than it was asked.
"""

from __future__ import annotations

import argparse

SETTING_SOURCES = ("user", "project", "local")


def refuse_unsupported(args: argparse.Namespace) -> None:
    """Stop with one line on a Claude Code flag whose meaning MewCode cannot give (yet)."""
    from agent_core.errors import MewCodeError

    if args.setting_sources is not None:
        named = {s.strip() for s in args.setting_sources.split(",") if s.strip()}
        unknown = sorted(named - set(SETTING_SOURCES))
        if unknown:
            raise MewCodeError(
                f"--setting-sources: unknown source {unknown[0]!r} (user, project, local)"
            )
        if not {"user", "project"} <= named:
            raise MewCodeError(
                f"--setting-sources {args.setting_sources}: MewCode always reads the user's "
                "and the project's settings; leaving one out is not supported"
            )
    if args.session_id is not None and (args.resume or args.continue_latest):
        raise MewCodeError(
            "--session-id names a new session: it does not go with --resume or --continue"
        )
    if args.fork_session and not (args.resume or args.continue_latest):
        raise MewCodeError("--fork-session needs --resume ID or --continue: it forks that session")
    if args.fork_session and args.input_format != "stream-json":
        raise MewCodeError("--fork-session works with --input-format stream-json only, for now")
    if args.permission_prompt_tool not in (None, "stdio"):
        raise MewCodeError(
            f"--permission-prompt-tool {args.permission_prompt_tool}: only stdio is supported "
            "(the app answers can_use_tool requests)"
        )
    if args.input_format == "stream-json" and args.output_format != "stream-json":
        raise MewCodeError("--input-format stream-json needs --output-format stream-json")
    if args.include_partial_messages and args.input_format != "stream-json":
        raise MewCodeError("--include-partial-messages needs --input-format stream-json")
    if args.permission_prompt_tool and args.input_format != "stream-json":
        raise MewCodeError("--permission-prompt-tool needs --input-format stream-json")
