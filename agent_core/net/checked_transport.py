"""An httpx transport that connects only to addresses it has checked.

Each new connection resolves its host once, refuses it when any address it
resolves to is not public (addresses.py) unless the user's rules name that host
exactly, and then connects to the very address it checked: there is no second
lookup for a rebinding DNS server to answer differently. Redirects, keep-alive
and TLS stay httpx's and httpcore's (TLS still verifies the host name). There
is no proxy and no Unix socket: a connection MewCode cannot check is not made.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import socket
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Iterable, Iterator
from typing import Any

import httpcore2
import httpx2 as httpx

from agent_core.net.addresses import address_problem, name_problem

Resolver = Callable[[str, int], Awaitable[list[str]]]


class AddressRefused(Exception):
    """A connection WebFetch will not make; the message names the host, address and reason."""


async def system_addresses(host: str, port: int) -> list[str]:
    """The addresses the system resolver gives for ``host``, in its order, each once."""
    infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def refusal(host: str, addresses: Iterable[str]) -> str | None:
    """Why ``host`` must not be reached at ``addresses`` (every one is checked), or None."""
    if problem := name_problem(host):
        return f"{host} is a {problem} service"
    for address in addresses:
        problem = address_problem(ipaddress.ip_address(address.split("%", 1)[0]))
        if problem is None:
            continue
        if address != host:
            return f"{host} resolves to {address} ({problem})"
        return (
            f"{host} is {problem}"
            if problem.startswith("not ")
            else f"{host} is a {problem} address"
        )
    return None


class CheckedBackend(httpcore2.AsyncNetworkBackend):
    """httpcore's network backend, with every TCP connection checked and pinned."""

    def __init__(
        self,
        named_hosts: Collection[str],
        resolve: Resolver = system_addresses,
        inner: httpcore2.AsyncNetworkBackend | None = None,
    ) -> None:
        self.named_hosts = frozenset(named_hosts)
        self.resolve = resolve
        self.inner = inner or httpcore2.AnyIOBackend()

    async def addresses(self, host: str, port: int, timeout: float | None) -> list[str]:
        """The addresses to try for ``host``, every one checked; raises AddressRefused."""
        try:
            addresses = [str(ipaddress.ip_address(host))]
        except ValueError:
            try:
                addresses = await asyncio.wait_for(self.resolve(host, port), timeout)
            except TimeoutError:
                raise httpcore2.ConnectTimeout(f"resolving {host} timed out") from None
            except OSError as exc:
                raise httpcore2.ConnectError(
                    f"cannot resolve {host}: {exc.strerror or exc}"
                ) from None
        if not addresses:
            raise httpcore2.ConnectError(f"cannot resolve {host}: no address")
        if host not in self.named_hosts and (why := refusal(host, addresses)):
            raise AddressRefused(
                f"{why}: refused unless a rule names it, e.g. WebFetch(domain:{host})"
            )
        return addresses

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore2.AsyncNetworkStream:
        failure: Exception | None = None
        for address in await self.addresses(host, port, timeout):
            try:
                return await self.inner.connect_tcp(
                    address,
                    port,
                    timeout=timeout,
                    local_address=local_address,
                    socket_options=socket_options,
                )
            except (httpcore2.ConnectError, httpcore2.ConnectTimeout) as exc:
                failure = exc  # the next checked address (localhost: ::1, then 127.0.0.1)
        assert failure is not None
        raise failure

    async def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[Any] | None = None
    ) -> httpcore2.AsyncNetworkStream:
        raise AddressRefused(f"a Unix socket ({path}) is never connected to")

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


@contextlib.contextmanager
def _as_httpx_errors(request: httpx.Request) -> Iterator[None]:
    """httpcore's exceptions as the httpx ones callers catch (AddressRefused passes)."""
    try:
        yield
    except httpcore2.TimeoutException as exc:
        raise httpx.TimeoutException(str(exc) or type(exc).__name__, request=request) from exc
    except (
        httpcore2.NetworkError,
        httpcore2.ProtocolError,
        httpcore2.UnsupportedProtocol,
        httpcore2.ProxyError,
    ) as exc:
        raise httpx.TransportError(str(exc) or type(exc).__name__, request=request) from exc


class _Body(httpx.AsyncByteStream):
    def __init__(self, stream: Any, request: httpx.Request) -> None:
        self._stream = stream
        self._request = request

    async def __aiter__(self) -> AsyncIterator[bytes]:
        with _as_httpx_errors(self._request):
            async for part in self._stream:
                yield part

    async def aclose(self) -> None:
        if hasattr(self._stream, "aclose"):
            await self._stream.aclose()


class CheckedTransport(httpx.AsyncBaseTransport):
    """Direct HTTP/1.1 connections through ``CheckedBackend``."""

    def __init__(self, named_hosts: Collection[str], resolve: Resolver = system_addresses) -> None:
        self._pool = httpcore2.AsyncConnectionPool(
            ssl_context=httpx.create_ssl_context(),
            network_backend=CheckedBackend(named_hosts, resolve),
            retries=0,
        )

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        core = httpcore2.Request(
            method=request.method,
            url=httpcore2.URL(
                scheme=request.url.raw_scheme,
                host=request.url.raw_host,
                port=request.url.port,
                target=request.url.raw_path,
            ),
            headers=request.headers.raw,
            content=request.stream,
            extensions=request.extensions,
        )
        with _as_httpx_errors(request):
            response = await self._pool.handle_async_request(core)
        return httpx.Response(
            status_code=response.status,
            headers=response.headers,
            stream=_Body(response.stream, request),
            extensions=response.extensions,
        )

    async def aclose(self) -> None:
        await self._pool.aclose()
