"""One reading of a URL's host, shared by the permission rules and the fetch itself.

A rule ``WebFetch(domain:example.com)`` must mean the host the fetch really
connects to, however the model spells it: IDNA (Unicode to punycode), the
fullwidth and ideographic full stops that IDNA treats as dots, a trailing dot,
case, and the numeric IPv4 forms ``inet_aton`` and browsers accept (``0x7f.1``,
``2130706433``, ``127.1``, ``0177.0.0.1``). Anything this module cannot read
exactly is refused (None), never guessed: the fetch connects to the host as read
here, so the rules and the connection cannot disagree.

Pure: no DNS, no sockets. ``idna`` is imported only for a non-ASCII host.
"""

from __future__ import annotations

import ipaddress
import re
from typing import NamedTuple
from urllib.parse import urlsplit, urlunsplit

# U+3002 ideographic, U+FF0E fullwidth and U+FF61 halfwidth ideographic full stops.
_DOTS = str.maketrans({"\u3002": ".", "\uff0e": ".", "\uff61": "."})
_LABEL = re.compile(r"[a-z0-9_-]{1,63}")
_ENDS_IN_NUMBER = re.compile(r"[0-9]+|0x[0-9a-f]*")  # WHATWG: then it must be an IPv4 address
_MAX_HOST = 253
_HEX = frozenset("0123456789abcdef")
SCHEMES = ("http", "https")


class UrlProblem(ValueError):
    """A URL that WebFetch will not fetch; the message says why, in one line."""


class FetchTarget(NamedTuple):
    """A URL as it will be fetched: rebuilt around its normalised host."""

    url: str  # scheme://host[:port]/path?query (no user info, no fragment)
    scheme: str
    host: str  # normal_host(): lower-case A-labels, dotted-decimal IPv4 or compressed IPv6
    port: int | None


def normal_host(raw: str) -> str | None:
    """The host ``raw`` names, in one canonical spelling; None when it cannot be read exactly."""
    if not raw or len(raw) > 2 * _MAX_HOST or "%" in raw:
        return None  # "%": a percent-encoded host or an IPv6 zone: refused, not decoded
    if raw.startswith("[") and raw.endswith("]"):
        raw = raw[1:-1]
        if ":" not in raw:
            return None
    if ":" in raw:
        try:
            return ipaddress.IPv6Address(raw).compressed
        except ValueError:
            return None
    host = raw.translate(_DOTS)
    host = host.removesuffix(".")
    if not host.isascii():
        host = _idna(host) or ""
    host = host.lower()
    labels = host.split(".")
    if len(host) > _MAX_HOST or not all(_LABEL.fullmatch(label) for label in labels):
        return None
    if _ENDS_IN_NUMBER.fullmatch(labels[-1]):
        return _ipv4(labels)
    return host


def _idna(host: str) -> str | None:
    import idna

    try:
        return idna.encode(host, uts46=True, transitional=False).decode("ascii")
    except (idna.IDNAError, UnicodeError, ValueError):
        return None


def _ipv4_part(label: str) -> int | None:
    """One part as inet_aton reads it: 0x hex, 0-led octal, else decimal. A bare "0x" is
    zero to browsers and an error to glibc: ambiguous, so None."""
    if label.startswith("0x"):
        digits = label[2:]
        return int(digits, 16) if digits and all(c in _HEX for c in digits) else None
    if len(label) > 1 and label.startswith("0"):
        return int(label, 8) if all(c in "01234567" for c in label) else None
    return int(label) if label.isascii() and label.isdigit() else None


def _ipv4(labels: list[str]) -> str | None:
    """Dotted decimal for 1 to 4 numeric parts (the last fills the remaining bytes)."""
    if len(labels) > 4:
        return None
    parts = [_ipv4_part(label) for label in labels]
    if any(p is None for p in parts):
        return None
    numbers = [p for p in parts if p is not None]
    *head, last = numbers
    if any(p > 255 for p in head) or last >= 256 ** (5 - len(numbers)):
        return None
    value = last
    for index, part in enumerate(head):
        value += part << (8 * (3 - index))
    return str(ipaddress.IPv4Address(value))


def fetch_target(url: str) -> FetchTarget:
    """The URL WebFetch would fetch, or UrlProblem saying why it will not."""
    text = url.strip()
    if any(c == "\\" or ord(c) <= 0x20 or ord(c) == 0x7F for c in text):
        raise UrlProblem(
            f"invalid URL {text!r}: it holds a backslash, a space or a control character"
        )
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as exc:
        raise UrlProblem(f"invalid URL {text!r}: {exc}") from None
    scheme = parts.scheme.lower()
    if scheme not in SCHEMES:
        shown = f"{scheme}:" if scheme else "no scheme"
        raise UrlProblem(
            f"unsupported URL ({shown}): only http:// and https:// URLs can be fetched"
        )
    if "@" in parts.netloc:
        raise UrlProblem(f"invalid URL {text!r}: a user name or password in a URL is refused")
    if not parts.hostname:
        raise UrlProblem(f"invalid URL {text!r}: it has no host")
    host = normal_host(parts.hostname)
    if host is None:
        raise UrlProblem(
            f"invalid URL {text!r}: {parts.hostname!r} is not a host name or IP address"
            " that can be read exactly"
        )
    netloc = f"[{host}]" if ":" in host else host
    if port is not None:
        netloc += f":{port}"
    return FetchTarget(
        urlunsplit((scheme, netloc, parts.path or "/", parts.query, "")), scheme, host, port
    )


def url_host(url: str) -> str | None:
    """The normalised host a URL would be fetched from; None when it would not be fetched."""
    try:
        return fetch_target(url).host
    except UrlProblem:
        return None


def domain_host(spec: str) -> tuple[str, bool] | None:
    """A rule's ``domain:HOST`` or ``domain:*.HOST`` as (normal host, subdomains only)."""
    if not spec.startswith("domain:"):
        return None
    domain = spec[len("domain:") :].strip()
    wildcard = domain.startswith("*.")
    host = normal_host(domain[2:] if wildcard else domain)
    return (host, wildcard) if host is not None else None
