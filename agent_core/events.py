"""The one event vocabulary every front end consumes (docs/protocol.md).

Each event is a msgspec Struct tagged by ``type``. Turn events come from the
loop; session events (opened, mode and model changes, MCP states, refused ops,
query results) come from the session host. An ``ApprovalRequested`` is answered
by id through the session (an ``approval_reply`` or ``plan_reply`` op); the
runtime keeps the request's ticket itself.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from agent_core.config.settings_model import RuleEntry as RuleEntry  # re-exported: rules.list
from agent_core.decision import Decision as Decision  # re-exported: events name it
from agent_core.mcp.model import McpServerStatus as McpServerStatus  # re-exported: mcp.*
from agent_core.messages import Message
from agent_core.modes import Mode
from agent_core.session.records import CallViewRecord as CallViewRecord  # history.report
from agent_core.session.records import TurnEndRecord as TurnEndRecord
from agent_core.usage import Usage

Layer = Literal["blacklist", "sandbox", "rules", "mode", "user", "hook", "session"]
ApprovalAnswer = Literal["allow_once", "allow_session", "allow_always", "deny"]
PlanChoice = Literal["accept_edits", "default", "keep_planning"]
StopReason = Literal[
    "end_turn", "max_iterations", "max_budget", "hallucinated_tools", "cancelled", "error"
]
Phase = Literal["thinking", "streaming", "tool", "approval", "idle"]


class ApprovalReply(msgspec.Struct, frozen=True):
    """A tool call's answer: run it (once, for the session, always) or not, and why."""

    answer: ApprovalAnswer
    feedback: str = ""
    # Run the call with this input instead; it is validated and its permission decided
    # again before it runs (a denial of the new input wins over the answer).
    updated_input: dict[str, Any] | None = None


class PlanAnswer(msgspec.Struct, frozen=True):
    """A plan's answer: leave plan mode into acceptEdits or default, or keep planning."""

    choice: PlanChoice
    feedback: str = ""  # with keep_planning, what to change


class _Event(msgspec.Struct, tag_field="type", kw_only=True, omit_defaults=False):
    pass


class AttachedFile(msgspec.Struct, frozen=True):
    """A file an @-mention attached to the prompt: its path, size, and bytes sent."""

    path: str
    size: int
    shown: int


class TurnStarted(_Event, tag="turn.started"):
    turn_id: str
    input: str
    attachments: list[AttachedFile] = []


class MessageDelta(_Event, tag="message.delta"):
    text: str


class ThinkingDelta(_Event, tag="thinking.delta"):
    text: str


class AssistantMessage(_Event, tag="assistant.message"):
    """A complete assistant message (text + tool uses) once its stream ended."""

    content: list[dict[str, Any]]
    usage: Usage


class ToolCall(_Event, tag="tool.call"):
    call_id: str
    tool: str
    input: dict[str, Any]
    read_only: bool
    summary: str


class PermissionDecision(_Event, tag="permission.decision"):
    call_id: str
    decision: Decision
    layer: Layer
    reason: str
    rule: str | None = None
    # The input the call runs with when an approval's answer changed it (None: the
    # ToolCall's): a decision on the changed input follows the one on the asked input.
    input: dict[str, Any] | None = None


class ApprovalRequested(_Event, tag="approval.requested"):
    """A call waits for a human; ``kind`` "plan" is a plan to approve (leaving plan mode)."""

    approval_id: str
    call_id: str
    tool: str
    input: dict[str, Any]
    reason: str
    layer: Layer
    suggested_rules: list[str]
    diff: str | None = None
    kind: Literal["tool", "plan"] = "tool"
    # What answering "allow_session" grants: the suggested rules for this session, or
    # ("accept_edits", offered for an edit that mode would let run) the acceptEdits mode.
    session_grant: Literal["rules", "accept_edits"] = "rules"


class ToolResult(_Event, tag="tool.result"):
    call_id: str
    tool: str
    is_error: bool
    content: str  # preview
    duration_ms: int


