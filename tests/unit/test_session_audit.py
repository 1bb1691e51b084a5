"""Audit log entries and secret redaction."""

from __future__ import annotations

import msgspec

from agent_core.session import AuditLog
from agent_core.session.redact import REDACTED, Redactor


def test_env_secret_values_are_redacted_wherever_they_appear():
    r = Redactor(
        {
            "MY_SERVICE_TOKEN": "tok-123456789",
            "GITHUB_PASSWORD": "hunter2hunter",
            "PATH": "/usr/bin",
        }
    )
    out = r.text("curl -u me:hunter2hunter https://x?t=tok-123456789 in /usr/bin")
    assert "hunter2hunter" not in out and "tok-123456789" not in out
    assert "/usr/bin" in out  # not a secret name


def test_short_env_values_are_not_treated_as_secrets():
    assert Redactor({"USE_KEY": "1"}).text("version 1.2") == "version 1.2"


def test_key_shaped_strings_are_redacted():
    r = Redactor({})
    cases = {
        "key sk-ant-api03-AbCdEf123456_xyz here": f"key {REDACTED} here",
        "OPENAI=sk-proj-abcdefghijklmnop": f"OPENAI={REDACTED}",
        "Authorization: Bearer eyJhbGciOi.JIUzI1NiJ9": f"Authorization: Bearer {REDACTED}",
        "api_key=abc123def": f"api_key={REDACTED}",
        "export ANTHROPIC_API_KEY='xyz-987654'": f"export ANTHROPIC_API_KEY='{REDACTED}'",
        '{"password": "pa55word!"}': f'{{"password": "{REDACTED}"}}',
    }
    for text, expected in cases.items():
        assert r.text(text) == expected


def test_ordinary_text_is_left_alone():
    r = Redactor({})
    for text in ("max_tokens=8192", "ask-me later", "tokens: 1200", "git push origin main"):
        assert r.text(text) == text


def test_code_that_names_a_secret_is_left_alone_but_keys_are_caught():
    r = Redactor({})
    assert r.text("password = form['password']") == "password = form['password']"
    assert r.text("sk-ant-api03-abcdefghijk") == REDACTED


def test_nested_values_are_redacted():
    r = Redactor({"DB_SECRET": "s3cr3t-value"})
    value = {"cmd": ["run", "--pw", "s3cr3t-value"], "n": 3, "env": {"x": "s3cr3t-value"}}
    assert r.value(value) == {"cmd": ["run", "--pw", REDACTED], "n": 3, "env": {"x": REDACTED}}


def test_audit_log_writes_decision_and_exec_lines_without_secrets(tmp_path):
    log = AuditLog(tmp_path / "s" / "audit.jsonl", env={"ANTHROPIC_API_KEY": "sk-ant-zzzzzzzzzzzz"})
    log.write(
        "decision",
        call_id="t1",
        tool="Bash",
        input="echo $ANTHROPIC_API_KEY sk-ant-zzzzzzzzzzzz",
        decision="allow",
        layer="rules",
        reason="matched Bash(echo:*)",
        rule="Bash(echo:*)",
        who="engine",
    )
    log.write(
        "exec",
        call_id="t1",
        tool="Bash",
        command="curl -H 'Authorization: Bearer abcdefghijklmnop'",
        exit_code=0,
        duration_ms=12,
        is_error=False,
    )
    log.close()
    raw = (tmp_path / "s" / "audit.jsonl").read_text()
    assert "zzzzzzzzzzzz" not in raw and "abcdefghijklmnop" not in raw
    entries = [msgspec.json.decode(line) for line in raw.splitlines()]
    assert [e["kind"] for e in entries] == ["decision", "exec"]
    assert entries[0]["who"] == "engine" and entries[0]["layer"] == "rules"
    assert entries[1]["exit_code"] == 0 and entries[1]["duration_ms"] == 12
    assert all(e["ts"].endswith("Z") for e in entries)


def test_audit_log_shortens_huge_inputs_after_redacting(tmp_path):
    log = AuditLog(tmp_path / "audit.jsonl", env={})
    secret = "sk-ant-" + "q" * 40
    log.write("decision", input="x" * 1990 + secret + "y" * 5000)
    log.close()
    entry = msgspec.json.decode((tmp_path / "audit.jsonl").read_bytes())
    assert "qqqqqqqq" not in entry["input"]
    assert len(entry["input"]) < 2100
