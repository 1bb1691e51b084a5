"""No secret reaches MEWCODE_HOME in clear, and everything there is private (docs/security.md#secrets-at-rest).

End to end through `mewcode -p` against the fake LLM: the model reads a file of
every credential kind, a command prints 80 KB of them (so the output spills
twice: the Bash capture and the context ledger), a background shell prints
them to its log, a refused `curl -u` lands in the audit log, a thinking block
and the final answer quote them. Then every byte under the home is checked,
and every mode. The model itself still saw the secrets in that turn.
"""

from __future__ import annotations

import json
import logging
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from agent_core.config.paths import MewcodePaths
from agent_core.messages import user_text
from agent_core.session import load_session
from agent_core.session.redact import REDACTED
from tests.helpers.at_rest import SPILLING_LIMITS, secret_reading_steps, secrets_found, walk
from tests.helpers.secret_samples import SAMPLES, SECRETS_FILE

MEWCODE = [sys.executable, "-m", "mewcode_tui.cli"]
AWS_KEY = next(s for s in SAMPLES if s.kind == "aws-access-key-id").secret
CURL_PW = next(s for s in SAMPLES if s.kind == "curl-u").secret
CURL_TEXT = next(s for s in SAMPLES if s.kind == "curl-u").text
THINKING_SECRET = next(s for s in SAMPLES if s.kind == "anthropic").secret
PROMPT_SECRET = next(s for s in SAMPLES if s.kind == "password-assignment")


