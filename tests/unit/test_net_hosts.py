"""Host normalisation: every spelling of a host reads as one host, and anything unclear is None."""

from __future__ import annotations

import ipaddress
import socket

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent_core.net.hosts import UrlProblem, domain_host, fetch_target, normal_host, url_host

SAME_HOST = [
    ("example.com", "example.com"),
    ("EXAMPLE.com", "example.com"),
    ("example.com.", "example.com"),
    ("example\uff0ecom", "example.com"),  # fullwidth full stop
    ("example\u3002com", "example.com"),  # ideographic full stop
    ("example\uff61com", "example.com"),  # halfwidth ideographic full stop
    ("example\u3002com\u3002", "example.com"),
    ("\uff45\uff58\uff41\uff4d\uff50\uff4c\uff45.com", "example.com"),  # fullwidth letters
    ("b\u00fccher.de", "xn--bcher-kva.de"),  # IDNA
    ("B\u00dcCHER.de", "xn--bcher-kva.de"),
    ("xn--bcher-kva.de", "xn--bcher-kva.de"),
    ("127.0.0.1", "127.0.0.1"),
    ("0x7f.1", "127.0.0.1"),
    ("0X7F.1", "127.0.0.1"),
    ("2130706433", "127.0.0.1"),
    ("127.1", "127.0.0.1"),
    ("127.0.1", "127.0.0.1"),
    ("0177.0.0.1", "127.0.0.1"),
    ("0x7f000001", "127.0.0.1"),
    ("0x7f.0.0.0x1", "127.0.0.1"),
    ("127\uff0e0\uff0e0\uff0e1", "127.0.0.1"),
    ("127.0.0.1.", "127.0.0.1"),
    ("0", "0.0.0.0"),
    ("169.254.169.254", "169.254.169.254"),
    ("0xa9fea9fe", "169.254.169.254"),
    ("::1", "::1"),
    ("[::1]", "::1"),
    ("0:0:0:0:0:0:0:1", "::1"),
    ("::ffff:127.0.0.1", "::ffff:7f00:1"),
    ("FD00:EC2::254", "fd00:ec2::254"),
    ("under_score.example", "under_score.example"),
    ("\u200bexample.com", "example.com"),  # IDNA drops a zero-width space, as browsers do
]


@pytest.mark.parametrize(("raw", "expected"), SAME_HOST)
def test_every_spelling_of_a_host_reads_as_one(raw: str, expected: str) -> None:
    assert normal_host(raw) == expected


UNREADABLE = [
    "",
    "08.0.0.1",  # not octal, not decimal: inet_aton refuses, a resolver might not
    "1.2.3.4.5",  # ends in a number, too many parts
    "256.0.0.1",
    "1.2.3.256",
    "0x100000000",
    "0xx.0",  # not hex digits
    "4294967296",
    "0x",  # zero to browsers, an error to glibc's inet_aton: ambiguous
    "127.0.0.0x",
    "foo.1",  # ends in a number, not an address
    "a..b",
    ".example.com",
    "example.com..",
    "exa mple.com",
    "example.com%2f",
    "127.0.0.%31",  # percent-encoded
    "fe80::1%eth0",  # an IPv6 zone
    "[127.0.0.1]",
    "[::1",
    "exa*mple.com",
    "exa/mple.com",
    "exa@mple.com",
    "a" * 64 + ".com",  # a label longer than 63
    "example.com\u3000",
]


@pytest.mark.parametrize("raw", UNREADABLE)
def test_a_host_that_cannot_be_read_exactly_is_none(raw: str) -> None:
    assert normal_host(raw) is None


@st.composite
def ipv4_spellings(draw: st.DrawFn) -> tuple[str, str]:
    """A 32-bit address split into 1-4 parts, each written in decimal, octal or hex."""
    value = draw(st.integers(0, 2**32 - 1))
    count = draw(st.integers(1, 4))
    octets = list(value.to_bytes(4, "big"))
    parts = [*octets[: count - 1], int.from_bytes(bytes(octets[count - 1 :]), "big")]
    written = []
    for part in parts:
        style = draw(st.sampled_from(["dec", "oct", "hex", "HEX"]))
        if style == "dec":
            written.append(str(part))
        elif style == "oct":
            written.append("0" + format(part, "o"))
        else:
            text = "0x" + format(part, "x")
            written.append(text.upper() if style == "HEX" else text)
    return ".".join(written), str(socket.inet_ntoa(value.to_bytes(4, "big")))


@given(ipv4_spellings())
def test_numeric_hosts_read_as_inet_aton_reads_them(case: tuple[str, str]) -> None:
    spelling, dotted = case
    assert normal_host(spelling) == dotted
    assert socket.inet_ntoa(socket.inet_aton(spelling)) == dotted


@given(st.text(alphabet="0123456789abcdefxX.", min_size=1, max_size=24))
def test_a_numeric_host_never_reads_as_another_address_than_inet_aton_gives(text: str) -> None:
    host = normal_host(text)
    try:  # a trailing dot only says the name is absolute; inet_aton does not take one
        packed = socket.inet_aton(text.removesuffix("."))
    except OSError:
        packed = None
    if packed is not None:
        assert host in (None, socket.inet_ntoa(packed))  # the same address, or refused
    if host is not None and _is_ipv4(host):
        assert packed is not None and socket.inet_ntoa(packed) == host


def _is_ipv4(text: str) -> bool:
    try:
        ipaddress.IPv4Address(text)
    except ValueError:
        return False
    return True


@given(st.text(max_size=20))
def test_any_text_is_a_canonical_host_or_none(text: str) -> None:
    host = normal_host(text)
    if host is not None:
        assert normal_host(host) == host  # canonical: reading it again changes nothing
        assert host.isascii() and host == host.lower()


def test_a_url_is_rebuilt_around_its_normalised_host() -> None:
    target = fetch_target("HTTP://0x7f.1:8080/a/b?q=1#frag")
    assert target == ("http://127.0.0.1:8080/a/b?q=1", "http", "127.0.0.1", 8080)
    assert fetch_target("https://[::1]/").url == "https://[::1]/"
    assert fetch_target("http://example\u3002com").url == "http://example.com/"
    assert url_host("http://B\u00dcCHER.de/") == "xn--bcher-kva.de"


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("file:///etc/passwd", "unsupported URL"),
        ("ftp://example.com/", "unsupported URL"),
        ("example.com/page", "unsupported URL"),
        ("http://user:pw@example.com/", "user name or password"),
        ("http://example.com@127.0.0.1/", "user name or password"),
        ("http://evil.com\\@127.0.0.1/", "backslash"),
        ("http://exa mple.com/", "space"),
        ("http:///path", "no host"),
        ("http://example.com:99999/", "invalid URL"),
        ("http://08.0.0.1/", "read exactly"),
    ],
)
def test_urls_that_will_not_be_fetched_say_why(url: str, why: str) -> None:
    with pytest.raises(UrlProblem, match=why):
        fetch_target(url)
    assert url_host(url) is None


def test_rule_domains_read_like_hosts() -> None:
    assert domain_host("domain:EXAMPLE\u3002com.") == ("example.com", False)
    assert domain_host("domain:*.example.com") == ("example.com", True)
    assert domain_host("domain:0x7f.1") == ("127.0.0.1", False)
    assert domain_host("domain:exa mple.com") is None
    assert domain_host("example.com") is None
