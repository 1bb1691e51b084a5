"""WebFetch against a local http.server: HTML to text, caps, redirects, errors, bad schemes."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from agent_core.net.web_access import WebAccess
from agent_core.tools import webfetch
from agent_core.tools.base import ToolContext, ToolError, validate_input
from agent_core.tools.webfetch import WebFetchParams, WebFetchTool

PAGE = b"""<!doctype html><html><head><title>Cats &amp; Dogs</title>
<style>.x{color:red}</style><script>alert('no')</script></head>
<body><nav><a href="/">Home</a> | <a href="/about">About</a></nav>
<h1>Pets</h1><p>Cats   purr.
Dogs bark.</p>
<h2>Links</h2><ul><li><a href="/care.html">Pet care</a></li><li>Food</li></ul>
</body></html>"""


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args) -> None:  # keep test output quiet
        pass

    def send(self, status: int, body: bytes, ctype: str, **headers: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for key, value in headers.items():
            self.send_header(key.replace("_", "-"), value)
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client stopped reading (size cap, cancel, timeout)

    def do_GET(self) -> None:
        port = self.server.server_address[1]
        routes = {
            "/page.html": lambda: self.send(200, PAGE, "text/html; charset=utf-8"),
            "/plain.txt": lambda: self.send(
                200, "héllo plain\n".encode("latin-1"), "text/plain; charset=latin-1"
            ),
            "/data.json": lambda: self.send(200, b'{"a": 1}', "application/json"),
            "/image.png": lambda: self.send(200, b"\x89PNG\r\n\x1a\n\x00\x00", "image/png"),
            "/long.txt": lambda: self.send(200, b"x" * 150_000, "text/plain"),
            "/big.txt": lambda: self.send(200, b"y" * (6 * 1024 * 1024), "text/plain"),
            "/moved": lambda: self.send(302, b"", "text/plain", Location="/page.html"),
            "/away": lambda: self.send(
                301, b"", "text/plain", Location=f"http://localhost:{port}/page.html"
            ),
            "/loop": lambda: self.send(302, b"", "text/plain", Location="/loop"),
            "/to-file": lambda: self.send(302, b"", "text/plain", Location="file:///etc/passwd"),
            "/slow": lambda: (time.sleep(1.0), self.send(200, b"late", "text/plain")),
        }
        route = routes.get(self.path)
        if route is None:
            self.send(404, b"not here", "text/plain")
        else:
            route()


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def ctx(project: Path, tmp_path: Path) -> ToolContext:
    context = ToolContext(cwd=project, session_dir=tmp_path / "session", call_id="w")
    # The test server is on loopback: reachable only because rules name these hosts.
    context.state.web = WebAccess(named_hosts=lambda: frozenset({"127.0.0.1", "localhost"}))
    return context


async def fetch(ctx: ToolContext, url: str, prompt: str = "What is on the page?") -> str:
    args = validate_input(WebFetchParams, {"url": url, "prompt": prompt})
    out = await WebFetchTool().run(args, ctx)
    assert not out.is_error
    return out.content


async def test_html_becomes_readable_text(ctx: ToolContext, server: str) -> None:
    text = await fetch(ctx, f"{server}/page.html", "Which pets purr?")
    assert text.startswith(
        f"URL: {server}/page.html\nTitle: Cats & Dogs\nQuestion: Which pets purr?"
    )
    body = text.split("--- page content ---\n", 1)[1]
    assert body == (
        f"# Pets\n\nCats purr. Dogs bark.\n\n## Links\n\n- Pet care ({server}/care.html)\n- Food"
    )
    assert "alert" not in text and "color" not in text and "About" not in text


async def test_text_types_are_returned_as_is(ctx: ToolContext, server: str) -> None:
    assert (await fetch(ctx, f"{server}/plain.txt")).endswith("--- page content ---\nhéllo plain")
    assert (await fetch(ctx, f"{server}/data.json")).endswith('{"a": 1}')


async def test_binary_and_404_are_errors(ctx: ToolContext, server: str) -> None:
    with pytest.raises(ToolError, match=r"binary content \(image/png\)"):
        await fetch(ctx, f"{server}/image.png")
    with pytest.raises(ToolError, match=r"HTTP 404 Not Found fetching .*/nope"):
        await fetch(ctx, f"{server}/nope")


async def test_result_and_download_are_capped(ctx: ToolContext, server: str) -> None:
    text = await fetch(ctx, f"{server}/long.txt")
    assert "showing the first 100000 of 150000 characters" in text
    assert text.split("--- page content ---\n", 1)[1] == "x" * 100_000
    big = await fetch(ctx, f"{server}/big.txt")
    assert "the download stopped at 5 MB" in big
    assert len(big) < 101_000


async def test_redirects(ctx: ToolContext, server: str) -> None:
    moved = await fetch(ctx, f"{server}/moved")
    assert moved.startswith(f"URL: {server}/page.html") and "# Pets" in moved
    away = await fetch(ctx, f"{server}/away")
    assert "redirects to a different host: http://localhost:" in away
    assert "# Pets" not in away
    with pytest.raises(ToolError, match="too many redirects"):
        await fetch(ctx, f"{server}/loop")
    with pytest.raises(ToolError, match="only http:// and https://"):
        await fetch(ctx, f"{server}/to-file")


@pytest.mark.parametrize(
    "url", ["file:///etc/passwd", "data:text/plain,hi", "ftp://example.com/x", "example.com/page"]
)
async def test_non_http_schemes_are_refused(ctx: ToolContext, url: str) -> None:
    with pytest.raises(ToolError, match="unsupported URL"):
        await fetch(ctx, url)


async def test_connection_refused_is_one_line(ctx: ToolContext) -> None:
    with pytest.raises(ToolError, match=r"^cannot fetch http://127\.0\.0\.1:9/") as info:
        await fetch(ctx, "http://127.0.0.1:9/")
    assert "\n" not in str(info.value)


async def test_cancel_stops_a_slow_fetch(ctx: ToolContext, server: str) -> None:
    asyncio.get_running_loop().call_later(0.1, ctx.cancel.set)
    started = time.monotonic()
    with pytest.raises(ToolError, match="cancelled"):
        await fetch(ctx, f"{server}/slow")
    assert time.monotonic() - started < 0.8


async def test_timeout_is_reported(ctx: ToolContext, server: str, monkeypatch) -> None:
    monkeypatch.setattr(webfetch, "TIMEOUT_S", 0.2)
    with pytest.raises(ToolError, match=r"timed out after 0.2 s"):
        await fetch(ctx, f"{server}/slow")


@pytest.mark.parametrize(
    ("answer", "fetched"), [("allow_session", True), ("allow_always", True), ("allow_once", False)]
)
async def test_an_approval_that_saves_a_rule_lets_a_local_host_be_fetched(
    paths, project: Path, server: str, answer: str, fetched: bool
) -> None:
    """The dialog offers WebFetch(domain:localhost); a rule naming the host lets a loopback
    address through, a one-off yes does not name it."""
    from agent_core import events as ev
    from tests.helpers.scripted import Step
    from tests.integration.test_runtime_permissions import turn

    url = server.replace("127.0.0.1", "localhost") + "/page.html"
    steps = [Step(calls=[("w1", "WebFetch", {"url": url, "prompt": "p"})]), Step(text="ok")]
    _, seen = await turn(paths, project, steps, answer)
    (ask,) = [e for e in seen if isinstance(e, ev.ApprovalRequested)]
    assert ask.suggested_rules == ["WebFetch(domain:localhost)"]
    (result,) = [e for e in seen if isinstance(e, ev.ToolResult)]
    if fetched:
        assert not result.is_error and "# Pets" in result.content
    else:
        assert result.is_error and "localhost resolves to" in result.content
        assert "WebFetch(domain:localhost)" in result.content
