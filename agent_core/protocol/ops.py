"""What a front end asks of a session: one tagged msgspec Struct per kind of request.

Each op carries an ``id``; ``submit`` fills a fresh one when it is empty and every
op is answered by an event carrying that id: ``TurnCompleted`` (a user turn, whose
turn id is the op id), a query's result, ``OpDone`` or ``OpRefused``. A new op is
a class here, its place in ``AnyOp`` and a case in ``SessionHost``'s dispatch
(tests/unit/test_protocol_ops.py fails on a forgotten step).
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from agent_core.events import ApprovalAnswer, RuleEntry
from agent_core.events import PlanChoice as PlanChoice
from agent_core.hooks.remote import RemoteHook
from agent_core.messages import ImageBlock
from agent_core.modes import Mode

Decision = ApprovalAnswer  # allow_once | allow_session | allow_always | deny


class Op(msgspec.Struct, tag_field="op", kw_only=True):
    """The base of every op: an id the answer carries ("" asks ``submit`` for one)."""

    id: str = ""


class UserTurn(Op, tag="user_turn"):
    """Run one turn with this prompt and these images (inline base64: a front end may
    hold bytes, not files); see agent_core/agent/turn_images.py for what is accepted."""

    text: str
    attachments: list[ImageBlock] = []
    shown: str = ""  # what the user typed, when ``text`` is its expansion ("/review")


SHELL_CALL_PREFIX = "shell_"  # a ShellCommand runs as the Bash call "shell_<op id>"


def is_shell_call(call_id: str) -> bool:
    """Whether ``call_id`` is a command the user typed (``!``), not the model's call."""
    return call_id.startswith(SHELL_CALL_PREFIX)


class ShellCommand(Op, tag="shell_command"):
    """Run a command the user typed (a ``!`` prompt) as a Bash call, permission decided as
    for the model's; its input and output join the history. Answered like a user turn."""

    command: str


class Interrupt(Op, tag="interrupt"):
    """Cancel the running turn; its history stays valid for the next one."""


class ApprovalReply(Op, tag="approval_reply"):
    """Answer an ``ApprovalRequested`` of kind "tool"; the first answer wins."""

    approval_id: str
    decision: Decision
    feedback: str = ""  # what the model is told (with a denial, why)
    updated_input: dict[str, Any] | None = None  # run the call with this input instead


class PlanReply(Op, tag="plan_reply"):
    """Answer an ``ApprovalRequested`` of kind "plan": leave plan mode into a mode, or not."""

    approval_id: str
    choice: PlanChoice
    feedback: str = ""


class SetMode(Op, tag="set_mode"):
    mode: Mode


class SetModel(Op, tag="set_model"):
    model: str
    provider: str | None = None  # None: the current provider


class Compact(Op, tag="compact"):
    instructions: str = ""


class NewSession(Op, tag="new_session"):
    pass


class Resume(Op, tag="resume"):
    session_id: str


class Fork(Op, tag="fork"):
    """Continue in a new session holding a copy of ``session_id``'s history (None: this one)."""

    session_id: str | None = None


class ListSessions(Op, tag="list_sessions"):
    pass


class QueryMemory(Op, tag="query_memory"):
    search: str = ""  # "" lists every fact


class RememberFact(Op, tag="remember_fact"):
    """Store a fact the user wrote (answered by ``FactRemembered``)."""

    text: str
    scope: Literal["project", "global"] = "project"


class ForgetFact(Op, tag="forget_fact"):
    """Delete a fact of this project or the global scope (answered by ``FactForgotten``)."""

    fact_id: int


class ListRules(Op, tag="list_rules"):
    pass


class RemoveRule(Op, tag="remove_rule"):
    """Remove one rule a ``RuleList`` named, from its file or the session."""

    rule: RuleEntry


class QueryContext(Op, tag="query_context"):
    pass


class QueryHistory(Op, tag="query_history"):
    """The session's history as a reader sees it (to show a resumed or forked session)."""


class QueryDiff(Op, tag="query_diff"):
    """The uncommitted changes against HEAD, for a review prompt (cut to ``max_chars``)."""

    max_chars: int = 60_000


class QueryCommands(Op, tag="query_commands"):
    pass


class QuerySkills(Op, tag="query_skills"):
    pass


class QueryHooks(Op, tag="query_hooks"):
    pass


class QueryMcp(Op, tag="query_mcp"):
    pass


class ReconnectMcp(Op, tag="reconnect_mcp"):
    name: str


class RegisterHooks(Op, tag="register_hooks"):
    """Run these callbacks of the front end as hooks (each fires a ``HookCallbackRequested``)."""

    hooks: list[RemoteHook]


class HookCallbackReply(Op, tag="hook_callback_reply"):
    """The front end ran a hook callback: its output (a hook's JSON), or why it failed."""

    request_id: str
    output: dict[str, Any] = {}
    error: str = ""


class QueryConfig(Op, tag="query_config"):
    """The merged settings, each value with the file it came from (answered by ``SettingsReport``)."""

    reread: bool = False  # the files as they are now (after an edit), not the ones in force


class AddDirectory(Op, tag="add_directory"):
    """Let the session read and edit in one more folder, as ``--add-dir`` does
    (relative to the session's directory; answered by ``DirectoryAdded``)."""

    path: str


class QueryDoctor(Op, tag="query_doctor"):
    """Provider, key source, sandbox, MCP servers and hooks, each with what to do
    when it is wrong (answered by ``DoctorReport``)."""


class QueryModels(Op, tag="query_models"):
    """The models the catalog knows for the session's provider (answered by ``ModelList``)."""


class QueryShells(Op, tag="query_shells"):
    """The session's background shells with their last lines (answered by ``ShellList``)."""


class StopShell(Op, tag="stop_shell"):
    """Kill a background shell and what it started (answered by ``ShellList``, after)."""

    shell_id: str


AnyOp = (
    UserTurn
    | ShellCommand
    | Interrupt
    | ApprovalReply
    | PlanReply
    | SetMode
    | SetModel
    | Compact
    | NewSession
    | Resume
    | Fork
    | ListSessions
    | QueryMemory
    | RememberFact
    | ForgetFact
    | ListRules
    | RemoveRule
    | QueryContext
    | QueryHistory
    | QueryDiff
    | QueryCommands
    | QuerySkills
    | QueryHooks
    | QueryMcp
    | ReconnectMcp
    | RegisterHooks
    | HookCallbackReply
    | QueryConfig
    | AddDirectory
    | QueryDoctor
    | QueryModels
    | QueryShells
    | StopShell
)

_decoder = msgspec.json.Decoder(AnyOp)
_encoder = msgspec.json.Encoder()


def decode_op(data: bytes | str) -> AnyOp:
    """An op from its JSON; raises msgspec.ValidationError naming the bad field."""
    return _decoder.decode(data)


def encode_op(op: Op) -> bytes:
    return _encoder.encode(op)


def op_tag(op: Op) -> str:
    """The op's wire tag ("user_turn"...), as refusals and ``OpDone`` name it."""
    return str(type(op).__struct_config__.tag)
