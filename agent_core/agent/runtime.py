"""One conversation with the agent, UI-free: the object every front end drives.

The runtime wires the layers together — provider, loop, tools, permission
gate, session file, context manager — and exposes a small API (see
``run_turn``). It never renders anything: it emits events on a channel.
What a turn starts from is built in ``turn_inputs``; the read-only figures a
front end shows (history, usage, cost, context) are read through a ``SessionFigures``.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
from collections.abc import Callable, Coroutine, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import msgspec

from agent_core import events as ev
from agent_core.agent.approvals import PendingApprovals
from agent_core.agent.call_views import CallViewRecorder, ViewKeepingSink
from agent_core.agent.conversation import Conversation
from agent_core.agent.execution_env import ExecutionEnv
from agent_core.agent.executor import ToolExecutor
from agent_core.agent.loop import AgentLoop, TurnStats
from agent_core.agent.permission_gate import SettingsPermissionGate
from agent_core.agent.prompt_context import session_prompt_contexts
from agent_core.agent.provider_switch import built_provider, close_provider
from agent_core.agent.refused_prompt import refused_turn
from agent_core.agent.request_builder import RequestBuilder, recent_files
from agent_core.agent.runtime_options import RuntimeOptions as RuntimeOptions
from agent_core.agent.session_figures import SessionFigures
from agent_core.agent.session_opening import open_session_store
from agent_core.agent.tool_catalog import ToolCatalog
from agent_core.agent.tool_contexts import SessionToolContexts
from agent_core.agent.turn_events import Emit, log_notice, turn_emitter
from agent_core.agent.turn_inputs import loop_limits, prompt_attachments, sized_prompt, turn_facts
from agent_core.agent.usage_meter import UsageMeter
from agent_core.channel import RendezvousChannel
from agent_core.config.settings import RuleEntry
from agent_core.context.manager import CompactionOutcome, ContextManager
from agent_core.errors import ChannelClosed, MewCodeError
from agent_core.hooks.session_hooks import SessionHooks, TurnHooks
from agent_core.llm.base import Provider
from agent_core.llm.pricing import model_info
from agent_core.memory.files import MemoryReach, session_reach
from agent_core.memory.long_term import LongTermMemory
from agent_core.messages import ImageBlock, Message
from agent_core.modes import Mode
from agent_core.net.web_access import WebAccess
from agent_core.sandbox.session import (
    UNSANDBOXED_NOTICE,
    session_policy,
    unsandboxed_bypass_error,
)
from agent_core.session.audit import AuditLog
from agent_core.session.loader import SavedViews
from agent_core.session.store import SessionStore
from agent_core.skills.loader import SkillLibrary
from agent_core.tools.base import FileStamp
from agent_core.tools.registry import ToolRegistry
from agent_core.tools.session_state import SessionToolState
from agent_core.usage import Usage

if TYPE_CHECKING:
    from agent_core.agent.session_api import RuntimeSession
    from agent_core.config.paths import MewcodePaths
    from agent_core.mcp.model import McpServerStatus
    from agent_core.sandbox.policy import SandboxPolicy
    from agent_core.tools.shells import ShellRegistry

log = logging.getLogger("mewcode.runtime")
_turn_ids = itertools.count(1)


class Runtime:
    """A session: history, mode, permissions state and the means to run turns."""

    def __init__(
        self,
        opts: RuntimeOptions,
        store: SessionStore,
        history: list[Message],
        load_warnings: list[str],
        saved_views: SavedViews | None = None,
    ) -> None:
        self.opts = opts
        self.cwd = opts.cwd
        self.settings = opts.settings
        self.prompt_choice = opts.prompt
        self._provider = opts.provider
        self._mode = opts.mode
        self.load_warnings = load_warnings
        self.added_directories: list[str] = []  # by /add-dir, in this session
        # How the loaded history's calls and early-stopped turns looked live (for a front end).
        self.saved_views = saved_views or SavedViews()
        self.settings_problems = [*opts.settings.problems, *opts.mcp_problems]
        self.last_stats = TurnStats()
        self._task: asyncio.Task | None = None
        self._mode_watchers: list[Callable[[Mode], None]] = []
        self.opened_as: Literal["new", "resumed"] = "new"  # what ``open`` found
        self.approvals = PendingApprovals()  # requests waiting for a human, by id
        from agent_core.sandbox import sandbox_status

        self.sandbox = sandbox_status()  # the OS boundary commands run in (probed once)
        if not self.sandbox.available:
            self.settings_problems.append(UNSANDBOXED_NOTICE)
        if opts.tools is None:
            from agent_core.tools.builtin import builtin_tools

            tools = builtin_tools()
        else:
            tools = opts.tools
        self.catalog = ToolCatalog(ToolRegistry(tools), opts.mcp)
        self.catalog.sync_mcp()  # tools an earlier run cached are offered without waiting
        self.gate = SettingsPermissionGate(
            opts.paths,
            opts.settings,
            opts.cli_rules,
            lambda: self._mode,
            # Spilled output is the agent's to read back (Read, Grep), and no other session's.
            # Files beside a skill's SKILL.md are the model's to read too.
            readable_dirs=lambda: [
                Path(os.path.realpath(self.store.dir / "tool-results")),
                *self._skills.readable_dirs(),
            ],
            # What git's core.hooksPath makes hooks of: writes there ask in every mode.
            hooks_paths=lambda: [Path(p) for p in self.sandbox_policy.hooks_paths],
            cwd=opts.cwd,
        )
        self.prompt_contexts = session_prompt_contexts(opts.paths, opts.settings)
        self._skills = SkillLibrary.for_session(opts.paths)
        self._file_stamps: dict[str, FileStamp] = {}
        limits = opts.settings.limits
        self._tool_state = SessionToolState(  # per-session state and limits the tools read
            bash_output_chars=limits.bash_output_chars,
            bash_timeout_ms=limits.bash_timeout_ms,
            withheld_env=(opts.settings.api_key_env,) if opts.settings.api_key_env else (),
            command_env=dict(opts.settings.env),
            memory=LongTermMemory(opts.paths),  # opened on the first Remember
            skill_library=self._skills,
            web=WebAccess(opts.settings.sandbox_network, self.gate.named_web_hosts),
        )
        from agent_core.tools.bash import PROVIDER_KEY_VARS

        self.hooks = SessionHooks.load(  # hooks never see MewCode's API keys
            opts.paths,
            opts.settings,
            self._hook_common,
            withheld=(*PROVIDER_KEY_VARS, *self._tool_state.withheld_env),
        )
        self.settings_problems.extend(self.hooks.settings.problems)
        self.prompt_contexts.append(self.hooks.start_context)
        self._attach(store, history)

    # --- construction -----------------------------------------------------

    @classmethod
    async def open(cls, opts: RuntimeOptions) -> Runtime:
        """Create a new session, or resume one (``resume_id`` / ``continue_latest``)."""
        opened = open_session_store(opts)
        runtime = cls(opts, opened.store, opened.messages, opened.warnings, opened.views)
        source = "resume" if opened.resumed else "startup"
        runtime.opened_as = "resumed" if opened.resumed else "new"
        runtime.load_warnings.extend(await runtime.hooks.session_started(source))
        return runtime

    def _attach(self, store: SessionStore, history: list[Message]) -> None:
        self.store = store
        self.conversation = Conversation(
            history, sink=ViewKeepingSink(store, lambda: self.saved_views, len(history))
        )
        limits = self.settings.limits
        info = model_info(self.provider.model)
        self.context = ContextManager(
            limits, info.context_window, limits.max_output_tokens, store.dir
        )
        self.meter = UsageMeter(self.context)
        self.figures = SessionFigures(
            cwd=self.cwd,
            catalog=self.catalog,
            prompt_choice=self.prompt_choice,
            conversation=self.conversation,
            meter=self.meter,
            context=self.context,
            mode=lambda: self._mode,
            model=lambda: self._provider.model,
        )
        self.audit = AuditLog(store.dir / "audit.jsonl")
        # Every command of this session runs inside this policy (agent_core/sandbox).
        self._tool_state.sandbox_policy = session_policy(
            self.opts.paths, self.settings, store.dir, rules=self.opts.cli_rules
        )

    # --- what a front end reads ----------------------------------------------

    @property
    def mode(self) -> Mode:
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
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    @property
    def history(self) -> list[Message]:
        return self.figures.history

    @property
    def usage(self) -> Usage:
        return self.figures.usage

    @property
    def cost_usd(self) -> float:
        return self.figures.cost_usd

    @property
    def context_tokens(self) -> int:
        return self.figures.context_tokens

    @property
    def context_window(self) -> int:
        return self.figures.context_window

    def context_breakdown(self) -> dict[str, int]:
        return self.figures.context_breakdown()

    # --- tools and MCP servers ----------------------------------------------

    def tool_names(self) -> list[str]:
        self.catalog.sync_mcp()
        return self.catalog.offered_names(self._mode)

    def start_mcp(self) -> None:
        if self.opts.mcp is not None:
            self.opts.mcp.start()

    async def settle_tools(self) -> None:
        await self.catalog.refresh()

    def mcp_servers(self) -> list[McpServerStatus]:
        return self.opts.mcp.statuses() if self.opts.mcp is not None else []

    async def mcp_reconnect(self, name: str) -> McpServerStatus:
        if self.opts.mcp is None:
            raise MewCodeError(f"no MCP server named {name!r} (none is configured)")
        status = await self.opts.mcp.reconnect(name)
        self.catalog.sync_mcp()
        return status

    def watch_mcp(self, callback: Callable[[], None]) -> None:
        if self.opts.mcp is not None:
            self.opts.mcp.watch(callback)

    @property
    def sandbox_policy(self) -> SandboxPolicy:
        """What this session's commands may touch; MewCode's own git runs in a stricter copy."""
        policy = self._tool_state.sandbox_policy
        assert policy is not None, "_attach sets the policy of every session"
        return policy

    @property
    def shells(self) -> ShellRegistry:
        return self._tool_state.shells

    @property
    def provider_env(self) -> Mapping[str, str]:
        """The environment providers are built from (where /doctor looks for the key)."""
        return self.opts.env if self.opts.env is not None else os.environ

    def add_directory(self, path: str) -> tuple[Path, bool]:
        """Let the session read and edit in ``path`` too, as ``--add-dir`` does: the
        permission engine and the sandbox both take it in. Returns the folder and whether it
        is new (False: the project or an added folder holds it already)."""
        try:
            folder = (self.cwd / Path(path).expanduser()).resolve()
        except (OSError, RuntimeError) as exc:
            raise MewCodeError(f"{path}: {exc}") from None
        if not folder.is_dir():
            raise MewCodeError(
                f"{path}: {'not a directory' if folder.exists() else 'no such directory'}"
            )
        project = self.paths.project.resolve()
        added = self.settings.additional_directories
        known = [project, *((project / Path(d).expanduser()).resolve() for d in added)]
        if any(folder.is_relative_to(root) for root in known):
            return folder, False
        settings = msgspec.structs.replace(
            self.settings,
            additional_directories=[*self.settings.additional_directories, str(folder)],
        )
        policy = session_policy(
            self.opts.paths, settings, self.store.dir, rules=self.opts.cli_rules
        )
        self.settings = self.gate.settings = settings
        self._tool_state.sandbox_policy = policy
        self.added_directories.append(str(folder))
        return folder, True

    def mode_refusal(self, mode: Mode) -> MewCodeError | None:
        """Why ``mode`` may not be used here (bypass without a boundary that holds), or None."""
        return unsandboxed_bypass_error(mode, self.settings, self.sandbox)

    def rules(self) -> list[RuleEntry]:
        return self.gate.all_rules()

    def remove_rule(self, entry: RuleEntry) -> bool:
        return self.gate.remove_rule(entry)

    # --- turns ------------------------------------------------------------

    async def run_turn(
        self,
        text: str,
        events: RendezvousChannel[ev.Event] | None = None,
        *,
        can_ask: bool = True,
        turn_id: str | None = None,
        images: Sequence[ImageBlock] = (),
        shown: str = "",
    ) -> ev.TurnCompleted:
        """Run one user turn; events go to ``events`` (each send waits for the consumer).

        ``images`` ride with the prompt as they are (``turn_images`` checked and fitted them).
        ``shown`` is what the user typed when ``text`` is its expansion: a resume shows it.
        """
        turn_id = turn_id or f"turn_{next(_turn_ids)}"
        if self.running:
            raise RuntimeError("a turn is already running")
        recorder = CallViewRecorder(self.store, self.conversation, self.saved_views)
        emit = turn_emitter(events, recorder)
        hooks = self.hooks.for_turn(emit)
        submitted = await hooks.prompt_submitted(text)
        if submitted.blocked or submitted.stop:
            self.last_stats = TurnStats()
            return await refused_turn(submitted, turn_id, events)
        loop = AgentLoop(
            provider=self._provider,
            conversation=self.conversation,
            executor=ToolExecutor(self._execution_env(emit, can_ask, hooks)),
            requests=await self._request_builder(emit, text),
            emit=emit,
            limits=loop_limits(
                self.settings.limits, self.opts.max_iterations, self.opts.max_budget_usd
            ),
            meter=self.meter,
            addenda=self._tool_state.skill_buffer,
            hooks=hooks if hooks.active else None,
        )
        self.last_stats = loop.stats
        prompt = sized_prompt(self.store, text)
        attached = await prompt_attachments(
            text, self.cwd, self.gate, self.settings.limits, submitted.context
        )
        attached.blocks[:0] = images  # the images first, then the files the text mentions
        if shown and shown != text:
            recorder.typed(shown)  # the loop appends the prompt next
        return await self._run_task(loop.run(turn_id, prompt, attached))

    async def run_shell(
        self,
        command: str,
        events: RendezvousChannel[ev.Event] | None = None,
        *,
        can_ask: bool = True,
        turn_id: str | None = None,
    ) -> ev.TurnCompleted:
        """Run a command the user typed (``!``) as a Bash call, permission decided as the
        model's would be; its input and output join the history for the model to read."""
        from agent_core.agent.shell_command import AllowWatch, run_shell_command, shell_call

        turn_id = turn_id or f"turn_{next(_turn_ids)}"
        if self.running:
            raise RuntimeError("a turn is already running")
        call = shell_call(turn_id, command)
        emit = AllowWatch(
            turn_emitter(events, CallViewRecorder(self.store, self.conversation, self.saved_views)),
            call.id,
        )
        hooks = self.hooks.for_turn(emit)
        executor = ToolExecutor(self._execution_env(emit, can_ask, hooks))
        self.last_stats = TurnStats()
        return await self._run_task(
            run_shell_command(call, executor, self.conversation, emit, turn_id)
        )

    async def _run_task(self, work: Coroutine[Any, Any, ev.TurnCompleted]) -> ev.TurnCompleted:
        """Run a turn's work as the task ``cancel`` stops."""
        self._task = asyncio.create_task(work)
        try:
            return await asyncio.shield(self._task)
        except asyncio.CancelledError:
            # The caller itself was cancelled (app exit): stop the turn too.
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, ChannelClosed):
                await self._task
            raise

    def _hook_common(self) -> dict[str, Any]:
        """The fields every hook's input starts with."""
        return {
            "session_id": self.session_id,
            "transcript_path": str(self.session_path),
            "cwd": str(self.cwd),
            "permission_mode": self._mode,
        }

    def _execution_env(self, emit: Emit, can_ask: bool, hooks: TurnHooks) -> ExecutionEnv:
        contexts = SessionToolContexts(
            self.cwd, self.store.dir, emit, self._file_stamps, self._tool_state
        )
        return ExecutionEnv(
            catalog=self.catalog,
            gate=self.gate,
            emit=emit,
            contexts=contexts,
            session=self,
            can_ask=can_ask,
            audit=self.audit,
            results=self.context.ledger,
            approvals=self.approvals,
            hooks=hooks if hooks.active else None,
        )

    async def _request_builder(self, emit: Emit, prompt: str = "") -> RequestBuilder:
        facts = await turn_facts(
            self.cwd,
            self.sandbox_policy,
            self.memory_reach(),
            self.prompt_contexts,
            prompt,
            self.figures.overhead_tokens,
        )
        return RequestBuilder(
            conversation=self.conversation,
            context=self.context,
            catalog=self.catalog,
            session=self,
            provider=self._provider,
            cwd=self.cwd,
            file_stamps=self._file_stamps,
            facts=facts,
            max_tokens=self.settings.limits.max_output_tokens,
            emit=emit,
            before_compaction=lambda: self.hooks.compacting("auto", "", emit),
            choice=self.prompt_choice,
        )

    @property
    def paths(self) -> MewcodePaths:
        return self.opts.paths

    @property
    def memory(self) -> LongTermMemory:
        """This session's long-term memory (the one the Remember tool writes)."""
        memory = self._tool_state.memory
        assert memory is not None, "__init__ gives every session its memory"
        return memory

    @property
    def skills(self) -> SkillLibrary:
        return self._skills

    def memory_reach(self) -> MemoryReach:
        """Where this session's memory files are found and their imports may lead."""
        return session_reach(
            self.opts.paths,
            self.cwd,
            self.settings.additional_directories,
            self.sandbox_policy.hidden,
        )

    def set_mode(self, mode: Mode) -> None:
        """Switch the permission mode; MewCodeError when it is refused here."""
        if refusal := self.mode_refusal(mode):
            raise refusal
        changed, self._mode = mode != self._mode, mode
        if changed:
            for watcher in list(self._mode_watchers):
                watcher(mode)

    def watch_mode(self, callback: Callable[[Mode], None]) -> None:
        """Call ``callback`` with the new mode on every change, whoever made it."""
        self._mode_watchers.append(callback)

    async def switch_model(self, model: str, provider: str | None = None) -> None:
        """Use ``model`` from the next request on: the old client is closed, and the
        context budget (automatic compaction) is re-derived from the new model's window."""
        if self.running:
            raise MewCodeError("a turn is running: wait for it or press Esc first")
        name = provider or self._provider.name
        new = await built_provider(name, model, self.settings, self.opts.env, self.cwd)
        old, self._provider = self._provider, new
        if old is not new:
            await close_provider(old)
        info = model_info(new.model)
        self.context.resize(info.context_window, self.settings.limits.max_output_tokens)

    def answer_approval(self, approval_id: str, reply: ev.ApprovalReply | ev.PlanAnswer) -> bool:
        """Answer a waiting approval (a tool call's or a plan's); False when none of that
        kind waits under the id."""
        return self.approvals.answer(approval_id, reply)

    def cancel(self) -> None:
        """Cancel the running turn; it ends with stop reason ``cancelled``."""
        if self._task is not None and not self._task.done():
            self._task.cancel()

    async def new_session(self) -> None:
        """Start a fresh session (``/clear``); the old one stays on disk."""
        await self.hooks.session_ended("clear")
        store = SessionStore.create(
            self.opts.paths,
            model=self.provider.model,
            provider=self.provider.name,
            spill_bytes=self.settings.limits.spill_bytes,
        )
        self._switch(store, [], [])
        self.load_warnings.extend(await self.hooks.session_started("clear"))

    async def resume(self, session_id: str) -> list[str]:
        """Switch to a saved session of this project (``/resume``); returns load warnings."""
        if self.running:
            raise MewCodeError("a turn is running: wait for it or press Esc first")
        store, loaded = SessionStore.open(
            self.opts.paths, session_id, spill_bytes=self.settings.limits.spill_bytes
        )
        self._switch(store, loaded.messages, loaded.warnings, loaded.views)
        self.load_warnings.extend(await self.hooks.session_started("resume"))
        return self.load_warnings

    async def fork(self, session_id: str | None = None) -> None:
        """Continue in a new session holding a copy of ``session_id``'s history (default:
        this session's); the source stays as it was."""
        if self.running:
            raise MewCodeError("a turn is running: wait for it or press Esc first")
        store, loaded = SessionStore.fork(
            self.opts.paths,
            session_id or self.session_id,
            model=self.provider.model,
            provider=self.provider.name,
            spill_bytes=self.settings.limits.spill_bytes,
        )
        self._switch(store, loaded.messages, loaded.warnings, loaded.views)
        self.load_warnings.extend(await self.hooks.session_started("resume"))

    def _switch(
        self,
        store: SessionStore,
        history: list[Message],
        warnings: list[str],
        views: SavedViews | None = None,
    ) -> None:
        self.context.close()
        self.store.close()
        self._file_stamps.clear()
        self.load_warnings = warnings
        self.saved_views = views or SavedViews()
        self._attach(store, history)

    async def compact(self, instructions: str = "") -> CompactionOutcome:
        """Summarise the history now (``/compact``)."""
        await self.hooks.compacting("manual", instructions, log_notice)
        outcome = await self.context.compact(
            self.conversation.messages,
            provider=self.provider,
            tool_names=self.tool_names(),
            recent_files=recent_files(self._file_stamps),
            instructions=instructions,
            overhead_tokens=self.figures.overhead_tokens(),
        )
        if outcome.compacted:
            self.conversation.replace(
                outcome.new_history, outcome.tokens_before, outcome.tokens_after
            )
        return outcome

    async def close(self) -> None:
        try:
            await self.hooks.session_ended("other")
        except Exception:  # closing goes on whatever a hook did
            log.exception("SessionEnd hooks failed")
        await self._tool_state.close()
        if self.opts.mcp is not None:
            await self.opts.mcp.aclose()
        await close_provider(self._provider)
        self.context.close()
        self.store.close()


if TYPE_CHECKING:

    def _conforms(runtime: Runtime) -> RuntimeSession:
        return runtime  # mypy checks that Runtime implements the host's and the TUI's view
