"""The first-run form's check: each way to start needs its fields, and says which is wrong."""

from __future__ import annotations

import pytest

from agent_core.errors import ConfigError
from mewcode_tui.screens.setup import SetupChoice
from mewcode_tui.setup_methods import COMPATIBLE, setup_methods, validate_choice

METHODS = {m.key: m for m in setup_methods()}


@pytest.mark.parametrize(
    ("method", "api_key", "base_url", "model", "expected"),
    [
        ("anthropic", " sk-ant-1 ", "", "", SetupChoice("anthropic", api_key="sk-ant-1")),
        ("demo", "", "", "", SetupChoice("demo")),
        (
            COMPATIBLE,
            "",
            "http://localhost:11434/v1",
            " llama3.1 ",
            SetupChoice("openai", base_url="http://localhost:11434/v1", model="llama3.1"),
        ),
        (
            COMPATIBLE,
            "sk-or",
            "https://openrouter.ai/api/v1",
            "m",
            SetupChoice(
                "openai", api_key="sk-or", base_url="https://openrouter.ai/api/v1", model="m"
            ),
        ),
    ],
)
def test_a_complete_form_becomes_a_choice(method, api_key, base_url, model, expected) -> None:
    assert validate_choice(METHODS[method], api_key, base_url, model) == expected


@pytest.mark.parametrize(
    ("method", "api_key", "base_url", "model", "reason"),
    [
        ("anthropic", "  ", "", "", "Paste an API key first."),
        ("openai", "sk-a sk-b", "", "", "An API key has no spaces; check what was pasted."),
        (COMPATIBLE, "", "localhost:11434", "m", "The base URL must start with http://"),
        (COMPATIBLE, "", "ftp://host/v1", "m", "The base URL must start with http://"),
        (COMPATIBLE, "", "http://host/v1", " ", "Name the model the server should run"),
    ],
)
def test_an_incomplete_form_says_what_is_missing(method, api_key, base_url, model, reason) -> None:
    with pytest.raises(ConfigError) as caught:
        validate_choice(METHODS[method], api_key, base_url, model)
    assert str(caught.value).startswith(reason)


def test_every_way_to_start_is_offered_once_keyed_providers_first() -> None:
    kinds = [m.kind for m in setup_methods()]
    assert len(METHODS) == len(kinds)
    assert kinds == sorted(kinds, key=["key", "server", "offline"].index)
