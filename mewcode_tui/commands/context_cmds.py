"""Session and context commands: /resume, /compact, /context (docs/manual.md#sessions-and-context)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

from agent_core.errors import MewCodeError
from mewcode_tui.commands.registry import CommandHost, SlashCommand

if TYPE_CHECKING:
    from agent_core.agent.session_api import RuntimeSession
    from agent_core.session.listing import SessionInfo

log = logging.getLogger("mewcode.tui")

CATEGORIES = (
    ("system_prompt", "System prompt"),
    ("tool_definitions", "Tool definitions"),
    ("summary", "Summary"),
    ("messages", "Messages"),
    ("tool_results", "Tool results"),
    ("free", "Free"),
)
BAR_CELLS = 24
_EIGHTHS = " ▏▎▍▌▋▊▉"


SessionHost = CommandHost  # switching sessions and compacting touch the chat pane too


def _idle_session(host: SessionHost, action: str) -> RuntimeSession | None:
    """The session when ``action`` may run now; else None, after saying why (starting, busy)."""
    rt = host.runtime
    if rt is None:
        host.say("Still starting: try again in a moment.", "warning")
        return None
    if host.busy or rt.running:
        host.say(f"Wait for the turn to finish (or press Esc) before {action}.", "warning")
        return None
    return rt


def _show_context_estimate(host: SessionHost, rt: RuntimeSession) -> int:
    """After a switch or a summary the last usage figure is stale: show (and return) the new one."""
    host.refresh_status()  # the status bar reads rt.context_tokens, as /status and /context do
    return rt.context_tokens


# --- /resume ------------------------------------------------------------------


def find_session(sessions: Sequence[SessionInfo], wanted: str) -> str:
    """The id ``wanted`` names (exactly or by a unique prefix); MewCodeError if none or several."""
    ids = [s.session_id for s in sessions]
    if wanted in ids:
        return wanted
    matches = [i for i in ids if i.startswith(wanted)]
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise MewCodeError(f"{len(matches)} sessions start with {wanted}: type more of the id")
    raise MewCodeError(f"no session {wanted} in this project (/resume lists them)")


async def resume(host: SessionHost, args: str) -> None:
    rt = _idle_session(host, "/resume")
    if rt is None:
        return
    from mewcode_tui.screens.resume import ResumeScreen, resumable_sessions

    current = rt.session_id
    sessions = await asyncio.to_thread(resumable_sessions, host.paths)
    if args:
        try:
            session_id = find_session(sessions, args.strip())
        except MewCodeError as exc:
            host.say(f"Cannot resume: {exc}.", "warning")
            return
        await switch_session(host, session_id)
        return
    if not any(s.session_id != current for s in sessions):
        host.say("No other saved sessions in this project yet.")
        return

    def chosen(session_id: str | None) -> None:
        if session_id is not None:
            host.run_worker(switch_session(host, session_id), group="resume", exclusive=True)

    host.app.push_screen(ResumeScreen(sessions, current=current), chosen)


async def switch_session(host: SessionHost, session_id: str) -> None:
    """Resume ``session_id`` and re-show its conversation in the chat pane."""
    rt = _idle_session(host, "/resume")
    if rt is None:
        return
    if session_id == rt.session_id:
        host.say(f"Already in session {session_id}.")
        return
    try:
        warnings = await rt.resume(session_id)
    except MewCodeError as exc:
        host.say(f"Cannot resume: {exc}", "error")
        return
    from mewcode_tui.transcript import transcript_from_history

    restored = transcript_from_history(rt.history, rt.saved_views)
    host.transcript.clear()
    host.transcript.prepend(restored)
    await host.chat.reload()
    _show_context_estimate(host, rt)
    host.say(f"Resumed session {rt.session_id} ({len(rt.history)} messages).")
    for warning in warnings:
        host.say(warning, "warning")


# --- /compact -----------------------------------------------------------------


def compact(host: SessionHost, args: str) -> None:
    rt = _idle_session(host, "/compact")
    if rt is None:
        return
    # Held for the whole summary: prompts typed meanwhile queue instead of
    # racing the history swap, and /clear or /resume wait too.
    host.run_exclusive(_compact(host, rt, args.strip()), "compacting")


async def _compact(host: SessionHost, rt: RuntimeSession, instructions: str) -> None:
    from agent_core.context import CompactionError

    # Before and after are the figure /context, /status and the status bar show.
    before = rt.context_tokens
    outcome = None
    try:
        outcome = await rt.compact(instructions)
    except CompactionError as exc:
        host.say(_sentence(str(exc)), "warning")
    except MewCodeError as exc:
        host.say(f"Compaction failed: {exc}", "error")
    except Exception as exc:  # one line for the user, the traceback for the log
        log.exception("compaction failed")
        host.say(f"Compaction failed: {type(exc).__name__}: {exc}", "error")
    if outcome is not None:
        after = _show_context_estimate(host, rt)
        summarised = outcome.summarised_messages
        host.say(
            f"Compacted: {before:,} → {after:,} tokens "
            f"({summarised} message{'' if summarised == 1 else 's'} summarised)."
        )
        if outcome.warning:
            host.say(_sentence(outcome.warning), "warning")


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


# --- /context -----------------------------------------------------------------


def usage_bar(tokens: int, window: int, cells: int = BAR_CELLS) -> str:
    """A bar of ``cells`` width, in eighths of a cell, for ``tokens`` of ``window``."""
    if window <= 0 or tokens <= 0:
        return ""
    eighths = max(1, round(min(tokens, window) / window * cells * 8))  # any use shows
    full, part = divmod(eighths, 8)
    return "█" * full + (_EIGHTHS[part] if part else "")


def context_table(breakdown: dict[str, int]) -> str:
    """What fills the context window: tokens, share of the window and a bar per category."""
    window = breakdown["context_window"]
    total = breakdown["total"]
    share = f" ({100 * total / window:.0f}%)" if window else ""
    lines = [
        f"Context: about {total:,} of {window:,} tokens{share} · "
        f"automatic compaction at {breakdown['compaction_budget']:,}"
    ]
    for key, label in CATEGORIES:
        tokens = breakdown.get(key, 0)
        percent = 100 * tokens / window if window else 0.0
        lines.append(
            f"  {label:<17}{tokens:>9,} {percent:>5.1f}%  {usage_bar(tokens, window)}".rstrip()
        )
    if breakdown.get("counted"):
        lines.append(
            "The total is the provider's count for the last request plus an estimate of what "
            "came since; categories are estimated (about 4 characters a token) and scaled to it."
        )
    else:
        lines.append("Figures are estimates (about 4 characters a token).")
    return "\n".join(lines)


def context(host: SessionHost, args: str) -> None:
    rt = host.runtime
    if rt is None:
        host.say("Still starting: no session yet.", "warning")
        return
    host.say(context_table(rt.context_breakdown()))


COMMANDS = [
    SlashCommand("resume", "ui", "Switch to a saved session of this project", resume, "[ID]"),
    SlashCommand(
        "compact", "prompt", "Summarise the conversation to free context", compact, "[FOCUS]"
    ),
    SlashCommand("context", "local", "What fills the context window", context),
]
