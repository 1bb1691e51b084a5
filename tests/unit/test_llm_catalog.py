"""The one provider table: every provider module has its entry, and each entry is complete."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import agent_core.llm
from agent_core.config.settings import Settings
from agent_core.llm.catalog import (
    KEYED_PROVIDERS,
    PROVIDER_NAMES,
    PROVIDERS,
    provider_class,
    split_provider,
)
from agent_core.llm.factory import make_provider
from agent_core.llm.pricing import model_info
from mewcode_tui.cli import build_parser
from mewcode_tui.session_start import SDK_MODULES
from mewcode_tui.setup_methods import setup_methods


def test_every_provider_module_has_an_entry() -> None:
    # A new provider is its own llm/<name>_provider.py plus one entry in llm/catalog.py.
    folder = Path(agent_core.llm.__path__[0])
    modules = {f"agent_core.llm.{p.stem}" for p in folder.glob("*_provider.py")}
    modules.discard("agent_core.llm.sdk_provider")  # the SDK providers' shared base
    listed = {e.provider_class.partition(":")[0] for e in PROVIDERS.values()}
    assert listed == modules


@pytest.mark.parametrize("name", PROVIDER_NAMES)
def test_each_entry_builds_its_provider_with_its_default_model(name: str, tmp_path: Path) -> None:
    entry = PROVIDERS[name]
    assert provider_class(name).name == name
    env = {entry.key_env: "k"} if entry.key_env else {}
    provider = make_provider(name, None, settings=Settings(), env=env, cwd=tmp_path)
    assert (provider.name, provider.model) == (name, entry.default_model)


@pytest.mark.parametrize("name", KEYED_PROVIDERS)
def test_a_paid_providers_default_model_has_a_price(name: str) -> None:
    info = model_info(PROVIDERS[name].default_model)
    assert info.model and info.input > 0 and info.output > 0


def test_the_cli_the_setup_screen_and_the_warm_up_read_the_table() -> None:
    provider_flag = next(a for a in build_parser()._actions if "--provider" in a.option_strings)
    assert tuple(provider_flag.choices or ()) == PROVIDER_NAMES
    assert {m.key for m in setup_methods()} == {*PROVIDER_NAMES, "compatible"}
    assert SDK_MODULES == {"anthropic": "anthropic", "openai": "openai"}


@pytest.mark.slow
def test_the_table_imports_no_provider_module() -> None:
    script = "import agent_core.llm.catalog, sys, json; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    loaded = set(json.loads(out.stdout))
    modules = {e.provider_class.partition(":")[0] for e in PROVIDERS.values()}
    assert not loaded & (modules | {"anthropic", "openai"})


@pytest.mark.parametrize(
    ("typed", "split"),
    [
        ("openai:gpt-4o", ("openai", "gpt-4o")),
        ("anthropic: claude-sonnet-4-5 ", ("anthropic", "claude-sonnet-4-5")),
        ("llama3:8b", (None, "llama3:8b")),  # a model's own colon, no provider
        ("gpt-4o", (None, "gpt-4o")),
    ],
)
def test_a_model_name_may_start_with_its_provider(typed: str, split: tuple) -> None:
    assert split_provider(typed) == split
