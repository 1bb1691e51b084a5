"""The redactor: every credential format goes, ordinary text stays, streams split anywhere."""

from __future__ import annotations

import base64
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_core.messages import (
    ImageBlock,
    Message,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)
from agent_core.session.redact import REDACTED, REDACTED_THINKING_SIGNATURE, Redactor
from tests.helpers.secret_samples import NEAR_MISSES, SAMPLES, SECRETS_FILE

REDACTOR = Redactor({})


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda s: s.kind)
def test_each_credential_format_is_redacted(sample) -> None:
    out = REDACTOR.text(sample.text)
    assert sample.secret not in out
    assert REDACTED in out


def test_context_around_a_secret_stays_readable() -> None:
    cases = {
        "postgres://app:hunter2pass@db:5432/x": f"postgres://app:{REDACTED}@db:5432/x",
        "curl -u admin:s3cr3tpass https://ci": f"curl -u admin:{REDACTED} https://ci",
        "Authorization: Bearer abcdef0123456789": f"Authorization: Bearer {REDACTED}",
        "DB_PASSWORD=hunter2": f"DB_PASSWORD={REDACTED}",
        '{"password": "pa55word!"}': f'{{"password": "{REDACTED}"}}',
        "password: admin\n": f"password: {REDACTED}\n",
    }
    for text, expected in cases.items():
        assert REDACTOR.text(text) == expected


