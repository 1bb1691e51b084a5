"""Keep secrets out of everything MewCode writes to disk (docs/security.md#secrets-at-rest).

One redactor for sessions, the audit log, spill files, shell logs and the
debug log. What it finds:

- the values of environment variables whose names say they are secret
  (``*_TOKEN``, ``*KEY*``, ``*SECRET*``, ``*PASSWORD*``...);
- the credential formats of ``FORMATS``: cloud, VCS, chat, payment and LLM
  keys, JWTs, PEM private key blocks, URL passwords, ``curl -u``,
  Authorization headers, and ``password=`` / ``token:`` assignments.

A format marks only the secret part of its match (``Bearer``, ``password=``
and the URL's user stay readable); marked spans become ``[REDACTED]``.

Speed: every format starts with a literal ``lead``. Formats are compiled into
one regex per first character, so ``re`` skips to candidate positions in C
and the whole table costs a few scans of the text (see bench/bench_redact.py).

Why not detect-secrets: its plugins report lines rather than spans, scan
line by line (far slower than this) and pull in ``requests``; this table
covers its regex plugins for the formats above, plus the context rules.

The model's live context is never redacted; only what goes to disk is.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from typing import Any

from agent_core.messages import (
    ImageBlock,
    Message,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)
from agent_core.session.redact_formats import (
    MAX_MATCH,
    REDACTED,
    Found,
    _follow,
    _scanners,
    _secret_spans,
)

# The at-rest copy of a thinking block whose text was redacted. Its provider
# signature no longer matches the text, so it is never sent back (see loader).
REDACTED_THINKING_SIGNATURE = "mewcode:redacted-at-rest"

_SECRET_ENV_NAME = re.compile(
    r"KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL", re.IGNORECASE
)
# Shorter values ("1", "true") would redact ordinary words.
_MIN_SECRET_LEN = 6


class Redactor:
    """Replaces secrets in strings, nested JSON-like values and messages."""

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        env = os.environ if env is None else env
        self._env_values = sorted(
            {v for k, v in env.items() if _SECRET_ENV_NAME.search(k) and _env_secret(v)},
            key=len,
            reverse=True,  # longest first, so a value containing another goes whole
        )
        self.window = max([MAX_MATCH, *(len(v) + 64 for v in self._env_values)])

    def spans(self, text: str, start: int = 0) -> list[tuple[int, int]]:
        """Sorted, merged ``(start, end)`` of every secret in matches from ``start`` on."""
        return _merge((s, e) for _, _, s, e in self.matches(text, start))

    def matches(self, text: str, start: int = 0) -> list[tuple[int, int, int, int]]:
        """``(match start, match end, secret start, secret end)`` of every format match."""
        found: list[tuple[int, int, int, int]] = []
        for value in self._env_values:
            i = text.find(value, start)
            while i != -1:
                found.append((i, i + len(value), i, i + len(value)))
                i = text.find(value, i + len(value))
        for scanner in _scanners():
            search = scanner.regex.search
            match = search(text, start)
            while match is not None:
                fmt, prefix = scanner.formats[match.lastgroup or ""]
                hit = Found(match, prefix)
                if fmt.follow:
                    then = _follow(fmt.follow).match(text, match.end())
                    hit = Found(match, prefix, then)
                if (not fmt.follow or hit.then is not None) and (
                    fmt.check is None or fmt.check(hit, text)
                ):
                    for s, e in _secret_spans(hit, fmt, text):
                        if e > s:
                            found.append((hit.start(), hit.end(), s, e))
                    match = search(text, hit.end())
                else:  # a rejected match may hide another that starts inside it
                    match = search(text, match.start() + 1)
        return found

    def text(self, text: str) -> str:
        """The string with every secret replaced by ``[REDACTED]``."""
        if not text:
            return text
        return _apply(text, self.spans(text))

    def value(self, value: Any) -> Any:
        """Redact strings inside dicts, lists and tuples; other values unchanged."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {k: self.value(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self.value(v) for v in value]
        return value

    def stream(self) -> StreamRedactor:
        """A redactor for text that arrives in chunks (spill files, shell logs)."""
        return StreamRedactor(self)

    def message(self, msg: Message) -> Message:
        """The at-rest copy of a message: secrets redacted, images untouched.

        A thinking block whose text changed keeps the redacted text and is
        marked with ``REDACTED_THINKING_SIGNATURE`` instead of the provider's
        signature: it can be shown again but is never sent back modified.
        """
        blocks = [self._block(b) for b in msg.content]
        if all(a is b for a, b in zip(blocks, msg.content, strict=True)):
            return msg
        return Message(role=msg.role, content=blocks)

    def _block(self, block: Any) -> Any:
        if isinstance(block, TextBlock):
            new = self.text(block.text)
            return block if new == block.text else TextBlock(new)
        if isinstance(block, ThinkingBlock):
            new = self.text(block.thinking)
            if new == block.thinking:
                return block
            return ThinkingBlock(new, REDACTED_THINKING_SIGNATURE)
        if isinstance(block, ToolUseBlock):
            new_input = self.value(block.input)
            return (
                block if new_input == block.input else ToolUseBlock(block.id, block.name, new_input)
            )
        if isinstance(block, ToolResultBlock):
            content = block.content
            if isinstance(content, str):
                new_content: Any = self.text(content)
            else:
                new_content = [
                    b if isinstance(b, ImageBlock) else TextBlock(self.text(b.text))
                    for b in content
                ]
            if new_content == content:
                return block
            return ToolResultBlock(block.tool_use_id, new_content, block.is_error)
        return block


