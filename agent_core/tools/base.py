"""The Tool protocol, the context a tool runs in, and what it returns.

Each tool declares its parameters as a msgspec Struct: the same Struct gives
the JSON Schema offered to the model and validates the model's input, so a
bad argument becomes an error result naming the field.
"""

from __future__ import annotations

import asyncio
import functools
import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal, NamedTuple, Protocol, runtime_checkable

import msgspec

from agent_core.messages import ImageBlock, TextBlock

if TYPE_CHECKING:
    from agent_core.tools.session_state import SessionToolState

# What the permission engine needs to know about a tool's effect; "read" and "edit" are the
# families that Read(path) and Edit(path) rules cover.
PermissionKind = Literal["read", "edit", "bash", "web", "other"]
# Plan mode offers the read-only tools, hides the ones with effects, and offers the tool that
# leaves it (ExitPlanMode) only there.
PlanMode = Literal["offered", "hidden", "only"]


class ToolOutput(msgspec.Struct):
    content: str | list[TextBlock | ImageBlock]
    is_error: bool = False


class ToolError(Exception):
    """Raised by a tool for an expected failure; becomes an error result."""


@dataclass
class FileStamp:
    """When a file was last read or written by the agent, and its mtime then."""

    mtime_ns: int
    size: int


def _fresh_state() -> SessionToolState:
    # Imported here: session_state needs the shell registry, which imports this module.
    from agent_core.tools.session_state import SessionToolState

    return SessionToolState()


@dataclass
class ToolContext:
    """Everything a tool may use; passed in, never global."""

    cwd: Path  # project root
    session_dir: Path  # holds tool-results/ and other per-session files
    call_id: str = ""
    emit: Callable[[Any], Awaitable[None]] | None = None  # send an event (file.diff...)
    file_stamps: dict[str, FileStamp] = field(default_factory=dict)
    cancel: asyncio.Event = field(default_factory=asyncio.Event)
    state: SessionToolState = field(default_factory=_fresh_state)  # shared per session
    # (resolved path, root) the permission check looked at for this call; see target().
    checked: tuple[tuple[str, str], ...] = ()

    def resolve(self, path: str) -> Path:
        p = Path(path).expanduser()
        return p if p.is_absolute() else (self.cwd / p)

    def target(self, path: str) -> CheckedPath:
        """The file a file tool must open for ``path``: the one the permission check
        resolved (symlinks followed then) and the root that holds it; opened with no
        symlink allowed, a link swapped in since fails instead of leading elsewhere.
        Without a check (a tool run directly), the path is resolved now."""
        if self.checked:
            real, root = self.checked[0]
            return CheckedPath(real, root)
        real = os.path.realpath(self.resolve(path))
        cwd = os.path.realpath(self.cwd)
        root = cwd if real == cwd or real.startswith(cwd.rstrip("/") + "/") else "/"
        return CheckedPath(real, root)


class CheckedPath(NamedTuple):
    """A symlink-free absolute path and the root it is opened beneath."""

    path: str
    root: str


class Tool(Protocol):
    """One built-in (or MCP) tool."""

    name: ClassVar[str]
    description: ClassVar[str]
    params: ClassVar[type[msgspec.Struct]]
    read_only: ClassVar[bool]
    permission_kind: ClassVar[PermissionKind]
    # The input field a rule's specifier is matched against: the path for read and edit
    # tools, the URL, the command; None when rules name the tool alone.
    rule_field: ClassVar[str | None]
    plan_mode: ClassVar[PlanMode]

    def summary(self, args: Any) -> str:
        """A short one-line description of a call, for the UI."""
        ...

    async def run(self, args: Any, ctx: ToolContext) -> ToolOutput: ...


def read_only_trusted(tool: Tool) -> bool:
    """Whether a tool's ``read_only`` flag may let it run unasked: MewCode's own tools know
    what they do; an MCP server's readOnlyHint is only its word unless the user trusts it
    (``read_only_trusted`` on the tool's class, set from the server's configuration)."""
    return bool(getattr(tool, "read_only_trusted", True))


@runtime_checkable
class PreviewTool(Tool, Protocol):
    """A tool that can show the diff of a call before it runs (for the approval dialog)."""

    async def preview(self, args: Any, ctx: ToolContext) -> str | None: ...


@runtime_checkable
class PrecheckTool(Tool, Protocol):
    """A tool that can tell, reading only, that a call would fail, before anyone is asked
    to approve it (an edit of a file not read, an old_string not found)."""

    async def precheck(self, args: Any, ctx: ToolContext) -> None:
        """Raise the ToolError ``run`` would fail with; change nothing."""
        ...


async def precheck(tool: Tool, args: Any, ctx: ToolContext) -> None:
    """The read-only check before a call's approval: the tool's own, or none (the default).

    It never replaces the check at run time: the file can change while the user decides.
    """
    if isinstance(tool, PrecheckTool):
        await tool.precheck(args, ctx)


@runtime_checkable
class SchemaTool(Tool, Protocol):
    """A tool described by JSON Schema data (an MCP server's), not by a params Struct.

    Its ``params`` is not used: the schema is offered as is, and ``check_input``
    turns the model's input into the arguments ``run`` takes.
    """

    json_schema: ClassVar[dict[str, Any]]

    def check_input(self, raw: dict[str, Any]) -> Any:
        """The arguments to run with; raises ToolError naming what is wrong."""
        ...


def tool_arguments(tool: Tool, raw: dict[str, Any]) -> Any:
    """The model's input checked against what ``tool`` declares; raises ToolError."""
    if isinstance(tool, SchemaTool):
        return tool.check_input(raw)
    return validate_input(tool.params, raw)


def tool_schema(tool: Tool) -> dict[str, Any]:
    """The JSON Schema offered to the model for ``tool``."""
    if isinstance(tool, SchemaTool):
        return tool.json_schema
    return input_schema(tool.params)


@functools.cache
def input_schema(params: type[msgspec.Struct]) -> dict[str, Any]:
    """The inline JSON Schema for a params Struct (no $defs/$ref at the top); computed once."""
    schema = msgspec.json.schema(params)
    defs = schema.pop("$defs", {})
    ref = schema.get("$ref")
    if ref:
        schema = dict(defs[ref.rsplit("/", 1)[-1]])
    if defs and _has_ref(schema):
        schema["$defs"] = defs
    schema.pop("title", None)
    return schema


def _has_ref(node: Any) -> bool:
    if isinstance(node, dict):
        return "$ref" in node or any(_has_ref(v) for v in node.values())
    if isinstance(node, list):
        return any(_has_ref(v) for v in node)
    return False


def validate_input(params: type[msgspec.Struct], raw: dict[str, Any]) -> Any:
    """Convert raw model input to the params Struct; raises ToolError naming the field."""
    try:
        return msgspec.convert(raw, params, strict=False)
    except msgspec.ValidationError as exc:
        raise ToolError(f"invalid input: {exc}") from None