def test_a_pem_block_goes_whole_even_when_numbered_or_cut() -> None:
    sample = next(s for s in SAMPLES if s.kind == "pem-rsa")
    numbered = "".join(f"{i:6d}\t{line}\n" for i, line in enumerate(sample.text.splitlines(), 1))
    out = REDACTOR.text(numbered)
    assert all(line not in out for line in sample.secret.splitlines())
    assert "key file:" in out and "end of file" in out
    lines = sample.secret.splitlines()
    head = sample.text[: len(sample.text) // 2]  # no END line: an output cut short
    assert not [line for line in lines if line in REDACTOR.text(head)]
    tail = numbered[len(numbered) // 2 :]  # no BEGIN line: the tail kept of a long output
    assert not [line for line in lines if line in REDACTOR.text(tail)]
    assert REDACTOR.text(tail).endswith("\tend of file\n")


@pytest.mark.parametrize("text", NEAR_MISSES)
def test_ordinary_code_and_ids_are_left_alone(text: str) -> None:
    assert REDACTOR.text(text) == text


def test_base64_data_is_not_mangled() -> None:
    data = base64.b64encode(random.Random(3).randbytes(200_000)).decode()
    assert REDACTOR.text(data) == data
    url = base64.urlsafe_b64encode(random.Random(4).randbytes(200_000)).decode()
    assert REDACTOR.text(url) == url


def test_images_are_untouched_and_text_beside_them_is_redacted() -> None:
    secret = next(s for s in SAMPLES if s.kind == "github-ghp").secret
    image = ImageBlock("image/png", base64.b64encode(b"\x89PNG" + secret.encode()).decode())
    msg = Message(
        role="user",
        content=[ToolResultBlock("t1", [TextBlock(f"token {secret}"), image])],
    )
    out = REDACTOR.message(msg)
    result = out.content[0]
    assert isinstance(result, ToolResultBlock) and isinstance(result.content, list)
    assert result.content[1] is image
    assert secret not in result.content[0].text


def test_tool_inputs_and_text_blocks_are_redacted() -> None:
    secret = next(s for s in SAMPLES if s.kind == "stripe-secret").secret
    msg = Message(
        role="assistant",
        content=[
            TextBlock(f"I will use {secret}"),
            ToolUseBlock("t1", "Write", {"file_path": "a.py", "content": f"KEY = '{secret}'"}),
        ],
    )
    out = REDACTOR.message(msg)
    assert secret not in repr(out)


def test_thinking_is_redacted_and_marked_only_when_it_held_a_secret() -> None:
    secret = next(s for s in SAMPLES if s.kind == "anthropic").secret
    clean = ThinkingBlock("the user wants a list", "sig-clean")
    dirty = ThinkingBlock(f"the key is {secret}", "sig-dirty")
    out = REDACTOR.message(Message(role="assistant", content=[clean, dirty, TextBlock("ok")]))
    assert out.content[0] is clean
    marked = out.content[1]
    assert isinstance(marked, ThinkingBlock)
    assert secret not in marked.thinking and marked.signature == REDACTED_THINKING_SIGNATURE


def test_unchanged_messages_are_returned_as_is() -> None:
    msg = Message(role="user", content=[TextBlock("hello"), ToolResultBlock("t", "fine")])
    assert REDACTOR.message(msg) is msg


def test_env_secret_values_go_but_paths_numbers_and_short_values_stay() -> None:
    r = Redactor(
        {
            "SERVICE_TOKEN": "tok-abc-123456",
            "SSH_KEY_PATH": "/home/u/.ssh/id_ed25519",
            "TOKEN_TTL": "3600000",
            "USE_KEY": "1",
            "PATH": "/usr/bin:/bin",
        }
    )
    text = "sent tok-abc-123456 via /home/u/.ssh/id_ed25519 ttl 3600000 v1 in /usr/bin"
    assert r.text(text) == f"sent {REDACTED} via /home/u/.ssh/id_ed25519 ttl 3600000 v1 in /usr/bin"


def test_redacting_twice_changes_nothing_more() -> None:
    once = REDACTOR.text(SECRETS_FILE)
    assert REDACTOR.text(once) == once


# --- streaming: spill files and shell logs are written chunk by chunk ---


def _stream(text: str, cuts: list[int], redactor: Redactor = REDACTOR) -> str:
    stream = redactor.stream()
    out, last = [], 0
    for cut in sorted(set(cuts)):
        out.append(stream.feed(text[last:cut]))
        last = cut
    out.append(stream.feed(text[last:]))
    out.append(stream.flush())
    return "".join(out)


def test_a_secret_split_across_chunks_is_caught() -> None:
    big = (SECRETS_FILE + "filler line\n" * 400) * 12  # well over the held-back window
    for sample in SAMPLES:
        at = big.find(sample.secret) + len(sample.secret) // 2
        out = _stream(big, [at, at + 1])
        assert sample.secret not in out, sample.kind


def test_a_release_point_between_a_lead_and_its_secret_holds_the_match_back() -> None:
    # A stream releases text `window` characters behind what it has seen; here that
    # point falls after "postgres://u:" but before the password.
    window = REDACTOR.window
    head = "x" * (window - 16) + " postgres://u:"
    text = head + "hunter2secret@db/app\n"
    text += "y" * (2 * window - len(text))
    out = _stream(text, [len(text)])
    assert "hunter2secret" not in out and f"postgres://u:{REDACTED}@db/app" in out


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=200_000), max_size=30))
def test_streaming_gives_the_same_text_as_one_shot(cuts: list[int]) -> None:
    text = (SECRETS_FILE + "x = 1\n" * 500) * 20
    assert _stream(text, cuts) == REDACTOR.text(text)


def test_many_tiny_chunks_are_redacted_too() -> None:
    text = SECRETS_FILE * 3
    out = _stream(text, list(range(0, len(text), 7)))
    assert out == REDACTOR.text(text)


def test_flush_before_a_read_releases_everything_written_so_far() -> None:
    stream = REDACTOR.stream()
    assert stream.feed("server started on :8080\n") == ""  # held back, not lost
    assert stream.flush() == "server started on :8080\n"
    assert stream.feed("DB_PASSWORD=hunter2\n") + stream.flush() == f"DB_PASSWORD={REDACTED}\n"


def test_pending_shows_what_is_held_back_redacted_without_releasing_it() -> None:
    stream = REDACTOR.stream()
    assert stream.feed("server started on :8080\nDB_PASSWORD=hunter2\n") == ""
    assert stream.pending() == f"server started on :8080\nDB_PASSWORD={REDACTED}\n"
    assert stream.pending() == stream.flush()  # nothing was released by looking
    assert stream.pending() == ""
