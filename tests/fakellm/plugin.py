"""Pytest plugin: the ``fake_llm`` fixture (a started FakeLLMServer, stopped after the test)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fakellm.server import FakeLLMServer


@pytest.fixture
def fake_llm() -> Iterator[FakeLLMServer]:
    """A fake LLM server on an ephemeral 127.0.0.1 port with an empty script."""
    server = FakeLLMServer().start()
    try:
        yield server
    finally:
        server.stop()