class ToolOutputUpdate(_Event, tag="tool.output"):
    """What a running call has printed so far: its last lines, bounded, sent a few times
    a second while it runs. ``shell_id`` names the background shell the lines are from
    (a BashOutput call). With ``final``, ``text`` is the output the model got from a call
    that was interrupted (no ``tool.result`` follows such a call)."""

    call_id: str
    text: str
    total_chars: int
    shell_id: str = ""
    final: bool = False


class FileDiff(_Event, tag="file.diff"):
    call_id: str
    path: str
    diff: str
    added: int
    removed: int


class Diagnostics(_Event, tag="diagnostics"):
    path: str
    items: list[str]


class UsageUpdate(_Event, tag="usage"):
    input_tokens: int
    output_tokens: int
    cache_read_tokens: int
    cache_write_tokens: int
    cost_usd: float
    context_tokens: int
    context_window: int


class Compaction(_Event, tag="compaction"):
    """The history got smaller; a summary asked for with a ``compact`` op carries its id."""

    layer: Literal["spill", "summary"]
    tokens_before: int
    tokens_after: int
    note: str = ""
    summarised_messages: int = 0
    op_id: str = ""


class Status(_Event, tag="status"):
    phase: Phase
    detail: str = ""


class ModeChanged(_Event, tag="mode.changed"):
    mode: Mode


class TodoUpdate(_Event, tag="todo.update"):
    todos: list[dict[str, Any]]


class TurnCompleted(_Event, tag="turn.completed"):
    turn_id: str
    stop_reason: StopReason
    final_text: str
    iterations: int
    usage: Usage
    cost_usd: float = 0.0
    error: str | None = None


class Error(_Event, tag="error"):
    kind: str
    message: str


class Notice(_Event, tag="notice"):
    """A warning or information line for the user (bad settings, retries...)."""

    level: Literal["info", "warning"]
    message: str


# --- session events: news between and beside turns ---------------------------------


class SessionOpened(_Event, tag="session.opened"):
    """The session the ops now act on; ``op_id`` is the op that opened it ("" at start)."""

    session_id: str
    how: Literal["new", "resumed", "forked"]
    forked_from: str = ""
    op_id: str = ""


class ModelChanged(_Event, tag="model.changed"):
    model: str
    provider: str
    context_window: int
    op_id: str = ""


class McpServerChanged(_Event, tag="mcp.server"):
    """One MCP server's state now (it connected, failed, was restarted...)."""

    server: McpServerStatus


class OpRefused(_Event, tag="op.refused"):
    """An op that cannot run now or at all, and why (one line)."""

    op_id: str
    op: str  # its tag
    reason: str


class HookCallbackRequested(_Event, tag="hook.callback"):
    """A hook the front end registered fires: answer with a ``HookCallbackReply`` op."""

    request_id: str
    callback_id: str
    input: dict[str, Any]
    tool_use_id: str | None = None


class OpDone(_Event, tag="op.done"):
    """An op without a result of its own has been carried out."""

    op_id: str
    op: str


class SessionSummary(msgspec.Struct, frozen=True):
    """One saved session as a picker shows it."""

    session_id: str
    first_prompt: str
    modified: float  # seconds since the epoch
    message_count: int
    size_bytes: int = 0


class SessionList(_Event, tag="sessions.list"):
    op_id: str
    sessions: list[SessionSummary]


class MemoryFileInfo(msgspec.Struct, frozen=True):
    path: str
    label: str
    imported_by: str = ""


class FactInfo(msgspec.Struct, frozen=True):
    id: int
    scope: Literal["project", "global"]
    content: str
    expires_at: float | None = None


class MemoryReport(_Event, tag="memory.report"):
    """The memory files that load and the remembered facts (those matching ``search``)."""

    op_id: str
    files: list[MemoryFileInfo]
    facts: list[FactInfo]
    search: str = ""
    problems: list[str] = []  # why the facts could not be read (memory off...)
    store: str = ""  # the facts' file (MEWCODE_HOME/memory.db)
    skipped: list[str] = []  # imports of the memory files not followed, and why


