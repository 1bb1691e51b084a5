"""agent_core never imports a UI toolkit; the CLI's headless path stays light."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def modules_after(code: str) -> set[str]:
    script = f"{code}\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


AGENT_CORE_MODULES = [
    "agent_core.agent.runtime",
    "agent_core.agent.loop",
    "agent_core.events",
    "agent_core.channel",
    "agent_core.tools.builtin",
    "agent_core.llm.factory",
]


@pytest.mark.parametrize("module", AGENT_CORE_MODULES)
@pytest.mark.slow
def test_agent_core_never_imports_textual(module: str) -> None:
    loaded = modules_after(f"import {module}")
    assert not any(m == "textual" or m.startswith("textual.") for m in loaded)


@pytest.mark.slow
def test_runtime_import_does_not_load_vendor_sdks() -> None:
    loaded = modules_after(
        "import agent_core.agent.runtime, agent_core.tools.builtin as b; b.builtin_tools()"
    )
    for sdk in ("anthropic", "openai", "mcp"):
        assert sdk not in loaded, f"{sdk} imported eagerly"


@pytest.mark.slow
def test_every_agent_core_module_is_ui_free() -> None:
    code = (
        "import pkgutil, importlib, agent_core\n"
        "for m in pkgutil.walk_packages(agent_core.__path__, 'agent_core.'):\n"
        "    importlib.import_module(m.name)\n"
    )
    loaded = modules_after(code)
    assert not any(m == "textual" or m.startswith("textual.") for m in loaded)
