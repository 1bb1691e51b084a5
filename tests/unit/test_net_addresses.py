"""Which addresses WebFetch refuses, and that each connection uses the address it checked."""

from __future__ import annotations

import ipaddress

import httpcore2
import pytest

from agent_core.net.addresses import address_problem
from agent_core.net.checked_transport import AddressRefused, CheckedBackend, refusal

REFUSED = [
    ("127.0.0.1", "loopback"),
    ("127.255.255.254", "loopback"),
    ("::1", "loopback"),
    ("0.0.0.0", "unspecified"),
    ("::", "unspecified"),
    ("169.254.169.254", "cloud metadata"),
    ("169.254.170.2", "cloud metadata"),  # ECS task credentials
    ("fd00:ec2::254", "cloud metadata"),
    ("100.100.100.200", "cloud metadata"),  # Alibaba
    ("192.0.0.192", "cloud metadata"),  # Oracle: Python calls it global
    ("169.254.1.1", "link-local"),
    ("fe80::1", "link-local"),
    ("10.1.2.3", "private"),
    ("172.16.0.1", "private"),
    ("172.31.255.255", "private"),
    ("192.168.1.1", "private"),
    ("fc00::1", "private"),  # RFC 4193 ULA
    ("fd12:3456::1", "private"),
    ("100.64.0.1", "carrier-grade NAT"),
    ("100.127.255.254", "carrier-grade NAT"),
    ("224.0.0.1", "multicast"),
    ("ff02::1", "multicast"),
    ("240.0.0.1", "private"),
    ("fec0::1", "site-local"),
    ("192.0.2.1", "private"),  # documentation
    ("::ffff:127.0.0.1", "loopback"),  # IPv4-mapped
    ("::ffff:169.254.169.254", "cloud metadata"),
    ("2002:7f00:1::", "loopback"),  # 6to4 of 127.0.0.1
    ("2002:c0a8:101::", "private"),  # 6to4 of 192.168.1.1
    ("64:ff9b::a9fe:a9fe", "cloud metadata"),  # NAT64 of 169.254.169.254
    ("64:ff9b::7f00:1", "loopback"),
    ("2001:0:4136:e378:8000:63bf:80ff:fffe", "loopback"),  # Teredo, client 127.0.0.1
    ("::7f00:1", "reserved"),  # IPv4-compatible (deprecated)
]


@pytest.mark.parametrize(("address", "problem"), REFUSED)
def test_non_public_addresses_are_refused(address: str, problem: str) -> None:
    assert address_problem(ipaddress.ip_address(address)) == problem


@pytest.mark.parametrize("address", ["93.184.216.34", "8.8.8.8", "1.1.1.1", "2606:4700::1111"])
def test_public_addresses_pass(address: str) -> None:
    assert address_problem(ipaddress.ip_address(address)) is None


def test_the_refusal_names_the_host_and_every_address_is_checked() -> None:
    assert (
        refusal("a.test", ["93.184.216.34", "10.0.0.1"]) == "a.test resolves to 10.0.0.1 (private)"
    )
    assert refusal("127.0.0.1", ["127.0.0.1"]) == "127.0.0.1 is a loopback address"
    assert refusal("metadata.google.internal", ["93.184.216.34"]) == (
        "metadata.google.internal is a cloud metadata service"
    )
    assert refusal("a.test", ["93.184.216.34"]) is None


class _Inner(httpcore2.AsyncNetworkBackend):
    """Records where connections go; refuses the addresses in ``down``."""

    def __init__(self, down: frozenset[str] = frozenset()) -> None:
        self.connected: list[str] = []
        self.down = down

    async def connect_tcp(self, host, port, timeout=None, local_address=None, socket_options=None):
        self.connected.append(host)
        if host in self.down:
            raise httpcore2.ConnectError("connection refused")
        return httpcore2.AsyncNetworkStream()


class _Dns:
    """A resolver that answers from a list of answers, one per lookup (a rebinding DNS)."""

    def __init__(self, *answers: list[str]) -> None:
        self.answers = list(answers)
        self.lookups = 0

    async def __call__(self, host: str, port: int) -> list[str]:
        self.lookups += 1
        return self.answers.pop(0)


async def test_a_connection_goes_to_the_address_that_was_checked() -> None:
    dns = _Dns(["93.184.216.34"], ["127.0.0.1"])  # a second lookup would get loopback
    inner = _Inner()
    backend = CheckedBackend(frozenset(), dns, inner)
    await backend.connect_tcp("rebind.test", 80)
    assert inner.connected == ["93.184.216.34"] and dns.lookups == 1
    with pytest.raises(AddressRefused, match="rebind.test resolves to 127.0.0.1"):
        await backend.connect_tcp("rebind.test", 80)  # the next connection is checked again
    assert inner.connected == ["93.184.216.34"]


async def test_one_bad_address_among_good_ones_refuses_the_host() -> None:
    inner = _Inner()
    backend = CheckedBackend(frozenset(), _Dns(["93.184.216.34", "169.254.169.254"]), inner)
    with pytest.raises(AddressRefused, match="cloud metadata"):
        await backend.connect_tcp("mixed.test", 80)
    assert inner.connected == []


async def test_a_host_a_rule_names_may_be_private_and_each_address_is_tried() -> None:
    inner = _Inner(down=frozenset({"::1"}))
    backend = CheckedBackend(frozenset({"localhost"}), _Dns(["::1", "127.0.0.1"]), inner)
    await backend.connect_tcp("localhost", 80)
    assert inner.connected == ["::1", "127.0.0.1"]


async def test_an_address_literal_is_not_looked_up() -> None:
    dns = _Dns()
    backend = CheckedBackend(frozenset(), dns, _Inner())
    with pytest.raises(AddressRefused, match="loopback"):
        await backend.connect_tcp("127.0.0.1", 80)
    assert dns.lookups == 0


async def test_unix_sockets_are_never_connected() -> None:
    with pytest.raises(AddressRefused):
        await CheckedBackend(frozenset(), _Dns(), _Inner()).connect_unix_socket("/run/docker.sock")
