"""One conversation with the agent, UI-free: the object every front end drives.

The runtime wires the layers together — provider, loop, tools, permission
gate, session file, context manager — and exposes a small API (see
``run_turn``). It never renders anything: it emits events on a channel.
"""

from __future__ import annotations

import asyncio
import itertools
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from agent_core import events as ev
from agent_core.agent.conversation import Conversation
from agent_core.agent.executor import ExecutionEnv, ToolExecutor
from agent_core.agent.loop import AgentLoop, LoopLimits, TurnStats
from agent_core.agent.permission_gate import SettingsPermissionGate
from agent_core.agent.prompt import git_summary, system_blocks
from agent_core.channel import RendezvousChannel
from agent_core.config.paths import MewcodePaths
from agent_core.config.settings import RuleEntry, Settings
from agent_core.context.manager import ContextManager
from agent_core.context.tokens import estimate_tokens
from agent_core.errors import ChannelClosed, MewCodeError
from agent_core.llm.base import ChatRequest, Provider
from agent_core.llm.pricing import cost_usd, model_info
from agent_core.memory.files import load_memory
from agent_core.messages import Message, TextBlock, user_text
from agent_core.sandbox.session import (
    UNSANDBOXED_NOTICE,
    session_policy,
    unsandboxed_bypass_error,
)
from agent_core.session.audit import AuditLog
from agent_core.session.store import SessionStore
from agent_core.tools.base import Tool, ToolContext
from agent_core.tools.registry import ToolRegistry
from agent_core.tools.session_state import SessionToolState
from agent_core.usage import Usage

if TYPE_CHECKING:
    from agent_core.agent.session_api import AgentSession

_turn_ids = itertools.count(1)


@dataclass
class RuntimeOptions:
    cwd: Path
    paths: MewcodePaths
    settings: Settings
    provider: Provider
    mode: str = "default"
    resume_id: str | None = None
    continue_latest: bool = False
    cli_rules: list[RuleEntry] = field(default_factory=list)
    max_iterations: int | None = None
    tools: list[Tool] | None = None  # None: the built-in set
    env: Mapping[str, str] | None = None  # for building providers (/model); None: os.environ


