"""Runs one tool call: validate, decide permission, ask a human, run, record.

Every outcome — unknown tool, bad input, denial, tool failure, success —
becomes a ``ToolResultBlock`` for the model; nothing here raises into the loop
except cancellation.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Sequence
from typing import Any, Literal

from agent_core import events as ev
from agent_core.agent.execution_env import ExecutionEnv, Verdict
from agent_core.errors import ChannelClosed, MewCodeError
from agent_core.messages import ToolResultBlock, ToolUseBlock
from agent_core.modes import Mode
from agent_core.tools.base import (
    PreviewTool,
    Tool,
    ToolContext,
    ToolError,
    ToolOutput,
    precheck,
    tool_arguments,
)
from agent_core.tools.interruption import ToolInterrupted

log = logging.getLogger("mewcode.executor")
PREVIEW_CHARS = 60_000  # spilled results are already bounded
# Questions about one call when each answer changes its input (an app's updatedInput).
MAX_ANSWER_ROUNDS = 3
SessionGrant = Literal["rules", "accept_edits"]  # see ApprovalRequested.session_grant


def _error(call: ToolUseBlock, message: str) -> ToolResultBlock:
    return ToolResultBlock(tool_use_id=call.id, content=message, is_error=True)


class ToolExecutor:
    """Executes calls; ``completed`` keeps results as they finish (for cancel)."""

    def __init__(self, env: ExecutionEnv) -> None:
        self.env = env
        self.completed: dict[str, ToolResultBlock] = {}
        self.unknown_calls = 0
        self.denials: list[dict[str, Any]] = []
        self._checked: dict[str, tuple[tuple[str, str], ...]] = {}

    def is_read_only(self, call: ToolUseBlock) -> bool:
        return self.env.catalog.runs_in_batch(call.name)

    async def execute(self, call: ToolUseBlock, input_error: str | None = None) -> ToolResultBlock:
        result = await self._execute(call, input_error)
        self.completed[call.id] = result
        await self._sandbox_notices(call.id)
        return result

    async def _sandbox_notices(self, call_id: str) -> None:
        """What the sandbox's guard undid as commands and shells ended: told to the user."""
        state = self.env.contexts.for_call(call_id).state
        for line in state.take_sandbox_findings():
            await self.env.emit(ev.Notice(level="warning", message=line))

    async def _announce(
        self,
        call: ToolUseBlock,
        summary: str,
        *,
        read_only: bool,
        shown_input: dict[str, Any] | None = None,
    ) -> None:
        """Tell the front end about the call (its line in the tool tree)."""
        await self.env.emit(
            ev.ToolCall(
                call_id=call.id,
                tool=call.name,
                input=call.input if shown_input is None else shown_input,
                read_only=read_only,
                summary=summary,
            )
        )

    async def _refuse(
        self,
        call: ToolUseBlock,
        summary: str,
        message: str,
        *,
        read_only: bool,
        shown_input: dict[str, Any] | None = None,
    ) -> ToolResultBlock:
        """Show a call that cannot run, and answer it with ``message`` as an error."""
        await self._announce(call, summary, read_only=read_only, shown_input=shown_input)
        return await self._finish(call, _error(call, message), 0.0)

    async def _execute(self, call: ToolUseBlock, input_error: str | None) -> ToolResultBlock:
        env = self.env
        tool = env.catalog.get(call.name)
        allowed = env.catalog.offered_names(env.session.mode)
        if tool is None or call.name not in allowed:
            names = ", ".join(sorted(allowed))
            if tool is None:
                self.unknown_calls += 1
                message = f"unknown tool {call.name!r}; available tools: {names}"
            else:  # a real tool the current mode does not offer (plan mode)
                message = (
                    f"{call.name} is not available in the current permission mode; "
                    f"available tools: {names}"
                )
            summary = "unknown tool" if tool is None else "not available in this mode"
            return await self._refuse(call, summary, message, read_only=False)
        if input_error:
            message = f"invalid JSON arguments for {call.name}: {input_error}"
            return await self._refuse(
                call, "invalid arguments", message, read_only=tool.read_only, shown_input={}
            )
        try:
            args = tool_arguments(tool, call.input)
            summary = tool.summary(args)
        except ToolError as exc:
            message = f"{call.name}: {exc}"
            return await self._refuse(call, "invalid input", message, read_only=tool.read_only)
        await self._announce(call, summary, read_only=tool.read_only)

        if env.catalog.is_plan_exit(tool):
            refusal = await self._approve_plan(call)
            cleared = (call, args) if refusal is None else refusal
        else:
            cleared = await self._authorize(tool, call, args)
        if isinstance(cleared, ToolResultBlock):
            return await self._finish(call, cleared, 0.0)
        call, args = cleared  # an approval's answer may have changed the input

        started = time.monotonic()
        ctx = env.contexts.for_call(call.id)
        ctx.checked = self._checked.pop(call.id, ())
        await env.emit(ev.Status(phase="tool", detail=summary))
        try:
            output = await tool.run(args, ctx)
        except asyncio.CancelledError as exc:
            # It ran: the model hears for how long and what it printed, never "not run".
            partial = exc.output if isinstance(exc, ToolInterrupted) else ""
            interrupted = self._interrupted(call, ctx, time.monotonic() - started, partial)
            self.completed[call.id] = interrupted
            await self._show_interrupted(call, interrupted)
            raise
        except ToolError as exc:
            output = ToolOutput(content=f"{call.name} failed: {exc}", is_error=True)
        except (KeyboardInterrupt, SystemExit):
            raise
        except Exception as exc:  # a tool bug must not break the loop
            log.exception("tool %s crashed", call.name)
            output = ToolOutput(
                content=f"{call.name} failed unexpectedly: {type(exc).__name__}: {exc}",
                is_error=True,
            )
        duration = time.monotonic() - started
        content = output.content
        if isinstance(content, str) and env.results is not None:
            shaped = env.results.apply(call.id, content)
            if shaped != content:
                await env.emit(
                    ev.Compaction(
                        layer="spill",
                        tokens_before=len(content) // 4,
                        tokens_after=len(shaped) // 4,
                        note=f"{call.name} output saved to a file",
                    )
                )
            content = shaped
        result = ToolResultBlock(tool_use_id=call.id, content=content, is_error=output.is_error)
        if env.hooks is not None and not output.is_error:  # as Claude Code: after success only
            result = await env.hooks.after_tool(call, result)
        if env.audit:
            executed = {
                "duration_ms": int(duration * 1000),
                **ctx.state.take_exec_fields(call.id),
            }
            env.audit.write(
                "exec", call_id=call.id, tool=call.name, is_error=output.is_error, **executed
            )
        return await self._finish(call, result, duration)

    def _interrupted(
        self, call: ToolUseBlock, ctx: ToolContext, seconds: float, partial: str
    ) -> ToolResultBlock:
        """The result of a call the user cancelled while it ran."""
        head = f"Interrupted by the user after {seconds:.1f} s."
        text = f"{head} Output so far:\n{partial}" if partial else f"{head} No output so far."
        if self.env.results is not None:
            text = self.env.results.apply(call.id, text)
        if self.env.audit:
            self.env.audit.write(
                "exec",
                call_id=call.id,
                tool=call.name,
                is_error=True,
                interrupted=True,
                **{"duration_ms": int(seconds * 1000), **ctx.state.take_exec_fields(call.id)},
            )
        return ToolResultBlock(tool_use_id=call.id, content=text, is_error=True)

    async def _show_interrupted(self, call: ToolUseBlock, result: ToolResultBlock) -> None:
        """The front end shows what the model got from the interrupted call, as a resumed
        session will (the turn's end marks the call cancelled)."""
        from agent_core.messages import result_text

        text = result_text(result)[:PREVIEW_CHARS]
        update = ev.ToolOutputUpdate(call_id=call.id, text=text, total_chars=len(text), final=True)
        with contextlib.suppress(ChannelClosed):
            await self.env.emit(update)

    async def _authorize(
        self, tool: Tool, call: ToolUseBlock, args: Any
    ) -> tuple[ToolUseBlock, Any] | ToolResultBlock:
        """Layers 1-5: the call and arguments to run, or an error result when it may not run."""
        env = self.env
        verdict = env.gate.decide(tool, call.input)
        # The tool opens exactly what was checked here (no symlink swapped in since).
        self._checked[call.id] = tuple(getattr(verdict, "checked", ()))
        decision: ev.Decision = verdict.decision
        layer: ev.Layer = verdict.layer
        reason = verdict.reason
        who: str = "engine"
        changed: dict[str, Any] | None = None
        hook = await self._hook_verdict(call, decision)
        if hook is not None:
            decision, reason, _ = hook
            layer = who = "hook"
        if decision == "ask":
            if not env.can_ask:
                decision, layer = "deny", "user"
                reason = f"approval was not available (non-interactive run): {reason}"
            else:
                if failure := await self._precheck(tool, call, args):
                    return failure
                grant = self._session_grant(tool, call, verdict)
                reply = await self._ask(tool, call, args, verdict, layer, reason, grant)
                layer = who = "user"
                if reply.answer != "deny" and reply.updated_input not in (None, call.input):
                    changed = reply.updated_input
                # Rules are granted for the call that was shown, never for a changed one.
                grants: Sequence[str] = verdict.suggested_rules
                if changed is not None:
                    grant, grants = "rules", ()
                decision, reason = await self._take_answer(reply, grants, grant)
        await self._tell_decision(
            call, decision, layer, reason, verdict.rule, who, hook[2] if hook else None
        )
        if decision != "allow":
            return self._denied(call, layer, reason)
        if changed is not None:
            return await self._recheck(tool, call, changed)
        return call, args

    async def _precheck(self, tool: Tool, call: ToolUseBlock, args: Any) -> ToolResultBlock | None:
        """The error the call would fail with, found reading only before a human is asked
        (an edit of a file not read): nobody approves a call that cannot work. The tool
        checks again when it runs."""
        ctx = self.env.contexts.for_call(call.id)
        ctx.checked = self._checked.get(call.id, ())  # what the permission check resolved
        try:
            await precheck(tool, args, ctx)
        except ToolError as exc:
            self._checked.pop(call.id, None)
            return _error(call, f"{call.name} failed: {exc}")
        except Exception:  # a precheck bug must not stop the question
            log.exception("precheck of %s crashed", call.name)
        return None

    def _session_grant(self, tool: Tool, call: ToolUseBlock, verdict: Verdict) -> SessionGrant:
        """What "allow for this session" grants: for an edit the acceptEdits mode would let
        run unasked, that mode (every edit in the project, as Claude Code's "allow all
        edits during this session"); otherwise the suggested rules (Bash: per command)."""
        env = self.env
        if tool.permission_kind != "edit" or verdict.decision != "ask":
            return "rules"
        if env.session.mode != "default":
            return "rules"
        covered = env.gate.decide(tool, call.input, mode="acceptEdits").decision == "allow"
        return "accept_edits" if covered else "rules"

    async def _take_answer(
        self, reply: ev.ApprovalReply, rules: Sequence[str], grant: SessionGrant = "rules"
    ) -> tuple[ev.Decision, str]:
        """The decision a human's answer makes; "allow_session"/"always" grant ``rules``,
        or "allow_session" switches to acceptEdits when that is what was offered."""
        env = self.env
        if reply.answer == "deny":
            feedback = reply.feedback
            return "deny", "the user denied this call" + (f": {feedback}" if feedback else "")
        if reply.answer == "allow_session" and grant == "accept_edits":
            try:
                env.session.set_mode("acceptEdits")
            except MewCodeError as exc:  # this call stays allowed
                await env.emit(ev.Notice(level="warning", message=f"mode not changed: {exc}"))
                return "allow", "allowed once by the user (the mode could not change)"
            await env.emit(ev.ModeChanged(mode="acceptEdits"))
            return "allow", "the user allowed all edits this session (acceptEdits mode)"
        if reply.answer == "allow_session":
            env.gate.grant_session(list(rules))
        elif reply.answer == "allow_always":
            try:
                env.gate.grant_always(list(rules))
            except MewCodeError as exc:  # the call stays allowed for the session
                env.gate.grant_session(list(rules))
                await env.emit(ev.Notice(level="warning", message=f"rule not saved: {exc}"))
        return "allow", {
            "allow_once": "allowed once by the user",
            "allow_session": "allowed for this session by the user",
            "allow_always": "always allowed by the user (rule saved)",
        }[reply.answer]

    async def _recheck(
        self, tool: Tool, call: ToolUseBlock, changed: dict[str, Any]
    ) -> tuple[ToolUseBlock, Any] | ToolResultBlock:
        """An answer changed the call's input: validate it and decide again; a denial wins.

        The answer was to a question about the input shown, so an "ask" on the new input
        is a new question about it (a protected file the answer points at is asked about
        by name); an answer that changes the input again is decided again in turn, at
        most ``MAX_ANSWER_ROUNDS`` questions in all. The blacklist, deny rules, sandbox,
        readable paths and hooks still judge each input, and the tool opens what the
        last check resolved.
        """
        for _ in range(MAX_ANSWER_ROUNDS - 1):
            ran = ToolUseBlock(id=call.id, name=call.name, input=changed)
            try:
                args = tool_arguments(tool, changed)
                summary = tool.summary(args)
            except ToolError as exc:
                reason = f"the input the answer gave is invalid: {call.name}: {exc}"
                await self._tell_decision(
                    ran, "deny", "user", reason, None, "engine", None, changed
                )
                return self._denied(ran, "user", reason)
            verdict = self.env.gate.decide(tool, changed)
            self._checked[call.id] = tuple(getattr(verdict, "checked", ()))
            decision: ev.Decision = verdict.decision
            layer: ev.Layer = verdict.layer
            reason, rule, who, label = verdict.reason, verdict.rule, "engine", None
            hook = await self._hook_verdict(ran, decision)
            if hook is not None:
                decision, reason, label = hook
                layer = who = "hook"
            again: dict[str, Any] | None = None
            if decision == "ask":
                why = f"the approval changed the input: {reason}"
                reply = await self._ask(tool, ran, args, verdict, layer, why)
                layer, who, rule = "user", "user", None
                if reply.answer != "deny" and reply.updated_input not in (None, changed):
                    again = reply.updated_input
                grants = () if again is not None else verdict.suggested_rules
                decision, reason = await self._take_answer(reply, grants)
            elif decision == "allow":
                decision, layer, who = "allow", "user", "user"
                reason, rule = f"allowed with the input the answer gave: {summary}", None
            await self._tell_decision(ran, decision, layer, reason, rule, who, label, changed)
            if decision != "allow":
                return self._denied(ran, layer, reason)
            if again is None:
                await self.env.emit(
                    ev.Notice(
                        level="info",
                        message=f"{call.name}: the approval changed its input: {summary}",
                    )
                )
                return ran, args
            changed = again
        ran = ToolUseBlock(id=call.id, name=call.name, input=changed)
        reason = (
            f"the answers changed the input {MAX_ANSWER_ROUNDS} times; "
            "answer with the input to run, or deny"
        )
        await self._tell_decision(ran, "deny", "user", reason, None, "engine", None, changed)
        return self._denied(ran, "user", reason)

    async def _tell_decision(
        self,
        call: ToolUseBlock,
        decision: ev.Decision,
        layer: ev.Layer,
        reason: str,
        rule: str | None,
        who: str,
        hook: str | None = None,
        changed: dict[str, Any] | None = None,
    ) -> None:
        """The decision on ``call`` (``changed``: its input as an answer changed it): to the
        front end and to the audit log."""
        env = self.env
        facts: dict[str, Any] = {
            "decision": decision,
            "layer": layer,
            "reason": reason,
            "rule": rule,
        }
        await env.emit(ev.PermissionDecision(call_id=call.id, **facts, input=changed))
        if env.audit:
            env.audit.write(
                "decision",
                call_id=call.id,
                tool=call.name,
                **facts,
                who=who,
                **({"hook": hook} if hook is not None else {}),
                **({"input": changed} if changed is not None else {}),
            )

    def _denied(self, call: ToolUseBlock, layer: ev.Layer, reason: str) -> ToolResultBlock:
        """The error result of a call that may not run, recorded among the turn's denials."""
        self.denials.append(
            {"tool_name": call.name, "tool_use_id": call.id, "tool_input": call.input}
        )
        prefix = "Permission denied" if layer != "user" else "Not run"
        return _error(call, f"{prefix} ({layer}): {reason}")

    async def _hook_verdict(
        self, call: ToolUseBlock, decision: ev.Decision
    ) -> tuple[ev.Decision, str, str] | None:
        """PreToolUse hooks after layers 1-4: deny or ask always; allow only skips an ask.

        Returns the decision, its reason and the deciding hook, or None when the hooks
        change nothing. A call the engine denies is not shown to the hooks.
        """
        hooks = self.env.hooks
        if hooks is None or decision == "deny":
            return None
        out = await hooks.before_tool(call)
        if out.blocked:
            return "deny", f"{out.decided_by}: {out.reason}", out.decided_by
        if out.decision == "deny":
            why = out.decision_reason or "denied"
            return "deny", f"{out.decided_by}: {why}", out.decided_by
        if out.stop:
            return "deny", f"the turn was stopped by a hook: {out.stop_reason}", out.decided_by
        if out.decision == "ask":
            why = out.decision_reason or "asks for approval"
            return "ask", f"{out.decided_by}: {why}", out.decided_by
        if out.decision == "allow" and decision == "ask":
            why = out.decision_reason or "allowed"
            return "allow", f"{out.decided_by}: {why}", out.decided_by
        return None

    async def _ask(
        self,
        tool: Tool,
        call: ToolUseBlock,
        args: Any,
        verdict: Verdict,
        layer: ev.Layer,
        reason: str,
        grant: SessionGrant = "rules",
    ) -> ev.ApprovalReply:
        diff = None
        if isinstance(tool, PreviewTool):
            try:
                diff = await tool.preview(args, self.env.contexts.for_call(call.id))
            except Exception:  # a preview is a courtesy; never fatal
                diff = None
        reply = await self._wait_for_human(
            call,
            call.name,
            reason=reason,
            layer=layer,
            suggested_rules=list(verdict.suggested_rules),
            diff=diff,
            session_grant=grant,
        )
        if not isinstance(reply, ev.ApprovalReply):  # the ticket takes only its kind
            return ev.ApprovalReply("deny")
        return reply

    async def _wait_for_human(
        self,
        call: ToolUseBlock,
        detail: str,
        *,
        reason: str,
        layer: ev.Layer,
        suggested_rules: list[str],
        diff: str | None = None,
        kind: Literal["tool", "plan"] = "tool",
        session_grant: SessionGrant = "rules",
    ) -> ev.ApprovalReply | ev.PlanAnswer:
        """Ask the front end about ``call``; wait for its answer by approval id."""
        if self.env.hooks is not None:
            await self.env.hooks.approval_needed(call)
        approval_id, ticket = self.env.approvals.open(kind)
        try:
            await self.env.emit(ev.Status(phase="approval", detail=detail))
            await self.env.emit(
                ev.ApprovalRequested(
                    approval_id=approval_id,
                    call_id=call.id,
                    tool=call.name,
                    input=call.input,
                    reason=reason,
                    layer=layer,
                    suggested_rules=suggested_rules,
                    diff=diff,
                    kind=kind,
                    session_grant=session_grant,
                )
            )
            return await ticket.wait()
        finally:
            self.env.approvals.close(approval_id)

    async def _approve_plan(self, call: ToolUseBlock) -> ToolResultBlock | None:
        env = self.env
        if not env.can_ask:
            return _error(
                call,
                "No one can approve a plan in this non-interactive run: "
                "stop here and give the plan as your final answer.",
            )
        reply = await self._wait_for_human(
            call,
            "plan",
            reason="approve this plan to leave plan mode",
            layer="mode",
            suggested_rules=[],
            kind="plan",
        )
        if not isinstance(reply, ev.PlanAnswer) or reply.choice == "keep_planning":
            note = f" Their feedback: {reply.feedback}" if reply.feedback else ""
            await env.emit(
                ev.PermissionDecision(
                    call_id=call.id,
                    decision="deny",
                    layer="user",
                    reason="the user wants to keep planning",
                )
            )
            return _error(call, "The user did not approve the plan; keep planning." + note)
        mode: Mode = "acceptEdits" if reply.choice == "accept_edits" else "default"
        await env.emit(
            ev.PermissionDecision(
                call_id=call.id,
                decision="allow",
                layer="user",
                reason=f"plan approved; mode is now {mode}",
            )
        )
        env.session.set_mode(mode)
        await env.emit(ev.ModeChanged(mode=mode))
        return None

    async def _finish(
        self, call: ToolUseBlock, result: ToolResultBlock, duration: float
    ) -> ToolResultBlock:
        from agent_core.messages import result_text

        await self.env.emit(
            ev.ToolResult(
                call_id=call.id,
                tool=call.name,
                is_error=result.is_error,
                content=result_text(result)[:PREVIEW_CHARS],
                duration_ms=int(duration * 1000),
            )
        )
        return result
