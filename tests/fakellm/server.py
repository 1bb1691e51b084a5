"""A loopback HTTP server that answers LLM requests from a script, in a background thread."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from tests.fakellm import anthropic_wire, openai_wire
from tests.fakellm.steps import Responder, Step, check_step

EXHAUSTED = "fake server: script exhausted"


@dataclass
class RecordedRequest:
    """One request as the server received it."""

    path: str
    wire: str  # "anthropic" | "openai"
    headers: dict[str, str]  # lower-cased names
    body: dict[str, Any]


def load_script(path: str | Path) -> tuple[list[Step], bool]:
    """Read a script file: a JSON list of steps, or {"steps": [...], "loop": true}."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if isinstance(data, dict):
        return [check_step(s) for s in data.get("steps", [])], bool(data.get("loop"))
    return [check_step(s) for s in data], False


class FakeLLMServer:
    """Speaks the Anthropic and OpenAI streaming wire formats on 127.0.0.1."""

    def __init__(self, steps: Iterable[Step | Responder] = (), *, responder: Responder | None = None,
                 loop: bool = False, port: int = 0) -> None:  # fmt: skip
        self.requests: list[RecordedRequest] = []
        self.served_seconds = 0.0  # time spent answering, for benchmarks that subtract it
        self.responder = responder  # answers every request once the script runs out
        self._lock = threading.Lock()
        self._steps: list[Step | Responder] = []
        self._next = 0
        self._loop = loop
        self._port = port
        self._httpd: _HTTPServer | None = None
        self._thread: threading.Thread | None = None
        self.script(steps, loop=loop)

    # --- scripting ---------------------------------------------------------

    def script(self, steps: Iterable[Step | Responder], *, loop: bool = False) -> FakeLLMServer:
        """Replace the pending script; dict steps are validated now."""
        checked = [s if callable(s) else check_step(s) for s in steps]
        with self._lock:
            self._steps, self._next, self._loop = checked, 0, loop
        return self

    @property
    def remaining(self) -> int:
        """How many scripted steps have not been served yet (loop mode starts over at 0)."""
        with self._lock:
            return len(self._steps) - self._next

    def _take(self, body: dict[str, Any]) -> Step | None:
        with self._lock:
            if self._next >= len(self._steps) and self._loop and self._steps:
                self._next = 0
            if self._next < len(self._steps):
                item = self._steps[self._next]
                self._next += 1
            elif self.responder is not None:
                item = self.responder
            else:
                return None
        return check_step(item(body)) if callable(item) else item

    # --- addresses -----------------------------------------------------------

    @property
    def port(self) -> int:
        assert self._httpd is not None, "server not started"
        return self._httpd.server_address[1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def anthropic_base_url(self) -> str:
        return self.url

    @property
    def openai_base_url(self) -> str:
        return f"{self.url}/v1"

    def env(self, wire: str) -> dict[str, str]:
        """Environment variables that point a `mewcode` subprocess at this server."""
        if wire == "anthropic":
            return {"ANTHROPIC_API_KEY": "test-key", "ANTHROPIC_BASE_URL": self.anthropic_base_url,
                    "MEWCODE_PROVIDER": "anthropic"}  # fmt: skip
        if wire == "openai":
            return {"OPENAI_API_KEY": "test-key", "OPENAI_BASE_URL": self.openai_base_url,
                    "MEWCODE_PROVIDER": "openai"}  # fmt: skip
        raise ValueError(f"unknown wire format {wire!r}")

    # --- lifecycle -----------------------------------------------------------

    def start(self) -> FakeLLMServer:
        self._httpd = _HTTPServer(("127.0.0.1", self._port), _Handler)
        self._httpd.fake = self
        self._thread = threading.Thread(target=self._httpd.serve_forever,
                                        kwargs={"poll_interval": 0.01}, daemon=True)  # fmt: skip
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is None:
            return
        self._httpd.shutdown()
        self._httpd.close_connections()
        self._httpd.server_close()
        self._httpd = None

    def __enter__(self) -> FakeLLMServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    fake: FakeLLMServer

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.open: set[socket.socket] = set()

    def close_connections(self) -> None:
        """Unblock keep-alive handler threads still waiting for a next request."""
        for sock in list(self.open):
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _HTTPServer

    def setup(self) -> None:
        super().setup()
        # Small SSE writes must not wait for Nagle/delayed-ACK (40 ms each).
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.server.open.add(self.connection)

    def finish(self) -> None:
        self.server.open.discard(self.connection)
        try:
            super().finish()
        except OSError:
            pass

    def log_message(self, format: str, *args: Any) -> None:
        return

    def do_GET(self) -> None:
        self._json(404, {"error": {"type": "not_found_error", "message": "not found"}})

    def do_POST(self) -> None:
        started = time.perf_counter()
        try:
            self._answer()
        finally:
            fake = self.server.fake
            with fake._lock:
                fake.served_seconds += time.perf_counter() - started

    def _answer(self) -> None:
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {"_raw": raw.decode("utf-8", "replace")}
        path = self.path.split("?")[0]
        wire = "anthropic" if path.endswith("/messages") else "openai"
        if not path.endswith(("/messages", "/chat/completions")):
            self._json(404, {"error": {"type": "not_found_error", "message": f"no route {path}"}})
            return
        fake = self.server.fake
        headers = {k.lower(): v for k, v in self.headers.items()}
        fake.requests.append(RecordedRequest(path, wire, headers, body))
        module = anthropic_wire if wire == "anthropic" else openai_wire
        try:
            step = fake._take(body)
        except Exception as exc:  # a broken responder: tell the client, keep serving
            self._json(500, module.error_body(500, f"fake server: bad step: {exc}"))
            return
        if step is None:
            self._json(500, module.error_body(500, EXHAUSTED))
        elif "status" in step:
            extra = {}
            if step.get("retry_after") is not None:
                extra["retry-after"] = str(step["retry_after"])
            self._json(step["status"], module.fault_body(step), extra)
        elif not body.get("stream"):
            model = body.get("model", "fake-model")
            if wire == "anthropic":
                self._json(200, anthropic_wire.message_json(step, model))
            else:
                self._json(200, openai_wire.completion_json(step, model))
        else:
            self._stream(wire, step, body)

    # --- writing ----------------------------------------------------------------

    def _json(
        self, status: int, payload: dict[str, Any], extra: dict[str, str] | None = None
    ) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def _frames(self, wire: str, step: Step, body: dict[str, Any]) -> Iterator[tuple[bytes, bool]]:
        model = body.get("model", "fake-model")
        if wire == "anthropic":
            return anthropic_wire.stream_frames(step, model)
        include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
        return openai_wire.stream_frames(step, model, include_usage)

    def _stream(self, wire: str, step: Step, body: dict[str, Any]) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        cut = step.get("cut_after_chunks")
        if cut is None and step.get("stream_error"):
            cut = 0
        delay = step.get("delay_ms", 0) / 1000
        sent = 0
        try:
            for n, (data, is_content) in enumerate(self._frames(wire, step, body)):
                if cut is not None and sent >= cut and n > 0:
                    self._end_early(wire, step)
                    return
                if delay and n:
                    time.sleep(delay)
                self._chunk(data)
                sent += is_content
            self._chunk(b"")
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def _end_early(self, wire: str, step: Step) -> None:
        """Stop mid-answer: an in-stream error, a clean early end, or a dropped connection."""
        self.close_connection = True
        module = anthropic_wire if wire == "anthropic" else openai_wire
        if step.get("stream_error"):
            self._chunk(module.stream_error_frame(step["stream_error"], "stream error")[0])
            self._chunk(b"")
        elif step.get("cut_clean"):
            self._chunk(b"")
        else:
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)

    def _chunk(self, data: bytes) -> None:
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