class StreamRedactor:
    """Redacts a text written chunk by chunk: a secret split across chunks is still caught.

    Text is held back until ``window`` characters (more than any format can
    match) follow it, so every match starting in what is released was seen
    whole; a match across the release point holds the release back to its
    start. The last released characters stay as context for the left edges.
    """

    _CONTEXT = 256

    def __init__(self, redactor: Redactor) -> None:
        self._redactor = redactor
        self._window = redactor.window
        self._buf = ""  # context (already released) + pending text
        self._context = 0

    def feed(self, chunk: str) -> str:
        """Take the next chunk; return the redacted text that is now final (maybe "")."""
        self._buf += chunk
        if len(self._buf) - self._context < 2 * self._window:
            return ""  # batch small chunks: each character is scanned about twice at most
        return self._release(len(self._buf) - self._window)

    def flush(self) -> str:
        """Release everything held back (end of stream, or before someone reads the file)."""
        return self._release(len(self._buf))

    def pending(self) -> str:
        """What is held back, redacted as far as can be seen now; nothing is released.

        For a person watching the stream (its last lines on screen): a secret still
        arriving may show its first characters, as it would in their terminal.
        """
        buf, ctx = self._buf, self._context
        found = self._redactor.matches(buf, ctx)
        return _apply(buf[ctx:], _merge((max(s, ctx) - ctx, e - ctx) for _, _, s, e in found))

    def _release(self, cut: int) -> str:
        buf, ctx = self._buf, self._context
        found = self._redactor.matches(buf, ctx)
        # A match across the release point (its lead released, its secret not
        # yet) waits whole for the next round.
        while crossing := [ms for ms, me, _, _ in found if ms < cut < me]:
            cut = min(crossing)
        spans = _merge((max(s, ctx) - ctx, e - ctx) for _, me, s, e in found if me <= cut)
        out = _apply(buf[ctx:cut], spans)
        keep_from = max(0, cut - self._CONTEXT)
        self._buf = buf[keep_from:]
        self._context = cut - keep_from
        return out


def _env_secret(value: str) -> bool:
    if len(value) < _MIN_SECRET_LEN or value.isdigit():
        return False
    # A path (SSH_KEY_PATH, GOOGLE_APPLICATION_CREDENTIALS) says where a secret is, not what.
    return not (value.startswith(("/", "~/", "./")) and " " not in value)


def _merge(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for s, e in sorted(spans):
        if merged and s <= merged[-1][1]:
            if e > merged[-1][1]:
                merged[-1] = (merged[-1][0], e)
        else:
            merged.append((s, e))
    return merged


def _apply(text: str, spans: list[tuple[int, int]]) -> str:
    if not spans:
        return text
    parts = []
    pos = 0
    for s, e in spans:
        parts.append(text[pos:s])
        parts.append(REDACTED)
        pos = e
    parts.append(text[pos:])
    return "".join(parts)
