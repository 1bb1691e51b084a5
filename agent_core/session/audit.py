"""The audit log: who decided what about each tool call, and what ran.

One JSON line per entry, fsynced, secrets redacted. Kinds used by the runtime:

- ``decision``: call_id, tool, input (summary), decision, layer, reason, rule, who
  (``engine`` / ``user`` / ``hook``)
- ``exec``: call_id, tool, command, exit_code, duration_ms, is_error
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import msgspec

from agent_core.session.journal import AppendOnlyFile
from agent_core.session.records import utc_now
from agent_core.session.redact import Redactor

_encoder = msgspec.json.Encoder()
# Long inputs (file contents in Write) do not belong in an audit line.
_MAX_STR = 2_000


class AuditLog:
    """An append-only, fsynced, redacted JSONL audit file."""

    def __init__(self, path: Path, *, env: Mapping[str, str] | None = None) -> None:
        self.path = path
        self._redactor = Redactor(env)
        self._file: AppendOnlyFile | None = None

    def write(self, kind: str, **fields: Any) -> None:
        """Append one entry ``{"ts", "kind", **fields}`` durably."""
        if self._file is None:
            self._file = AppendOnlyFile(self.path)
        entry = {"ts": utc_now(), "kind": kind}
        # Redact before shortening: a cut could split a secret so no pattern sees it.
        entry.update(_shorten(self._redactor.value(_plain(fields))))
        self._file.append(_encoder.encode(entry) + b"\n")

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def _plain(value: Any) -> Any:
    """JSON-ready data: containers kept, unknown objects as their str()."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return str(value)


def _shorten(value: Any) -> Any:
    if isinstance(value, str) and len(value) > _MAX_STR:
        return value[:_MAX_STR] + f"... [{len(value) - _MAX_STR} more chars]"
    if isinstance(value, dict):
        return {k: _shorten(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_shorten(v) for v in value]
    return value
