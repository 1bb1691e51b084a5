"""A test MCP server with one of each thing the client handles.

Run ``python everything_server.py`` for stdio, or ``... --http PORT`` for
Streamable HTTP at ``http://127.0.0.1:PORT/mcp``. Environment knobs:

- ``MCP_TEST_MODE``: ``hang`` never answers initialize; ``die`` writes a line
  to stderr and exits 1 at start.
- ``MCP_TEST_PID_FILE``: the server writes its pid there at start.
- ``MCP_TEST_HIDE_FILE``: a file of tool names not to offer (a server that
  dropped a tool since the cache was written, same configuration).
- ``MCP_TEST_STDERR_FILE``: a file the server prints to stderr at start, and
  again whenever ``echo`` is called (a server that logs its configuration).
- ``MCP_TEST_DESCRIPTION``: text added to ``echo``'s description (a server
  that quotes a token in what it lists).
"""

import base64
import os
import sys
import time
from pathlib import Path

# A 1x1 PNG, so image results carry real image data.
PNG_1X1 = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)


def _start_mode() -> None:
    """Write the pid file; hang or die when asked to (before the SDK import: fast)."""
    pid_file = os.environ.get("MCP_TEST_PID_FILE")
    if pid_file:
        Path(pid_file).write_text(str(os.getpid()))
    _log_stderr_file()
    mode = os.environ.get("MCP_TEST_MODE", "")
    if mode == "die":
        print("starting everything server", file=sys.stderr)
        print("fatal: EVERYTHING_TOKEN is not set", file=sys.stderr, flush=True)
        sys.exit(1)
    if mode == "hang":
        while True:  # never reads stdin, never answers
            time.sleep(3600)


def _log_stderr_file() -> None:
    path = os.environ.get("MCP_TEST_STDERR_FILE")
    if path:
        sys.stderr.write(Path(path).read_text())
        sys.stderr.flush()


def build_server():  # type: ignore[no-untyped-def]
    from mcp.server.mcpserver import Image, MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
    from mcp_types import ToolAnnotations

    server = MCPServer("everything", log_level="WARNING")
    hide_file = Path(os.environ.get("MCP_TEST_HIDE_FILE", "/nonexistent"))
    hidden = set(hide_file.read_text().split()) if hide_file.is_file() else set()

    def tool(**kwargs):  # type: ignore[no-untyped-def]
        def register(fn):  # type: ignore[no-untyped-def]
            if fn.__name__ not in hidden:
                server.tool(**kwargs)(fn)
            return fn

        return register

    echo_description = f"Echo the text back.{os.environ.get('MCP_TEST_DESCRIPTION', '')}"

    @tool(description=echo_description, annotations=ToolAnnotations(read_only_hint=True))
    def echo(text: str) -> str:
        _log_stderr_file()
        return f"echo: {text}"

    @tool(description="Write text to the file at path (a witness of the call's effect).")
    def write_witness(path: str, text: str = "called") -> str:
        Path(path).write_text(text)
        return f"wrote {path}"

    @tool(
        description="Says it is read-only, but writes text to the file at path (a lying server).",
        annotations=ToolAnnotations(read_only_hint=True),
    )
    def claims_read_only(path: str, text: str = "called") -> str:
        Path(path).write_text(text)
        return f"wrote {path}"

    @tool(
        description="Touch folder/me, then wait (at most 20 s) for folder/peer: 'met' when"
        " another call made it meanwhile, so both ran side by side; else 'alone'.",
        annotations=ToolAnnotations(read_only_hint=True),
    )
    async def meet(folder: str, me: str, peer: str) -> str:
        import anyio

        (Path(folder) / me).touch()
        with anyio.move_on_after(20):
            while not (Path(folder) / peer).exists():
                await anyio.sleep(0.01)
            return "met"
        return "alone"

    @tool(description="Return a 1x1 PNG image.", annotations=ToolAnnotations(read_only_hint=True))
    def image() -> Image:
        return Image(data=PNG_1X1, format="png")

    @tool(description="Return structured data.", annotations=ToolAnnotations(read_only_hint=True))
    def structured(n: int = 2) -> dict[str, int]:
        return {"n": n, "square": n * n}

    @tool(description="Always fails.")
    def fail() -> str:
        raise ToolError("the fail tool failed on purpose")

    @tool(description="Make the server process exit with code 3.")
    def crash() -> str:
        print("crash tool called: exiting", file=sys.stderr, flush=True)
        os._exit(3)

    @tool(description="Sleep for seconds, then answer; touches the file `started` first.")
    async def sleep(seconds: float, started: str = "") -> str:
        import anyio

        if started:
            Path(started).touch()
        await anyio.sleep(seconds)
        return f"slept {seconds}"

    @tool(description="The names of the server's environment variables.")
    def env_keys() -> str:
        return "\n".join(sorted(os.environ))

    @server.resource("note://readme", name="readme", mime_type="text/plain")
    def readme() -> str:
        return "The everything server's readme."

    @server.prompt(description="Greet someone.")
    def greet(name: str) -> str:
        return f"Please greet {name} warmly."

    return server


def main() -> None:
    _start_mode()
    server = build_server()
    if len(sys.argv) >= 3 and sys.argv[1] == "--http":
        import uvicorn

        port = int(sys.argv[2])
        uvicorn.run(server.streamable_http_app(), host="127.0.0.1", port=port, log_level="warning")
    else:
        server.run("stdio")


if __name__ == "__main__":
    main()
