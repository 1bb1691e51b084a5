"""One MCP server's connection: a long-lived task that holds the SDK client open.

The SDK's client is entered and left in that one task (anyio cancel scopes
must be), and stays open until ``stop``. Calls are made from the callers'
own tasks through ``client``. A stdio server's stderr is appended, redacted,
to ``MEWCODE_HOME/logs/mcp-<server>.log`` (stderr_log.py), never to our
terminal; its last line usually says why a server would not start or died.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import os
import sys
from collections.abc import Callable
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

from agent_core.mcp.model import McpServerSpec, McpToolInfo, ServerState
from agent_core.mcp.stderr_log import StderrLog
from agent_core.mcp.tool_cache import CachedServer

log = logging.getLogger("mewcode.mcp")

LAUNCHER = Path(__file__).with_name("launcher.py")  # run as a script: stdlib only
STOP_TIMEOUT_S = 6.0  # the SDK's stdio shutdown takes at most ~4.5 s (stdin close, TERM, KILL)
MAX_LIST_PAGES = 100  # a server whose pagination never ends cannot hang the start


class McpConnection:
    """One configured server: its state, its live listing and the client while connected."""

    def __init__(
        self,
        spec: McpServerSpec,
        *,
        home: Path,
        startup_timeout_s: float,
        on_change: Callable[[], None],
    ) -> None:
        self.spec = spec
        self.home = home
        self.startup_timeout_s = startup_timeout_s
        self.on_change = on_change
        self.state: ServerState = "pending"
        self.error = ""
        self.listing: CachedServer | None = None  # what the live server listed
        self.client: Any = None  # the SDK Client while connected
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()
        self._stop = asyncio.Event()
        self._timer: asyncio.TimerHandle | None = None
        self._stderr: StderrLog | None = None  # this run's, for a stdio server
        self._unreadable: list[str] = []  # why this run's server sent an answer we could not read

    @property
    def log_path(self) -> Path:
        return self.home / "logs" / f"mcp-{self.spec.name}.log"

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        """Begin connecting in the background; nothing if a run is under way."""
        if self.running:
            return
        loop = asyncio.get_running_loop()
        self._ready = asyncio.Event()
        self._stop = asyncio.Event()
        self._set("connecting", "")
        self._task = loop.create_task(self._serve(), name=f"mcp-{self.spec.name}")
        self._timer = loop.call_later(self.startup_timeout_s, self._startup_expired)

    async def wait_ready(self) -> None:
        """Until this run is connected or has failed (the start-up timer bounds it)."""
        if self.running:
            await self._ready.wait()

    async def stop(self) -> None:
        """End this run: the SDK closes the server's stdin, then kills its process group."""
        task = self._task
        if task is None:
            return
        self._stop.set()
        if self.state == "connecting":
            task.cancel()  # not connected yet: abandon the start (the SDK still cleans up)
        done, _ = await asyncio.wait({task}, timeout=STOP_TIMEOUT_S)
        if not done:
            log.debug("MCP server %s did not stop in time; cancelling", self.spec.name)
            task.cancel()
            await asyncio.wait({task}, timeout=STOP_TIMEOUT_S)
        self._task = None

    def lost(self, reason: str) -> None:
        """A call found the server gone: failed now, whatever the serve task has noticed."""
        if self.state == "connected":
            self._fail(reason)

    async def exit_reason(self, when: str) -> str:
        """Why the server is gone, with the last line it wrote to stderr if any."""
        if self._unreadable:
            return f"MCP server '{self.spec.name}' sent an unreadable answer: {self._unreadable[0]}"
        gone = "exited" if self.spec.transport == "stdio" else "closed the connection"
        text = f"MCP server '{self.spec.name}' {gone} {when}"
        last = await self.last_stderr_line()
        return f"{text}: {last}" if last else text

    async def last_stderr_line(self) -> str:
        """The last non-empty line the server wrote to stderr in this run (once all is in)."""
        if self._stderr is None:
            return ""
        await self._stderr.settled()
        return self._stderr.last_line()

    # -- the serve task -------------------------------------------------------------------

    async def _serve(self) -> None:
        try:
            await self._run()
        except asyncio.CancelledError:
            pass  # stopped, or the start-up timer fired: the state says which
        except Exception as exc:  # any failure of a server is its status, never ours
            log.debug("MCP server %s failed", self.spec.name, exc_info=True)
            if self.state == "connecting":
                self._fail(await self._start_failure(exc))
            else:
                self._fail(one_line(exc))
        finally:
            try:
                self.client = None
                if self._timer is not None:
                    self._timer.cancel()
                if self.state in ("connecting", "connected"):
                    if self._stop.is_set():
                        self._set("closed", "")
                    else:
                        self._fail(await self.exit_reason("unexpectedly"))
                if self._stderr is not None:
                    await self._stderr.settled()  # the server's last words, before we let go
            finally:
                if self._stderr is not None:
                    self._stderr.close()
                self._ready.set()

    async def _run(self) -> None:
        modules = await asyncio.to_thread(_import_sdk)
        eof = asyncio.Event()
        self._unreadable = []
        self._stderr = None
        async with AsyncExitStack() as stack:
            transport = self._transport(stack, modules)
            client_class = modules["mcp.client.client"].Client
            types = modules["mcp_types"]
            client = client_class(
                _eof_signalled(transport, eof, self._unreadable),
                client_info=types.Implementation(name="mewcode", version="0.1"),
            )
            await stack.enter_async_context(client)
            if self._stderr is not None:
                self._stderr.release_writer()  # the server has it now
            listing = await _listing(client)
            if self._timer is not None:
                self._timer.cancel()
            self.client = client
            self.listing = listing
            self._set("connected", "")
            self._ready.set()
            stopped = asyncio.ensure_future(self._stop.wait())
            ended = asyncio.ensure_future(eof.wait())
            try:
                await asyncio.wait({stopped, ended}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                stopped.cancel()
                ended.cancel()
            self.client = None
            if not self._stop.is_set():
                self._fail(await self.exit_reason("unexpectedly"))

    def _transport(self, stack: AsyncExitStack, modules: dict[str, Any]) -> Any:
        spec = self.spec
        if spec.transport == "http":
            http = modules["mcp.shared._httpx_utils"].create_mcp_http_client(
                headers=dict(spec.headers) or None
            )
            stack.push_async_callback(http.aclose)
            return modules["mcp.client.streamable_http"].streamable_http_client(
                spec.url, http_client=http
            )
        stdio = modules["mcp.client.stdio"]
        # Through the launcher: whatever the server starts ends with it, and with us.
        params = stdio.StdioServerParameters(
            command=sys.executable,
            args=["-S", str(LAUNCHER), str(os.getpid()), "--", spec.command, *spec.args],
            env=dict(spec.env) or None,
            cwd=spec.cwd,
            encoding_error_handler="replace",  # a stray byte costs a character, not the answer
        )
        # The values the server is given are secrets the redactor knows, beside ours.
        self._stderr = StderrLog(self.log_path, self.home, {**os.environ, **spec.env})
        return stdio.stdio_client(params, errlog=stack.enter_context(self._stderr.open()))

    async def _start_failure(self, exc: BaseException) -> str:
        leaf = leaf_error(exc)
        if _is_connection_closed(leaf):
            return await self.exit_reason("during start-up")
        if isinstance(leaf, OSError) and self.spec.transport == "stdio":
            return f"cannot run {self.spec.command!r}: {leaf.strerror or leaf}"
        return one_line(leaf)

    def _startup_expired(self) -> None:
        if self.state == "connecting" and self._task is not None:
            self._fail(f"did not start within {self.startup_timeout_s:g} s")
            self._ready.set()
            self._task.cancel()

    def _fail(self, error: str) -> None:
        log.debug("MCP server %s failed: %s", self.spec.name, error)
        self._set("failed", error)

    def _set(self, state: ServerState, error: str) -> None:
        if (state, error) != (self.state, self.error):
            self.state, self.error = state, error
            self.on_change()


def _import_sdk() -> dict[str, Any]:
    """The SDK modules a connection needs (imported in a thread: it takes ~0.5 s)."""
    names = (
        "mcp_types",
        "mcp.client.client",
        "mcp.client.stdio",
        "mcp.client.streamable_http",
        "mcp.shared._httpx_utils",
    )
    sdk_log = logging.getLogger("mcp")
    if not sdk_log.handlers:
        # Without any handler Python prints its warnings (a server's unparsable line, with
        # a traceback) on our stderr, under the UI; they belong in the debug log only.
        sdk_log.addHandler(logging.NullHandler())
    return {name: importlib.import_module(name) for name in names}


async def _listing(client: Any) -> CachedServer:
    """Every tool (all pages) and whether the server offers resources and prompts."""
    tools: list[McpToolInfo] = []
    cursor = None
    for _ in range(MAX_LIST_PAGES):
        page = await client.list_tools(cursor=cursor)
        tools.extend(_tool_info(tool) for tool in page.tools)
        cursor = page.next_cursor
        if not cursor:
            break
    capabilities = client.server_capabilities
    return CachedServer(
        tools=tools,
        resources=capabilities.resources is not None,
        prompts=capabilities.prompts is not None,
    )


def _tool_info(tool: Any) -> McpToolInfo:
    annotations = tool.annotations
    return McpToolInfo(
        name=tool.name,
        description=tool.description or "",
        input_schema=dict(tool.input_schema or {}),
        read_only=bool(annotations is not None and annotations.read_only_hint is True),
        title=tool.title or "",
    )


@asynccontextmanager
async def _eof_signalled(transport: Any, eof: asyncio.Event, unreadable: list[str]) -> Any:
    """The transport, its read stream wrapped to set ``eof`` when the server hangs up."""
    async with transport as (read_stream, write_stream):
        yield _EofSignal(read_stream, eof, unreadable), write_stream


class _EofSignal:
    """A read stream that sets an event at end of stream (the stdio server exited), or
    when the server sent a JSON-RPC message that cannot be read (its caller would wait
    for the answer until the tool timeout): the connection then ends like at EOF."""

    def __init__(self, inner: Any, eof: asyncio.Event, unreadable: list[str]) -> None:
        self._inner = inner
        self._eof = eof
        self._unreadable = unreadable

    @property
    def last_context(self) -> Any:
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> Any:
        import anyio

        try:
            item = await self._inner.receive()
        except anyio.EndOfStream:
            self._eof.set()
            raise
        problem = _lost_message(item)
        if problem:
            self._unreadable.append(problem)
            self._eof.set()
            raise anyio.EndOfStream
        return item

    async def aclose(self) -> None:
        await self._inner.aclose()

    def __aiter__(self) -> _EofSignal:
        return self

    async def __anext__(self) -> Any:
        import anyio

        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    async def __aenter__(self) -> _EofSignal:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


def _lost_message(item: Any) -> str:
    """Why a line the SDK could not parse was a JSON-RPC message (a lost answer), or ""
    for anything else: a banner or log line a server prints to stdout is ignored."""
    if not isinstance(item, Exception):
        return ""
    errors = getattr(item, "errors", None)
    try:
        first = errors()[0] if callable(errors) else {}
    except (IndexError, TypeError):
        return ""
    text = first.get("input")
    if not isinstance(text, str) or '"jsonrpc"' not in text[:200]:
        return ""
    return str(first.get("msg", "not a valid JSON-RPC message"))[:200]


def leaf_error(exc: BaseException) -> BaseException:
    """The first real error inside (nested) exception groups."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def _is_connection_closed(exc: BaseException) -> bool:
    from mcp.shared.exceptions import MCPError
    from mcp_types import CONNECTION_CLOSED

    return isinstance(exc, MCPError) and exc.code == CONNECTION_CLOSED


def one_line(exc: BaseException) -> str:
    leaf = leaf_error(exc)
    text = " ".join(str(leaf).split()) or type(leaf).__name__
    return text[:300]