class Runtime:
    """A session: history, mode, permissions state and the means to run turns."""

    def __init__(
        self,
        opts: RuntimeOptions,
        store: SessionStore,
        history: list[Message],
        load_warnings: list[str],
    ) -> None:
        self.opts = opts
        self.cwd = opts.cwd
        self.settings = opts.settings
        self._provider = opts.provider
        self._mode = opts.mode
        self.load_warnings = load_warnings
        self.settings_problems = list(opts.settings.problems)
        self.usage = Usage()
        self.cost_usd = 0.0
        self.context_tokens = 0
        self.last_stats = TurnStats()
        self._task: asyncio.Task | None = None
        from agent_core.sandbox import sandbox_status

        self.sandbox = sandbox_status()  # the OS boundary commands run in (probed once)
        if not self.sandbox.available:
            self.settings_problems.append(UNSANDBOXED_NOTICE)
        if opts.tools is None:
            from agent_core.tools.builtin import builtin_tools

            tools = builtin_tools()
        else:
            tools = opts.tools
        self.registry = ToolRegistry(tools)
        self.gate = SettingsPermissionGate(
            opts.paths,
            opts.settings,
            opts.cli_rules,
            lambda: self._mode,
            # Spilled output is the agent's to read back (Read, Grep), and no other session's.
            readable_dirs=lambda: [Path(os.path.realpath(self.store.dir / "tool-results"))],
        )
        self._file_stamps: dict[str, Any] = {}
        limits = opts.settings.limits
        self._tool_state = SessionToolState(  # per-session state and limits the tools read
            bash_output_chars=limits.bash_output_chars,
            bash_timeout_ms=limits.bash_timeout_ms,
            withheld_env=(opts.settings.api_key_env,) if opts.settings.api_key_env else (),
        )
        self._attach(store, history)

    # --- construction -----------------------------------------------------

    @classmethod
    async def open(cls, opts: RuntimeOptions) -> Runtime:
        """Create a new session, or resume one (``resume_id`` / ``continue_latest``)."""
        from agent_core.sandbox import sandbox_status
        from agent_core.session.listing import latest_session_id
        from agent_core.session.lock import SessionLocked

        # Refused before any session file exists: bypass never runs without a boundary.
        if refusal := unsandboxed_bypass_error(
            opts.mode, opts.settings, sandbox_status().available
        ):
            raise refusal
        resume_id = opts.resume_id
        latest = opts.continue_latest and not resume_id
        if latest:
            resume_id = latest_session_id(opts.paths)
        model, provider = opts.provider.model, opts.provider.name
        spill = opts.settings.limits.spill_bytes
        if resume_id:
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
            return cls(opts, store, loaded.messages, loaded.warnings)
        store = SessionStore.create(opts.paths, model=model, provider=provider, spill_bytes=spill)
        return cls(opts, store, [], [])

    def _attach(self, store: SessionStore, history: list[Message]) -> None:
        self.store = store
        self.conversation = Conversation(history, on_append=store.append_message)
        limits = self.settings.limits
        info = model_info(self.provider.model)
        self.context = ContextManager(
            limits, info.context_window, limits.max_output_tokens, store.dir
        )
        self.audit = AuditLog(store.dir / "audit.jsonl")
        # Every command of this session runs inside this policy (agent_core/sandbox).
        self._tool_state.sandbox_policy = session_policy(
            self.opts.paths, self.settings, store.dir, rules=self.opts.cli_rules
        )
        self.context_tokens = (
            self.context.estimate(history, self._overhead_tokens()) if history else 0
        )

    # --- read-only views ---------------------------------------------------

    @property
    def mode(self) -> str:
        return self._mode

    @property
    def provider(self) -> Provider:
        return self._provider

    @property
    def session_id(self) -> str:
        return self.store.session_id

    @property
    def session_path(self) -> Path:
        return self.store.path

    @property
    def history(self) -> list[Message]:
        return self.conversation.messages

    @property
    def context_window(self) -> int:
        return model_info(self.provider.model).context_window

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def tool_names(self) -> list[str]:
        return [t.name for t in self._offered_tools()]

    def mode_refusal(self, mode: str) -> MewCodeError | None:
        """Why ``mode`` may not be used here (bypass without an OS sandbox), or None."""
        return unsandboxed_bypass_error(mode, self.settings, self.sandbox.available)

    def rules(self) -> list[RuleEntry]:
        return self.gate.all_rules()

    def remove_rule(self, entry: RuleEntry) -> bool:
        return self.gate.remove_rule(entry)

    # --- turns ------------------------------------------------------------

    def _offered_tools(self) -> list[Tool]:
        if self.mode == "plan":
            return self.registry.tools(lambda t: t.read_only or t.name == "ExitPlanMode")
        return self.registry.tools(lambda t: t.name != "ExitPlanMode")

    def _tool_context(self, emit) -> Any:
        def make(call_id: str) -> ToolContext:
            return ToolContext(
                cwd=self.cwd,
                session_dir=self.store.dir,
                call_id=call_id,
                emit=emit,
                file_stamps=self._file_stamps,
                state=self._tool_state,
            )

        return make

    def _recent_files(self) -> list[Path]:
        return [Path(p) for p in reversed(list(self._file_stamps)[-8:])]

    async def run_turn(
        self, text: str, events: RendezvousChannel | None = None, *, can_ask: bool = True
    ) -> ev.TurnCompleted:
        """Run one user turn; events go to ``events`` (each send waits for the consumer)."""
        if self.running:
            raise RuntimeError("a turn is already running")

        async def emit(event: ev.Event) -> None:
            if events is not None:
                await events.send(event)

        limits = self.settings.limits
        executor = ToolExecutor(
            ExecutionEnv(
                registry=self.registry,
                gate=self.gate,
                emit=emit,
                make_context=self._tool_context(emit),
                can_ask=can_ask,
                audit=self.audit,
                shape_result=self.context.ledger.apply,
                on_plan_approved=self.set_mode,
                allowed_names=lambda: {t.name for t in self._offered_tools()},
            )
        )
        git, memory = await asyncio.gather(
            asyncio.to_thread(git_summary, self.cwd),
            asyncio.to_thread(load_memory, self.opts.paths.home, self.cwd),
        )

        overhead = self._overhead_tokens()

        async def prepare() -> ChatRequest:
            tools = self._offered_tools()
            outcome = await self.context.before_round(
                self.conversation.messages,
                provider=self.provider,
                tool_names=[t.name for t in tools],
                recent_files=self._recent_files(),
                overhead_tokens=overhead,
            )
            if outcome is not None and outcome.compacted:
                self._replace_history(outcome)
                await emit(
                    ev.Compaction(
                        layer="summary",
                        tokens_before=outcome.tokens_before,
                        tokens_after=outcome.tokens_after,
                        note=outcome.warning or "",
                    )
                )
            elif outcome is not None and outcome.warning:
                await emit(ev.Notice(level="warning", message=outcome.warning))
            return ChatRequest(
                messages=list(self.conversation.messages),
                system=system_blocks(
                    self.cwd, self.mode, git=git, extras=[memory] if memory else []
                ),
                tools=self.registry.specs(lambda t: t in tools),
                max_tokens=limits.max_output_tokens,
            )

        loop = AgentLoop(
            provider=self.provider,
            conversation=self.conversation,
            executor=executor,
            prepare_request=prepare,
            emit=emit,
            limits=LoopLimits(
                self.opts.max_iterations or limits.max_iterations,
                limits.hallucination_rounds,
                limits.max_concurrency,
            ),
            on_usage=lambda usage: self._account(usage, emit),
        )
        self.last_stats = loop.stats
        text = self._sized_prompt(text)
        self._task = asyncio.create_task(loop.run(f"turn_{next(_turn_ids)}", text))
        try:
            return await asyncio.shield(self._task)
        except asyncio.CancelledError:
            # The caller itself was cancelled (app exit): stop the turn too.
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, ChannelClosed):
                pass
            raise

    def _sized_prompt(self, text: str) -> str:
        """A prompt over the spill limit becomes a preview and a file, as a tool result does."""
        shaped = self.store.at_rest_size(user_text(text))
        block = shaped.content[0] if len(shaped.content) == 1 else None
        return block.text if isinstance(block, TextBlock) else text

    async def _account(self, usage: Usage, emit) -> None:
        self.usage = self.usage + usage
        self.cost_usd += cost_usd(self.provider.model, usage)
        self.context.note_usage(usage)
        self.context_tokens = usage.prompt_tokens + usage.output_tokens
        await emit(
            ev.UsageUpdate(
                input_tokens=self.usage.input_tokens,
                output_tokens=self.usage.output_tokens,
                cache_read_tokens=self.usage.cache_read_tokens,
                cache_write_tokens=self.usage.cache_write_tokens,
                cost_usd=round(self.cost_usd, 6),
                context_tokens=self.context_tokens,
                context_window=self.context_window,
            )
        )

    def set_mode(self, mode: str) -> None:
        """Switch the permission mode; MewCodeError when it is unknown or refused here."""
        from agent_core.config.settings import MODES

        if mode not in MODES:
            raise MewCodeError(f"unknown mode {mode!r} (one of {', '.join(MODES)})")
        if refusal := self.mode_refusal(mode):
            raise refusal
        self._mode = mode

    async def switch_model(self, model: str, provider: str | None = None) -> None:
        """Use ``model`` from the next request on: the old client is closed, and the
        context budget (automatic compaction) is re-derived from the new model's window."""
        from agent_core.llm.factory import make_provider

        if self.running:
            raise MewCodeError("a turn is running: wait for it or press Esc first")
        # In a thread: a vendor SDK may be imported now, which takes a moment.
        new = await asyncio.to_thread(
            make_provider,
            provider or self._provider.name,
            model,
            settings=self.settings,
            env=self.opts.env if self.opts.env is not None else os.environ,
            cwd=self.cwd,
        )
        old, self._provider = self._provider, new
        if old is not new:
            await _close_provider(old)
        info = model_info(new.model)
        self.context.resize(info.context_window, self.settings.limits.max_output_tokens)
        self.context_tokens = self.context.estimate(self.history, self._overhead_tokens())

    def cancel(self) -> None:
        """Cancel the running turn; it ends with stop reason ``cancelled``."""
        if self._task is not None and not self._task.done():
            self._task.cancel()

    async def new_session(self) -> None:
        """Start a fresh session (``/clear``); the old one stays on disk."""
        store = SessionStore.create(
            self.opts.paths,
            model=self.provider.model,
            provider=self.provider.name,
            spill_bytes=self.settings.limits.spill_bytes,
        )
        self._switch(store, [], [])

    async def resume(self, session_id: str) -> list[str]:
        """Switch to a saved session of this project (``/resume``); returns load warnings."""
        if self.running:
            raise MewCodeError("a turn is running: wait for it or press Esc first")
        store, loaded = SessionStore.open(
            self.opts.paths, session_id, spill_bytes=self.settings.limits.spill_bytes
        )
        self._switch(store, loaded.messages, loaded.warnings)
        return loaded.warnings

    def _switch(self, store: SessionStore, history: list[Message], warnings: list[str]) -> None:
        self.context.close()
        self.store.close()
        self.usage, self.cost_usd, self.context_tokens = Usage(), 0.0, 0
        self._file_stamps.clear()
        self.load_warnings = warnings
        self._attach(store, history)

    def _overhead_texts(self) -> tuple[str, str]:
        """The system prompt and tool definitions as sent, for token estimates."""
        system = system_blocks(self.cwd, self.mode, git="")
        offered = self._offered_tools()
        tools = [msgspec.to_builtins(spec) for spec in self.registry.specs(lambda t: t in offered)]
        return "\n".join(b.text for b in system), msgspec.json.encode(tools).decode()

    def _overhead_tokens(self) -> int:
        system, tools = self._overhead_texts()
        return estimate_tokens(system) + estimate_tokens(tools)

    def context_breakdown(self) -> dict[str, int]:
        """Estimated tokens by category (system prompt, tools, messages...) for ``/context``."""
        return self.context.breakdown(self.history, *self._overhead_texts())

    async def compact(self, instructions: str = "") -> Any:
        """Summarise the history now (``/compact``)."""
        outcome = await self.context.compact(
            self.conversation.messages,
            provider=self.provider,
            tool_names=self.tool_names(),
            recent_files=self._recent_files(),
            instructions=instructions,
            overhead_tokens=self._overhead_tokens(),
        )
        self._replace_history(outcome)
        self.context_tokens = self.context.estimate(self.history, self._overhead_tokens())
        return outcome

    def _replace_history(self, outcome: Any) -> None:
        if outcome.compacted:
            self.conversation.replace(outcome.new_history)
            self.store.append_compaction(
                outcome.new_history, outcome.tokens_before, outcome.tokens_after
            )

    async def close(self) -> None:
        await self._tool_state.close()
        await _close_provider(self._provider)
        self.context.close()
        self.store.close()


async def _close_provider(provider: Provider) -> None:
    """Close a provider's HTTP client, when it has one."""
    aclose = getattr(provider, "aclose", None)
    if aclose is not None:
        await aclose()


if TYPE_CHECKING:

    def _conforms(runtime: Runtime) -> AgentSession:
        return runtime  # mypy checks that Runtime implements the whole session interface
