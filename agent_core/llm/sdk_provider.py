"""What the vendor-SDK providers share: a lazily built client, retries, closing.

The SDK is imported and its client built in a thread (``import anthropic`` alone
takes about a second), on ``warm()`` or the first ``stream()``, so start-up
stays fast; the TUI warms the provider after its first frame.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator
from typing import Any, Protocol

from agent_core.errors import ProviderError
from agent_core.llm import provider_errors
from agent_core.llm.base import ChatRequest, StreamEvent
from agent_core.llm.retry import with_retries


class StreamAssembler(Protocol):
    """Turns one vendor's stream items into provider-neutral events."""

    @property
    def complete(self) -> bool:
        """The whole answer has arrived (a cut after this point loses nothing)."""
        ...

    def feed(self, item: Any) -> list[StreamEvent]: ...

    def finish(self) -> list[StreamEvent]:
        """Events held back until the stream is complete."""
        ...


class SDKProvider(ABC):
    """Base for providers built on an official SDK; subclasses add the wire details."""

    name = ""
    default_base_url = ""

    def __init__(
        self,
        model: str,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        retries: int = 4,
        backoff_base: float = 1.0,
        api_key_env: str = "",
    ) -> None:
        self.model = model
        self.retries = retries
        self.backoff_base = backoff_base
        self._api_key = api_key
        self._base_url = base_url
        self._key_env = api_key_env
        self._client: Any = None
        self._sdk: Any = None
        self._client_lock = asyncio.Lock()  # parallel first requests build one client

    async def warm(self) -> None:
        """Import the SDK and build the client now (in a thread), once."""
        if self._client is None:
            async with self._client_lock:
                if self._client is None:
                    await asyncio.to_thread(self._make_client)

    async def stream(self, request: ChatRequest) -> AsyncIterator[StreamEvent]:
        await self.warm()
        params = self._build_params(request)
        attempts = with_retries(
            lambda: self._attempt(params), retries=self.retries, backoff_base=self.backoff_base
        )
        async for event in attempts:
            yield event

    async def aclose(self) -> None:
        """Close the HTTP client (its connections belong to the running event loop)."""
        client, self._client = self._client, None
        if client is not None:
            await client.close()

    @property
    def base_url(self) -> str:
        if self._client is not None:
            return str(self._client.base_url)
        return self._base_url or self.default_base_url

    def _error(self, exc: BaseException, *, streaming: bool) -> ProviderError:
        """Any SDK failure as one ProviderError with a human message (never the key)."""
        return provider_errors.from_sdk(
            exc,
            self._sdk,
            key_env=self._key_env,
            base_url=self.base_url,
            secret=self._api_key or getattr(self._client, "api_key", None),
            streaming=streaming,
        )

    # --- for subclasses ------------------------------------------------------

    @abstractmethod
    def _make_client(self) -> None:
        """Import the SDK and build ``self._client`` (runs in a worker thread)."""

    @abstractmethod
    def _build_params(self, request: ChatRequest) -> dict[str, Any]:
        """The vendor's request parameters for a provider-neutral request."""

    @abstractmethod
    async def _open(self, params: dict[str, Any]) -> Any:
        """Send the request; the SDK's async stream of the answer."""

    @abstractmethod
    def _assembler(self) -> StreamAssembler:
        """A fresh assembler for one answer."""

    async def _attempt(self, params: dict[str, Any]) -> AsyncIterator[StreamEvent]:
        """One streaming request, mapped to provider-neutral stream events."""
        try:
            response = await self._open(params)
        except Exception as exc:
            raise self._error(exc, streaming=False) from exc
        assembler = self._assembler()
        try:
            async with response:
                async for item in response:
                    for out in assembler.feed(item):
                        yield out
        except Exception as exc:
            if not assembler.complete:
                raise self._error(exc, streaming=True) from exc
        if not assembler.complete:
            raise provider_errors.dropped()
        for out in assembler.finish():
            yield out
