"""Attacks on WebFetch, end to end through `mewcode -p`; a loopback HTTP server is the witness.

WebFetch is not read-only: each host asks (headless: denied) unless a rule allows it.
Hosts are normalised before any rule is matched, and loopback, private and
cloud-metadata addresses are refused unless a rule names the host, on the address
each connection really uses. Every test asserts what the witness server received: a
test that fails means a request got through.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.helpers.headless import headless_in_process, headless_process

PAGE = b"<html><head><title>Witness</title></head><body><p>the witness page</p></body></html>"


class _Handler(BaseHTTPRequestHandler):
    server: Witness

    def log_message(self, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        self.server.record(self.path)
        query = parse_qs(urlsplit(self.path).query)
        if "to" in query:  # /hop?to=URL redirects there
            self.send_response(302)
            self.send_header("Location", query["to"][0])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)


class Witness(ThreadingHTTPServer):
    """Records the path (or, as a proxy, the absolute URL) of every request it gets."""

    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self._lock = threading.Lock()
        self._paths: list[str] = []

    def record(self, path: str) -> None:
        with self._lock:
            self._paths.append(path)

    @property
    def paths(self) -> list[str]:
        with self._lock:
            return list(self._paths)

    @property
    def port(self) -> int:
        return int(self.server_address[1])


@pytest.fixture
def witness() -> Iterator[Witness]:
    server = Witness()
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.01})
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def settings(home: Path, *, allow=(), deny=(), extra: str = "") -> None:
    lines = ["permissions:"]
    for kind, rules in (("allow", allow), ("deny", deny)):
        if rules:
            lines.append(f"  {kind}:")
            lines += [f"    - '{rule}'" for rule in rules]
    (home / "settings.yaml").write_text("\n".join(lines) + "\n" + extra, encoding="utf-8")


def fetches(*rounds: list[str]) -> list[dict]:
    """One model round per list, each calling WebFetch once per URL, then a final answer."""
    steps: list[dict] = [
        {
            "tool_calls": [
                {"id": f"w{r}_{i}", "name": "WebFetch", "input": {"url": url, "prompt": "what?"}}
                for i, url in enumerate(urls)
            ]
        }
        for r, urls in enumerate(rounds)
    ]
    return [*steps, {"text": "done"}]


def results(fake_llm) -> dict[str, str]:
    """Every tool result the model was sent, by call id (the text of each)."""
    found: dict[str, str] = {}
    for request in fake_llm.requests:
        for message in request.body.get("messages", []):
            content = message.get("content")
            if not isinstance(content, list):
                continue
            for block in content:
                if block.get("type") != "tool_result":
                    continue
                text = block.get("content")
                if isinstance(text, list):
                    text = "\n".join(part.get("text", "") for part in text)
                found[block["tool_use_id"]] = text or ""
    return found


def run(fake_llm, project, monkeypatch, capsys, *flags: str, **env: str) -> dict:
    code, result, err = headless_in_process(
        ["-p", "go", *flags], {**fake_llm.env("anthropic"), **env}, project, monkeypatch, capsys
    )
    assert code == 0, err
    return result


BYPASS = ("--permission-mode", "bypassPermissions")


def test_an_unlisted_host_is_not_fetched_headless(fake_llm, project, mewcode_home, witness) -> None:
    """The real `mewcode -p` process: no rule, nobody to ask, so nothing is fetched."""
    urls = [f"http://localhost:{witness.port}/secret", f"http://127.0.0.1:{witness.port}/secret"]
    fake_llm.script(fetches(urls))
    env = {**fake_llm.env("anthropic"), "MEWCODE_HOME": str(mewcode_home)}
    proc = headless_process(["-p", "go"], env, project)
    assert proc.returncode == 0, proc.stderr
    assert witness.paths == []
    texts = results(fake_llm)
    assert all("needs approval" in texts[f"w0_{i}"] for i in range(2)), texts


def test_a_rule_naming_the_host_lets_it_be_fetched(
    fake_llm, project, mewcode_home, witness, monkeypatch, capsys
) -> None:
    settings(mewcode_home, allow=["WebFetch(domain:localhost)"])
    fake_llm.script(fetches([f"http://localhost:{witness.port}/page"]))
    result = run(fake_llm, project, monkeypatch, capsys)
    assert not result["permission_denials"]
    assert witness.paths == ["/page"]
    assert "the witness page" in results(fake_llm)["w0_0"]


DOT_VARIANTS = [
    "http://127\uff0e0\uff0e0\uff0e1:{port}/secret",  # fullwidth full stops
    "http://127\u30020\u30020\u30021:{port}/secret",  # ideographic full stops
    "http://127\uff610\uff610\uff611:{port}/secret",  # halfwidth ideographic full stops
    "http://127.0.0.1.:{port}/secret",  # a trailing dot
    "http://LOCALHOST\u3002:{port}/secret",  # case and an ideographic trailing dot
    "http://l\u043ecalhost:{port}/secret",  # no: a Cyrillic o is another host (IDNA)
]


def test_dot_and_case_variants_do_not_dodge_a_deny_rule(
    fake_llm, project, mewcode_home, witness, monkeypatch, capsys
) -> None:
    """Bypass mode allows every fetch, so only the deny rules stand in the way."""
    settings(mewcode_home, deny=["WebFetch(domain:127.0.0.1)", "WebFetch(domain:localhost)"])
    urls = [u.format(port=witness.port) for u in DOT_VARIANTS]
    fake_llm.script(fetches(urls))
    run(fake_llm, project, monkeypatch, capsys, *BYPASS)
    assert witness.paths == []
    texts = results(fake_llm)
    for i in range(5):
        assert "denied by rule WebFetch(domain:" in texts[f"w0_{i}"], (urls[i], texts[f"w0_{i}"])
    # The Cyrillic look-alike is another name (xn--lcalhost-...): no rule of these names it;
    # it fails to resolve, and is never the loopback server.
    assert "denied by rule" not in texts["w0_5"]


NUMERIC_LOOPBACK = ["0x7f.1", "2130706433", "127.1", "0177.0.0.1", "0x7f000001", "127.0.1"]


def test_numeric_ipv4_forms_do_not_dodge_a_deny_rule(
    fake_llm, project, mewcode_home, witness, monkeypatch, capsys
) -> None:
    settings(mewcode_home, deny=["WebFetch(domain:127.0.0.1)"])
    fake_llm.script(fetches([f"http://{h}:{witness.port}/secret" for h in NUMERIC_LOOPBACK]))
    run(fake_llm, project, monkeypatch, capsys, *BYPASS)
    assert witness.paths == []
    texts = results(fake_llm)
    for i, host in enumerate(NUMERIC_LOOPBACK):
        assert "denied by rule WebFetch(domain:127.0.0.1)" in texts[f"w0_{i}"], (host, texts)


def test_loopback_in_any_spelling_is_refused_without_a_rule_naming_it(
    fake_llm, project, mewcode_home, witness, monkeypatch, capsys
) -> None:
    """Bypass mode asks nothing: the address check alone refuses loopback."""
    hosts = ["127.0.0.1", "localhost", "[::ffff:127.0.0.1]", *NUMERIC_LOOPBACK]
    fake_llm.script(fetches([f"http://{h}:{witness.port}/secret" for h in hosts]))
    run(fake_llm, project, monkeypatch, capsys, *BYPASS)
    assert witness.paths == []
    texts = results(fake_llm)
    for i, host in enumerate(hosts):
        assert "loopback" in texts[f"w0_{i}"], (host, texts[f"w0_{i}"])


@pytest.mark.parametrize("mode", ["default", "bypassPermissions"])
def test_a_redirect_to_loopback_is_not_followed(
    fake_llm, project, mewcode_home, witness, monkeypatch, capsys, mode
) -> None:
    """localhost is allowed by name; it redirects to 127.0.0.1, which no rule names. The
    model then fetches the redirect target itself, as the tool's answer tells it to."""
    settings(mewcode_home, allow=["WebFetch(domain:localhost)"])
    secret = f"http://127.0.0.1:{witness.port}/secret"
    same_host = f"http://localhost:{witness.port}/hop?to=http://0x7f.1:{witness.port}/secret"
    hop = f"http://localhost:{witness.port}/hop?to={secret}"
    fake_llm.script(fetches([hop, same_host], [secret]))
    run(fake_llm, project, monkeypatch, capsys, "--permission-mode", mode)
    assert len(witness.paths) == 2 and all(p.startswith("/hop?") for p in witness.paths)
    texts = results(fake_llm)
    assert f"redirects to a different host: {secret}" in texts["w0_0"]
    assert "redirects to a different host: http://0x7f.1:" in texts["w0_1"]
    refused = texts["w1_0"]
    assert ("needs approval" if mode == "default" else "loopback") in refused, refused


