"""Which session file a runtime opens: a new one, a resumed one, or a fork of a busy one."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from agent_core.messages import Message
from agent_core.sandbox.session import unsandboxed_bypass_error
from agent_core.session.loader import SavedViews
from agent_core.session.store import SessionStore

if TYPE_CHECKING:
    from agent_core.agent.runtime_options import RuntimeOptions


class OpenedSession(NamedTuple):
    store: SessionStore
    messages: list[Message]
    warnings: list[str]
    views: SavedViews | None
    resumed: bool


def open_session_store(opts: RuntimeOptions) -> OpenedSession:
    """The session ``opts`` ask for; raises MewCodeError when it may not open."""
    from agent_core.sandbox import sandbox_status
    from agent_core.session.listing import latest_session_id
    from agent_core.session.lock import SessionLocked

    # Refused before any session file exists: bypass never runs without a boundary.
    if refusal := unsandboxed_bypass_error(opts.mode, opts.settings, sandbox_status()):
        raise refusal
    resume_id = opts.resume_id
    latest = opts.continue_latest and not resume_id
    if latest:
        resume_id = latest_session_id(opts.paths)
    model, provider = opts.provider.model, opts.provider.name
    spill = opts.settings.limits.spill_bytes
    if not resume_id:
        store = SessionStore.create(
            opts.paths,
            model=model,
            provider=provider,
            spill_bytes=spill,
            session_id=opts.session_id,
        )
        return OpenedSession(store, [], [], None, resumed=False)
    try:
        store, loaded = SessionStore.open(opts.paths, resume_id, spill_bytes=spill)
    except SessionLocked as busy:
        if not latest:
            raise  # an explicit --resume of a session in use: say so, do not guess
        # One writer per session: --continue goes on in a copy instead.
        store, loaded = SessionStore.fork(
            opts.paths, resume_id, model=model, provider=provider, spill_bytes=spill
        )
        note = f"{busy}; continuing in a new session {store.session_id} forked from it"
        loaded.warnings.insert(0, note)
    return OpenedSession(store, loaded.messages, loaded.warnings, loaded.views, resumed=True)