class FactRemembered(_Event, tag="memory.remembered"):
    """A fact the user stored: its id, whether it is new, whether a secret was redacted."""

    op_id: str
    fact_id: int
    scope: Literal["project", "global"]
    new: bool
    redacted: bool = False


class FactForgotten(_Event, tag="memory.forgotten"):
    """``deleted`` is False when no fact of this project or the global scope has the id."""

    op_id: str
    fact_id: int
    deleted: bool


class SkillInfo(msgspec.Struct, frozen=True):
    name: str
    description: str
    path: str
    layer: str


class SkillList(_Event, tag="skills.list"):
    op_id: str
    skills: list[SkillInfo]
    problems: list[str] = []
    folders: list[str] = []  # where a new skill's folder goes: the user's, the project's


class HookInfo(msgspec.Struct, frozen=True):
    """One configured hook command as a list shows it; ``source`` is its file, shown short."""

    event: str
    matcher: str
    command: str
    timeout_s: float
    source: str


class HookList(_Event, tag="hooks.list"):
    """The hooks in the order their events happen: those that run and those waiting for trust."""

    op_id: str
    active: list[HookInfo]
    waiting_for_trust: list[HookInfo]
    problems: list[str] = []


class RuleList(_Event, tag="rules.list"):
    """Every permission rule in force, in the order they are checked, with its file."""

    op_id: str
    rules: list[RuleEntry]


class RuleRemoved(_Event, tag="rules.removed"):
    """``removed`` is False when the rule was no longer in its file (or the session's)."""

    op_id: str
    rule: RuleEntry
    removed: bool


class ContextReport(_Event, tag="context.report"):
    """What fills the context window: estimated tokens by category, the window, the budget."""

    op_id: str
    breakdown: dict[str, int]


class DiffReport(_Event, tag="diff.report"):
    """The working tree's changes against HEAD (git run contained), or why there are none.

    ``problem`` is set when git could not give a diff; ``cut`` when ``diff`` was cut to
    the op's ``max_chars``.
    """

    op_id: str
    diff: str = ""
    problem: str = ""
    cut: bool = False


class ShellRun(msgspec.Struct, frozen=True):
    """A command the user ran with ``!``, as its message in the history tells it: the
    command, its output (or why it did not run), and how its call looked live, if saved."""

    command: str
    output: str
    ran: bool
    call: CallViewRecord | None = None


class HistoryItem(msgspec.Struct, frozen=True):
    """One message of the history as a reader sees it.

    ``shown_as`` is "summary" for the summary a compaction put first and "summary_ack"
    for the model's reply to it; a user message's ``words`` are its own text, without
    the files an @-mention attached (those are ``attached``). A ``!`` command's message
    is "shell", told in ``shell``, and the assistant's note after it "shell_ack".
    """

    message: Message
    shown_as: Literal["message", "summary", "summary_ack", "shell", "shell_ack"] = "message"
    words: list[str] = []
    attached: list[AttachedFile] = []
    shell: ShellRun | None = None


class HistoryReport(_Event, tag="history.report"):
    """The session's history to show (a resume): each message, and what the live view
    showed beyond the messages: each call's ending by call id, and the turns that
    stopped early by how many messages came before the stop."""

    op_id: str
    items: list[HistoryItem]
    calls: dict[str, CallViewRecord] = {}
    turn_ends: dict[int, TurnEndRecord] = {}


class CommandInfo(msgspec.Struct, frozen=True):
    """One custom command: what completion and /help show, and the body it expands."""

    name: str
    description: str
    argument_hint: str
    source: str  # its file
    body: str


class CommandList(_Event, tag="commands.list"):
    """The custom commands (later folders won a name) and what their files did not get."""

    op_id: str
    commands: list[CommandInfo]
    notices: list[str] = []


