"""Which IP addresses WebFetch refuses to connect to, unless a rule names the host.

A page the model was told to fetch must not become a way into the user's own
machine, network or cloud account: loopback, link-local, private (RFC 1918,
RFC 4193 ULA), carrier-grade NAT (100.64/10), unspecified, multicast, reserved
and cloud-metadata addresses are refused, and so is an IPv6 address that
carries one of those IPv4 addresses (mapped, 6to4, Teredo, NAT64). Only
addresses that are globally routable pass. Pure: addresses in, a reason out.
"""

from __future__ import annotations

import ipaddress

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

# Instance-metadata services: credentials of the machine's cloud account. Some of these
# pass Python's is_global (Oracle's 192.0.0.192), so they are listed by address too.
METADATA_ADDRESSES = frozenset(
    ipaddress.ip_address(a)
    for a in ("169.254.169.254", "169.254.170.2", "fd00:ec2::254", "100.100.100.200", "192.0.0.192")
)
METADATA_NAMES = frozenset({
    "metadata", "metadata.google.internal", "metadata.goog", "metadata.azure.com",
    "instance-data", "instance-data.ec2.internal",
})  # fmt: skip
_SHARED = ipaddress.ip_network("100.64.0.0/10")
_NAT64 = (ipaddress.ip_network("64:ff9b::/96"), ipaddress.ip_network("64:ff9b:1::/48"))


def _embedded_ipv4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 one stands for (mapped, 6to4, Teredo client, NAT64)."""
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip.teredo is not None:
        return ip.teredo[1]
    if any(ip in net for net in _NAT64):
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


def address_problem(ip: IPAddress) -> str | None:
    """Why WebFetch must not connect to ``ip`` ("loopback", ...); None for a public address."""
    if ip in METADATA_ADDRESSES:
        return "cloud metadata"
    if isinstance(ip, ipaddress.IPv6Address):
        inner = _embedded_ipv4(ip)
        if inner is not None and (problem := address_problem(inner)):
            return problem
        if ip.is_site_local:
            return "site-local"
    checks = (
        ("unspecified", ip.is_unspecified),
        ("loopback", ip.is_loopback),
        ("link-local", ip.is_link_local),
        ("carrier-grade NAT", isinstance(ip, ipaddress.IPv4Address) and ip in _SHARED),
        ("private", ip.is_private),
        ("multicast", ip.is_multicast),
        ("reserved", ip.is_reserved),
        ("not a public address", not ip.is_global),
    )
    return next((name for name, hit in checks if hit), None)


def name_problem(host: str) -> str | None:
    """Why a host name is refused before it is even resolved (a metadata service's name)."""
    return "cloud metadata" if host in METADATA_NAMES else None
