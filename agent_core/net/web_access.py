"""What WebFetch may reach in one session, handed to the tool through its context."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class WebAccess:
    """Whether the network is on (``sandbox.network``), and which hosts the user's allow
    rules name exactly: only those may be loopback, private or metadata addresses.

    ``named_hosts`` is asked at each fetch, so a rule granted mid-session counts.
    """

    network: bool = True
    named_hosts: Callable[[], frozenset[str]] = frozenset