def _resolving(names: dict[str, str]):
    """socket.getaddrinfo with ``names`` answered from the table (a DNS the attacker runs)."""
    real = socket.getaddrinfo

    def fake(host, port, *args, **kwargs):
        text = host.decode() if isinstance(host, bytes) else host
        if text in names:
            return real(names[text], port, *args, **kwargs)
        return real(host, port, *args, **kwargs)

    return fake


def test_a_name_that_resolves_to_loopback_is_refused(
    fake_llm, project, mewcode_home, witness, monkeypatch, capsys
) -> None:
    """The check is on the address the connection uses, not on the name."""
    monkeypatch.setattr(
        socket,
        "getaddrinfo",
        _resolving({"docs.example.test": "127.0.0.1", "metadata.google.internal": "127.0.0.1"}),
    )
    settings(mewcode_home, allow=["WebFetch(domain:example.test)"])
    urls = [
        f"http://docs.example.test:{witness.port}/secret",
        f"http://metadata.google.internal:{witness.port}/computeMetadata/v1/",
    ]
    fake_llm.script(fetches(urls))
    run(fake_llm, project, monkeypatch, capsys, *BYPASS)
    assert witness.paths == []
    texts = results(fake_llm)
    assert "docs.example.test resolves to 127.0.0.1 (loopback)" in texts["w0_0"], texts
    assert "cloud metadata" in texts["w0_1"], texts


