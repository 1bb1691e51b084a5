"""Session and context commands: /resume, /compact, /context (docs/manual.md#sessions-and-context)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

from agent_core import events as ev
from agent_core.errors import MewCodeError
from agent_core.protocol import ops
from mewcode_tui.commands.registry import CommandHost, SlashCommand, ask

if TYPE_CHECKING:
    from mewcode_tui.session_client import SessionClient

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


def _idle_session(host: SessionHost, action: str) -> SessionClient | None:
    """The session when ``action`` may run now; else None, after saying why (starting, busy)."""
    session = host.session
    if session is None:
        host.say("Still starting: try again in a moment.", "warning")
        return None
    if host.busy or session.snapshot().running:
        host.say(f"Wait for the turn to finish (or press Esc) before {action}.", "warning")
        return None
    return session


def _show_context_estimate(host: SessionHost, session: SessionClient) -> int:
    """After a switch or a summary the last usage figure is stale: show (and return) the new one."""
    host.refresh_status()  # the status bar reads the snapshot's figure, as /status and /context do
    return session.snapshot().context_tokens


# --- /resume ------------------------------------------------------------------


def find_session(sessions: Sequence[ev.SessionSummary], wanted: str) -> str:
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
    session = _idle_session(host, "/resume")
    if session is None:
        return
    from mewcode_tui.screens.resume import ResumeScreen

    current = session.session_id
    sessions = (await ask(session, ops.ListSessions(), ev.SessionList)).sessions
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
    """Resume ``session_id`` and re-show its conversation in the chat pane.

    What loading it found wrong comes after as ``Notice`` events, which the screen says.
    """
    session = _idle_session(host, "/resume")
    if session is None:
        return
    if session_id == session.session_id:
        host.say(f"Already in session {session_id}.")
        return
    try:
        await ask(session, ops.Resume(session_id=session_id), ev.SessionOpened)
    except MewCodeError as exc:
        host.say(f"Cannot resume: {exc}", "error")
        return
    await host.show_history()
    _show_context_estimate(host, session)
    now = session.snapshot()
    host.say(f"Resumed session {now.session_id} ({now.messages} messages).")


# --- /compact -----------------------------------------------------------------


def compact(host: SessionHost, args: str) -> None:
    session = _idle_session(host, "/compact")
    if session is None:
        return
    # Held for the whole summary: prompts typed meanwhile queue instead of
    # racing the history swap, and /clear or /resume wait too.
    host.run_exclusive(_compact(host, session, args.strip()), "compacting")


async def _compact(host: SessionHost, session: SessionClient, instructions: str) -> None:
    try:
        answer = await session.request(ops.Compact(instructions=instructions))
    except MewCodeError as exc:  # "nothing to compact yet...", a failed summary request
        host.say(_sentence(str(exc)), "warning")
        return
    except Exception as exc:  # one line for the user, the traceback for the log
        log.exception("compaction failed")
        host.say(f"Compaction failed: {type(exc).__name__}: {exc}", "error")
        return
    # Not compacted (op.done): the session told why in a notice the screen shows.
    if isinstance(answer, ev.Compaction):
        # Both figures are estimates, counted the same way (the status bar's figure after).
        _show_context_estimate(host, session)
        before, after, summarised = (
            answer.tokens_before,
            answer.tokens_after,
            answer.summarised_messages,
        )
        host.say(
            f"Compacted: {before:,} → {after:,} tokens "
            f"({summarised} message{'' if summarised == 1 else 's'} summarised)."
        )


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


async def context(host: SessionHost, args: str) -> None:
    if host.session is None:
        host.say("Still starting: no session yet.", "warning")
        return
    report = await ask(host.session, ops.QueryContext(), ev.ContextReport)
    host.say(context_table(report.breakdown))


COMMANDS = [
    SlashCommand("resume", "ui", "Switch to a saved session of this project", resume, "[ID]"),
    SlashCommand(
        "compact", "prompt", "Summarise the conversation to free context", compact, "[FOCUS]"
    ),
    SlashCommand("context", "local", "What fills the context window", context),
]