def strings(value: object) -> list[str]:
    """Every string inside a decoded JSON value."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def assert_private_and_clean(home: Path, secrets: list[str]) -> list[Path]:
    files, dirs = walk(home)
    loose = [f"{p} {oct(stat.S_IMODE(p.lstat().st_mode))}" for p in files + dirs if _loose(p)]
    assert not loose, loose
    found = secrets_found(home, secrets)
    assert not found, found
    return files


def _loose(path: Path) -> bool:
    mode = stat.S_IMODE(path.lstat().st_mode)
    return mode != (0o700 if path.is_dir() else 0o600)


def run(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*MEWCODE, *args, "--cwd", str(cwd)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def env(fake_llm, mewcode_home: Path) -> dict[str, str]:
    settings = mewcode_home / "settings.yaml"
    settings.write_text(SPILLING_LIMITS)
    settings.chmod(0o600)
    return {**os.environ, **fake_llm.env("anthropic"), "MEWCODE_HOME": str(mewcode_home)}


def test_no_secret_at_rest_after_a_turn_full_of_them(
    fake_llm, project: Path, mewcode_home: Path, env: dict[str, str]
) -> None:
    (project / "secrets.txt").write_text(SECRETS_FILE)
    fake_llm.script(
        [
            *secret_reading_steps(f"The user pasted {THINKING_SECRET}; read the file first."),
            {
                "tool_calls": [
                    {
                        "id": "b3",
                        "name": "Bash",
                        "input": {"command": f"curl -u admin:{CURL_PW} http://127.0.0.1:9/"},
                    }
                ]
            },
            {"tool_calls": [{"id": "o1", "name": "BashOutput", "input": {"bash_id": "bash_1"}}]},
            {"text": f"Done. The AWS key in there is {AWS_KEY}."},
        ]
    )
    proc = run(["-p", f"check {PROMPT_SECRET.text}", "--allowedTools", "Bash(cat:*)"], env, project)
    assert proc.returncode == 0, proc.stderr

    # The live turn was not redacted: the model got every secret back.
    sent = "\n".join(strings([r.body for r in fake_llm.requests]))
    # (line by line: Read numbers the lines of a PEM block)
    assert [s.kind for s in SAMPLES if any(p not in sent for p in s.secret.splitlines())] == []
    assert PROMPT_SECRET.secret in "\n".join(strings(fake_llm.requests[0].body))

    files = assert_private_and_clean(
        mewcode_home, [s.secret for s in SAMPLES] + [env["ANTHROPIC_API_KEY"]]
    )
    names = {p.name for p in files}
    session_dir = next(p for p in (mewcode_home / "projects").iterdir() if p.is_dir())
    session = next(session_dir.glob("*.jsonl"))
    results = session.with_suffix("") / "tool-results"
    assert any(n.startswith("bash-b1") for n in names)  # the command's own spill file
    assert (results / "b1.txt").is_file()  # the context layer's spill of its result
    assert any(n.startswith("shell-bash_1") for n in names)  # the background shell's log
    assert "audit.jsonl" in names
    assert REDACTED.encode() in (results / "b1.txt").read_bytes()
    audit = (session.with_suffix("") / "audit.jsonl").read_text()
    assert f"curl -u admin:{REDACTED}" in audit

    # Resumed, the redacted thinking block is dropped from what is sent, not sent modified.
    loaded = load_session(session)
    assert any(REDACTED in json.dumps(m.content[0].thinking) for m in loaded.messages[1:2])
    fake_llm.script([{"text": "resumed"}])
    before = len(fake_llm.requests)
    proc = run(["-p", "--continue", "go on"], env, project)
    assert proc.returncode == 0, proc.stderr
    body = fake_llm.requests[before].body
    blocks = [b for m in body["messages"] for b in m["content"] if isinstance(b, dict)]
    assert not [b for b in blocks if b.get("type") == "thinking"]
    assert REDACTED not in json.dumps([b for b in blocks if b.get("type") == "thinking"])
    assert_private_and_clean(mewcode_home, [s.secret for s in SAMPLES])


def test_a_clean_thinking_block_is_still_sent_back_signed(
    fake_llm, project: Path, mewcode_home: Path, env: dict[str, str]
) -> None:
    fake_llm.script([{"thinking": "plain reasoning", "signature": "sig-ok", "text": "hi"}])
    assert run(["-p", "hello"], env, project).returncode == 0
    fake_llm.script([{"text": "again"}])
    assert run(["-p", "--continue", "more"], env, project).returncode == 0
    thinking = [
        b
        for m in fake_llm.requests[-1].body["messages"]
        for b in m["content"]
        if isinstance(b, dict) and b.get("type") == "thinking"
    ]
    assert thinking == [{"type": "thinking", "thinking": "plain reasoning", "signature": "sig-ok"}]


def test_the_debug_log_is_private_and_redacted(tmp_path: Path) -> None:
    from mewcode_tui.debug_log import setup_debug_log

    home = tmp_path / "home"
    home.mkdir(mode=0o755)
    logger = logging.getLogger("mewcode")
    saved = list(logger.handlers)
    logger.handlers = [h for h in saved if not getattr(h, "_mewcode", False)]
    try:
        path = setup_debug_log(home)
        assert path is not None
        try:
            raise RuntimeError(f"connect failed for {SAMPLES[0].text}")
        except RuntimeError:
            logging.getLogger("mewcode.test").exception("boom after %s", CURL_TEXT)
        for handler in logger.handlers:
            handler.flush()
    finally:
        for handler in logger.handlers:
            if getattr(handler, "_mewcode", False):
                handler.close()
        logger.handlers = saved
    text = path.read_text()
    assert "RuntimeError" in text and "boom after curl -u admin:" in text
    assert CURL_PW not in text and SAMPLES[0].secret not in text
    assert_private_and_clean(home, [CURL_PW, SAMPLES[0].secret])


def test_loose_files_and_folders_are_tightened_when_next_written(paths: MewcodePaths) -> None:
    from agent_core.session import SessionStore
    from agent_core.session.audit import AuditLog

    store = SessionStore.create(paths, model="m", provider="p", env={})
    session_id, folder = store.session_id, store.dir
    store.append_message(user_text("hello"))  # a session file exists from its first message
    store.close()
    audit = folder / "audit.jsonl"
    AuditLog(audit, env={}).write("decision", tool="Read")
    for path in (store.path, audit):
        path.chmod(0o644)
    for path in (folder, paths.sessions_dir, paths.home):
        path.chmod(0o755)
    store, _ = SessionStore.open(paths, session_id, env={})
    log = AuditLog(store.dir / "audit.jsonl", env={})
    log.write("exec", tool="Read")
    log.close()
    store.close()
    assert_private_and_clean(paths.home, [])


def test_the_preload_log_is_redacted(tmp_path: Path) -> None:
    """The preload server's records, warnings and tracebacks pass the redactor too."""
    home = tmp_path / "home"
    script = (
        "import logging, sys, warnings\n"
        "from pathlib import Path\n"
        "from mewcode_tui.preload import server\n"
        "server._log_to(Path(sys.argv[1]))\n"
        "secret = sys.argv[2]\n"
        "server.log.info('preload: request from %s', secret)\n"
        "warnings.warn('deprecated: ' + secret)\n"
        "try:\n"
        "    raise RuntimeError('connect failed for ' + secret)\n"
        "except RuntimeError:\n"
        "    server.log.exception('preload: the server failed')\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script, str(home), CURL_TEXT],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONWARNINGS": "always"},
    )
    assert proc.returncode == 0, proc.stderr
    text = (home / "logs" / "preload.log").read_text()
    assert "preload: request from curl -u admin:" in text and "RuntimeError" in text
    assert "deprecated: curl -u admin:" in text
    assert CURL_PW not in text
