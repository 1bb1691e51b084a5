"""The session package loads its parts on first use: the event vocabulary names two of
its records, and must not pull in the store and the loader with them."""

from __future__ import annotations

import subprocess
import sys

import pytest

import agent_core.session as session_package


def test_every_exported_name_resolves_to_its_module() -> None:
    assert set(session_package.__all__) == set(session_package._HOMES)
    for name in session_package.__all__:
        assert getattr(session_package, name) is not None, name  # AttributeError if moved


@pytest.mark.slow
def test_importing_the_events_leaves_the_store_unloaded() -> None:
    code = (
        "import sys, agent_core.events\n"
        "loaded = [m for m in ('agent_core.session.store', 'agent_core.session.loader',"
        " 'agent_core.session.audit') if m in sys.modules]\n"
        "print(','.join(loaded))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == ""


def test_an_unknown_name_is_an_attribute_error() -> None:
    try:
        session_package.NoSuchThing  # noqa: B018
    except AttributeError as exc:
        assert "NoSuchThing" in str(exc)
    else:
        raise AssertionError("an unknown name resolved")
