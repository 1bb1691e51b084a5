"""The import-linter contracts in pyproject.toml hold, and each one catches the import it forbids."""

from __future__ import annotations

import subprocess
import sys
from copy import deepcopy
from functools import cache
from pathlib import Path
from typing import Any

import grimp
import pytest
from importlinter import api
from importlinter.contracts.forbidden import ForbiddenContract
from importlinter.contracts.protected import ProtectedContract

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = ROOT / "pyproject.toml"
CONTRACT_TYPES = {"forbidden": ForbiddenContract, "protected": ProtectedContract}

UI_PROPER = "the UI proper uses only the session protocol"
# The agent_core modules the UI proper may import: no more than eight.
UI_MAY_IMPORT = {
    "protocol",
    "events",
    "messages",
    "errors",
    "modes",
    "call_status",
    "terminal_text",
    "command_text",
}

# One import per contract that the contract exists to stop (importer, imported).
SEEDED_VIOLATIONS = {
    "agent_core never imports the UI": [
        ("agent_core.events", "textual"),
        ("agent_core.channel", "mewcode_tui.transcript"),
    ],
    "widgets don't import the runtime's internals": [
        ("mewcode_tui.widgets.chat_log", "agent_core.agent.runtime"),
        ("mewcode_tui.widgets.status_bar", "agent_core.permissions.engine"),
        ("mewcode_tui.widgets.tool_call_view", "anthropic"),
    ],
    "widgets don't import the screens, commands or app above them": [
        ("mewcode_tui.widgets.chat_log", "mewcode_tui.screens.main"),
        ("mewcode_tui.widgets.prompt_input", "mewcode_tui.commands"),
    ],
    UI_PROPER: [
        ("mewcode_tui.commands.memory", "agent_core.memory.long_term"),
        ("mewcode_tui.commands.hooks", "agent_core.hooks.config"),
        ("mewcode_tui.screens.resume", "agent_core.session.listing"),
        ("mewcode_tui.commands", "agent_core.custom_commands"),
        ("mewcode_tui.screens.main", "agent_core.agent.session_api"),
        ("mewcode_tui.screens.main", "agent_core.config.paths"),
        ("mewcode_tui.transcript", "agent_core.context.compaction"),
        ("mewcode_tui.presenter", "agent_core.llm.base"),
        ("mewcode_tui.widgets.status_bar", "agent_core.usage"),
    ],
    "provider SDKs only from agent_core.llm": [
        ("mewcode_tui.session_starter", "anthropic"),
        ("agent_core.agent.runtime", "openai"),
    ],
}


@cache
def configuration() -> dict[str, Any]:
    """The [tool.importlinter] table: session_options and contracts_options."""
    return api.read_configuration(str(PYPROJECT))


def contracts() -> dict[str, dict[str, Any]]:
    """The contracts configured in pyproject.toml, by name."""
    return {options["name"]: options for options in configuration()["contracts_options"]}


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph(
        *configuration()["session_options"]["root_packages"],
        include_external_packages=True,
        cache_dir=None,
    )


@pytest.mark.slow
def test_lint_imports_passes_on_the_tree() -> None:
    result = subprocess.run(
        [str(Path(sys.executable).with_name("lint-imports")), "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"Contracts: {len(contracts())} kept, 0 broken." in result.stdout


def test_every_contract_has_a_seeded_violation() -> None:
    assert set(contracts()) == set(SEEDED_VIOLATIONS)


@pytest.mark.parametrize(
    ("name", "importer", "imported"),
    [(name, a, b) for name, pairs in SEEDED_VIOLATIONS.items() for a, b in pairs],
)
def test_contract_breaks_on_the_import_it_forbids(
    graph: grimp.ImportGraph, name: str, importer: str, imported: str
) -> None:
    options = contracts()[name]
    contract = CONTRACT_TYPES[options["type"]](
        name=name, session_options=configuration()["session_options"], contract_options=options
    )
    assert contract.check(deepcopy(graph), verbose=False).kept, "holds before the import is added"
    seeded = deepcopy(graph)
    seeded.add_import(importer=importer, imported=imported)
    assert not contract.check(seeded, verbose=False).kept


def test_the_ui_proper_may_import_eight_core_modules_and_no_more() -> None:
    core = ROOT / "agent_core"
    children = {
        p.stem if p.is_file() else p.name
        for p in core.iterdir()
        if (p.suffix == ".py" and p.stem != "__init__") or (p / "__init__.py").exists()
    }
    assert len(UI_MAY_IMPORT) <= 8 and UI_MAY_IMPORT <= children
    forbidden = {m.removeprefix("agent_core.") for m in contracts()[UI_PROPER]["forbidden_modules"]}
    assert forbidden == children - UI_MAY_IMPORT  # a new core module is forbidden by default