class McpServerList(_Event, tag="mcp.list"):
    op_id: str
    servers: list[McpServerStatus]


class AnswerRestarted(_Event, tag="answer.restarted"):
    """The stream failed mid-answer and the request is sent again after ``delay_s``: the
    text and thinking streamed since this round's answer began are void (a front end
    removes them; the history never held them), and the answer streams again from its
    start. ``message`` says why, e.g. "the connection dropped mid-answer, retrying in 2 s"."""

    message: str
    delay_s: float


class SettingValue(msgspec.Struct, frozen=True):
    """One merged setting as /config shows it: a dotted key, its value as text, its source
    (a file, "command line", or "this session")."""

    key: str
    value: str
    source: str


class SettingsFileInfo(msgspec.Struct, frozen=True):
    """One settings file in merge order: whether it exists and how much of it applies
    ("user", "project", "project, stricter parts only until trusted")."""

    path: str
    exists: bool
    applies: str


class SettingsReport(_Event, tag="settings.report"):
    """The settings in force with their sources, the files read and the user's own file."""

    op_id: str
    values: list[SettingValue]
    files: list[SettingsFileInfo]
    user_file: str
    problems: list[str] = []


class DirectoryAdded(_Event, tag="directory.added"):
    """A folder the session may now read and edit in (absolute); ``new`` is False when it
    was one already."""

    op_id: str
    path: str
    new: bool


class DoctorCheck(msgspec.Struct, frozen=True):
    """One line of /doctor: what was checked, how it stands, and what to do when it is wrong."""

    topic: str
    state: Literal["ok", "warning", "error"]
    detail: str
    fix: str = ""


class DoctorReport(_Event, tag="doctor.report"):
    op_id: str
    checks: list[DoctorCheck]


class ModelChoice(msgspec.Struct, frozen=True):
    """A model the catalog knows: its name, context window and prices per million tokens."""

    model: str
    context_window: int
    input_usd: float = 0.0
    output_usd: float = 0.0


class ModelList(_Event, tag="models.list"):
    """The catalog's models for ``provider``, the current one named in ``current``."""

    op_id: str
    provider: str
    current: str
    models: list[ModelChoice]


class ShellInfo(msgspec.Struct, frozen=True):
    """A background shell: its id, command, state and its last lines (redacted, bounded)."""

    shell_id: str
    command: str
    status: str  # "running (12 s)", "exited 0", "killed"
    running: bool
    output: str
    total_chars: int


class ShellList(_Event, tag="shells.list"):
    """The session's background shells, oldest first."""

    op_id: str
    shells: list[ShellInfo]


Event = (
    TurnStarted
    | MessageDelta
    | ThinkingDelta
    | AnswerRestarted
    | AssistantMessage
    | ToolCall
    | PermissionDecision
    | ApprovalRequested
    | ToolResult
    | ToolOutputUpdate
    | FileDiff
    | Diagnostics
    | UsageUpdate
    | Compaction
    | Status
    | ModeChanged
    | TodoUpdate
    | TurnCompleted
    | Error
    | Notice
    | SessionOpened
    | ModelChanged
    | McpServerChanged
    | OpRefused
    | OpDone
    | HookCallbackRequested
    | SessionList
    | MemoryReport
    | SkillList
    | HookList
    | McpServerList
    | FactRemembered
    | FactForgotten
    | RuleList
    | RuleRemoved
    | ContextReport
    | DiffReport
    | CommandList
    | HistoryReport
    | SettingsReport
    | DirectoryAdded
    | DoctorReport
    | ModelList
    | ShellList
)


_encoder = msgspec.json.Encoder()


def encode_event(event: Event) -> bytes:
    """JSON bytes for an event."""
    return _encoder.encode(event)


def event_to_dict(event: Event) -> dict[str, Any]:
    return msgspec.json.decode(encode_event(event))