def test_an_environment_proxy_does_not_carry_the_fetch(
    fake_llm, project, mewcode_home, witness, monkeypatch, capsys
) -> None:
    """A proxy from the environment would resolve and connect out of MewCode's sight."""
    monkeypatch.setattr(socket, "getaddrinfo", _resolving({"docs.example.test": "127.0.0.1"}))
    proxy = f"http://127.0.0.1:{witness.port}"
    fake_llm.script(fetches(["http://docs.example.test/secret"]))
    run(
        fake_llm,
        project,
        monkeypatch,
        capsys,
        *BYPASS,
        HTTP_PROXY=proxy,
        http_proxy=proxy,
        ALL_PROXY=proxy,
        NO_PROXY="127.0.0.1,localhost",
        no_proxy="127.0.0.1,localhost",
    )
    assert witness.paths == []
    assert "loopback" in results(fake_llm)["w0_0"]


def test_sandbox_network_off_turns_webfetch_off(
    fake_llm, project, mewcode_home, witness, monkeypatch, capsys
) -> None:
    settings(
        mewcode_home, allow=["WebFetch(domain:localhost)"], extra="sandbox:\n  network: false\n"
    )
    fake_llm.script(fetches([f"http://localhost:{witness.port}/page"]))
    run(fake_llm, project, monkeypatch, capsys, *BYPASS)
    assert witness.paths == []
    assert "sandbox.network is false" in results(fake_llm)["w0_0"]
