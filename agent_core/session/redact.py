"""Keep secrets out of sessions and the audit log.

Two sources: the values of environment variables whose names say they are
secret, and text that looks like a credential (``sk-...``, ``Bearer ...``,
``api_key=...``). Both become ``[REDACTED]``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any

from agent_core.messages import (
    ImageBlock,
    Message,
    TextBlock,
    ToolResultBlock,
    ToolUseBlock,
)

REDACTED = "[REDACTED]"
_SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|PASSWD", re.IGNORECASE)
# Shorter values ("1", "true") would redact ordinary words.
_MIN_SECRET_LEN = 6

_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\bsk-(?:ant-)?[A-Za-z0-9_\-]{8,}"), REDACTED),
    (re.compile(r"\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=\-]{8,}", re.IGNORECASE), r"\1 " + REDACTED),
    # name=value / name: value where the name says it is a secret; "tokens" (a count) is not.
    (
        re.compile(
            r"(?i)\b([\w.-]*(?:api[_-]?key|token(?!s)|secret|password|passwd)[\w.-]*)"
            r"(\"?\s*[=:]\s*)([\"']?)(?![\"']?\[REDACTED\])[^\s\"'&,;]+"
        ),
        r"\1\2\3" + REDACTED,
    ),
)


class Redactor:
    """Replaces secrets in strings and nested JSON-like values."""

    def __init__(self, env: Mapping[str, str] | None = None, *, assignments: bool = True) -> None:
        """``assignments=False`` skips the ``name=value`` rule, which can hit ordinary code."""
        env = os.environ if env is None else env
        self._patterns = _PATTERNS if assignments else _PATTERNS[:2]
        values = sorted(
            {v for k, v in env.items() if _SECRET_NAME.search(k) and len(v) >= _MIN_SECRET_LEN},
            key=len,
            reverse=True,  # longest first, so a value containing another goes whole
        )
        self._env_values = re.compile("|".join(map(re.escape, values))) if values else None

    def text(self, text: str) -> str:
        """The string with every secret replaced by ``[REDACTED]``."""
        if self._env_values is not None:
            text = self._env_values.sub(REDACTED, text)
        for pattern, repl in self._patterns:
            text = pattern.sub(repl, text)
        return text

    def value(self, value: Any) -> Any:
        """Redact strings inside dicts, lists and tuples; other values unchanged."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {k: self.value(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self.value(v) for v in value]
        return value

    def message(self, msg: Message) -> Message:
        """A copy of the message with secrets redacted (thinking and images untouched).

        Thinking blocks are signed by the provider; changing them would make
        the history invalid.
        """
        blocks = [self._block(b) for b in msg.content]
        if all(a is b for a, b in zip(blocks, msg.content, strict=True)):
            return msg
        return Message(role=msg.role, content=blocks)

    def _block(self, block: Any) -> Any:
        if isinstance(block, TextBlock):
            new = self.text(block.text)
            return block if new == block.text else TextBlock(new)
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
