"""One exception family for errors a person can act on (one-line messages)."""

from __future__ import annotations


class MewCodeError(Exception):
    """A user-facing error with a one-line, human-readable message."""


class ConfigError(MewCodeError):
    """A settings or configuration file is invalid; names the file and problem."""


class ProviderError(MewCodeError):
    """Any failure talking to an LLM provider, mapped to one type.

    kind: auth | rate_limit | overloaded | context_too_long | bad_request |
          connection | server | stream_dropped | not_configured | unknown
    """

    def __init__(
        self,
        kind: str,
        message: str,
        *,
        retryable: bool = False,
        status: int | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.retryable = retryable
        self.status = status
        self.retry_after = retry_after  # seconds the server asked us to wait, if it said


class ChannelClosed(MewCodeError):
    """The consumer of a rendezvous channel went away or the turn was cancelled."""
