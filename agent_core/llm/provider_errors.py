"""Map vendor SDK and HTTP failures to one ProviderError with a one-line, human message."""

from __future__ import annotations

import email.utils
import re
import time
from types import ModuleType
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from agent_core.errors import ProviderError

_TOO_LONG = re.compile(
    r"prompt is too long|context[ _]length|maximum context|context window|too many tokens"
    r"|input is too long|reduce the length",
    re.IGNORECASE,
)
# Error types an API reports inside an already-started stream (HTTP status 200).
_TYPE_STATUS = {
    "overloaded_error": 529,
    "rate_limit_error": 429,
    "api_error": 500,
    "server_error": 500,
    "authentication_error": 401,
    "permission_error": 403,
    "invalid_request_error": 400,
    "not_found_error": 404,
}
MAX_DETAIL = 200
TOO_LONG = (
    "the prompt is too long for the model's context window: run /compact to summarise the "
    "conversation, or /clear to start afresh"
)


def dropped() -> ProviderError:
    """The stream ended before the API said the answer was complete."""
    return ProviderError("stream_dropped", "the connection dropped mid-answer", retryable=True)


def connection_error(base_url: str, *, timed_out: bool = False) -> ProviderError:
    reason = " (timed out)" if timed_out else ""
    return ProviderError(
        "connection", f"cannot reach {public_url(base_url)}{reason}", retryable=True
    )


def public_url(url: str) -> str:
    """``url`` without any user:password part, fit to show a person."""
    parts = urlsplit(str(url))
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path.rstrip("/"), "", "")) or str(url)


def one_line(text: str, secret: str | None = None) -> str:
    """Collapse whitespace, hide the API key, cap the length."""
    line = " ".join(str(text).split())
    if secret:
        line = line.replace(secret, "***")
    return line if len(line) <= MAX_DETAIL else line[: MAX_DETAIL - 1] + "…"


def error_fields(body: object) -> tuple[str, str | None, str | None]:
    """(message, type, code) from an Anthropic or OpenAI error body."""
    if isinstance(body, dict):
        inner: Any = body.get("error", body)
        if isinstance(inner, dict):
            code = inner.get("code")
            return str(inner.get("message") or ""), inner.get("type"), code and str(code)
        if isinstance(inner, str):
            return inner, None, None
    if isinstance(body, str):
        return body, None, None
    return "", None, None


def retry_after_seconds(headers: Any) -> float | None:
    """The wait a server asked for, from retry-after-ms or retry-after (seconds or HTTP date)."""
    if headers is None:
        return None
    try:
        if ms := headers.get("retry-after-ms"):
            return float(ms) / 1000
        value = headers.get("retry-after")
        if not value:
            return None
        try:
            return float(value)
        except ValueError:
            when = email.utils.parsedate_to_datetime(value)
            return max(0.0, when.timestamp() - time.time())
    except (TypeError, ValueError):
        return None


def status_error(
    status: int | None,
    message: str,
    error_type: str | None = None,
    code: str | None = None,
    *,
    key_env: str,
    retry_after: float | None = None,
) -> ProviderError:
    """The ProviderError for an HTTP status (or an in-stream error type when status is 200)."""
    if status in (None, 200) and error_type:
        status = _TYPE_STATUS.get(error_type, 500)
    status = status or 500
    detail = message or error_type or f"HTTP {status}"

    def make(kind: str, text: str, retryable: bool = False) -> ProviderError:
        return ProviderError(
            kind, text, retryable=retryable, status=status, retry_after=retry_after
        )

    if status in (401, 403):
        return make("auth", f"authentication failed: check {key_env}")
    if status == 429:
        return make("rate_limit", "rate limited", True)
    if status == 529 or error_type == "overloaded_error":
        return make("overloaded", "the API is overloaded", True)
    if status in (400, 413) and (_TOO_LONG.search(message) or code == "context_length_exceeded"):
        return make("context_too_long", TOO_LONG)
    if status >= 500:
        return make("server", f"the API had a server error ({status})", True)
    if status in (408, 409):
        return make("server", f"the API asked us to try again ({status})", True)
    if status == 404:
        return make("bad_request", f"model or endpoint not found: {detail}")
    if status == 400:
        return make("bad_request", f"the API rejected the request: {detail}")
    return make("bad_request", f"the API returned {status}: {detail}")


def from_sdk(
    exc: BaseException,
    sdk: ModuleType,
    *,
    key_env: str,
    base_url: str,
    secret: str | None,
    streaming: bool,
) -> ProviderError:
    """Map an exception raised by the ``anthropic`` / ``openai`` SDK (or httpx under it).

    ``streaming`` says the response had already started: a transport failure then
    means the answer was cut off, not that the server could not be reached.
    """
    if isinstance(exc, ProviderError):
        return exc
    if isinstance(exc, sdk.APIStatusError):
        message, kind, code = error_fields(exc.body)
        headers = getattr(exc.response, "headers", None)
        err = status_error(exc.status_code, one_line(message, secret), kind, code,
                           key_env=key_env, retry_after=retry_after_seconds(headers))  # fmt: skip
        return err
    if isinstance(exc, sdk.APIConnectionError) or _is_transport(exc):
        if streaming:
            return dropped()
        return connection_error(base_url, timed_out=isinstance(exc, sdk.APITimeoutError))
    if isinstance(exc, sdk.APIError):  # an error event inside the stream, without a status
        message, kind, code = error_fields(exc.body)
        return status_error(None, one_line(message or str(exc), secret), kind or "api_error",
                            code, key_env=key_env)  # fmt: skip
    detail = one_line(str(exc) or type(exc).__name__, secret)
    return ProviderError("unknown", f"unexpected error from the API client: {detail}")


def _is_transport(exc: BaseException) -> bool:
    # httpx2.TransportError and friends, without importing httpx2 here.
    return any(
        c.__name__ in ("TransportError", "StreamError") for c in type(exc).__mro__
    ) or isinstance(exc, ConnectionError)
