"""The one table of built-in tools, and the lists derived from what each tool declares."""

from __future__ import annotations

import importlib
import inspect
import json
import pkgutil
import subprocess
import sys

import pytest

import agent_core.tools
from agent_core.config.rule_syntax import rule_problem
from agent_core.permissions.check import tool_profile
from agent_core.permissions.families import edit_family, read_family
from agent_core.tool_table import BUILTIN_TOOL_NAMES, BUILTIN_TOOLS
from agent_core.tools.base import PreviewTool
from agent_core.tools.builtin import builtin_tool_class, builtin_tools


def tool_classes_in_package() -> dict[str, type]:
    """Every class under agent_core/tools that has the Tool protocol's class attributes."""
    found: dict[str, type] = {}
    for info in pkgutil.iter_modules(agent_core.tools.__path__):
        module = importlib.import_module(f"agent_core.tools.{info.name}")
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__ and all(
                hasattr(cls, attr) for attr in ("name", "params", "permission_kind", "run")
            ):
                found[f"{cls.__module__}:{cls.__qualname__}"] = cls
    return found


def test_every_tool_class_has_its_line_in_the_table() -> None:
    # A new tool is its own file plus one line in agent_core/tool_table.py: this fails if it is
    # forgotten, and the tool would be offered to no one and known to no rule.
    assert sorted(tool_classes_in_package()) == sorted(BUILTIN_TOOLS.values())


@pytest.mark.parametrize("name", BUILTIN_TOOL_NAMES)
def test_each_key_is_its_class_name_and_traits_are_coherent(name: str) -> None:
    cls = builtin_tool_class(name)
    assert cls.name == name
    assert cls.rule_field is None or cls.rule_field in cls.params.__struct_fields__
    if cls.permission_kind in ("read", "edit"):
        assert cls.rule_field is not None  # path rules need the path
    # Plan mode: read-only tools are offered, tools with effects hidden, one tool only there.
    expected = "only" if name == "ExitPlanMode" else "offered" if cls.read_only else "hidden"
    assert cls.plan_mode == expected
    assert tool_profile(name) == (cls.permission_kind, cls.read_only)
    assert rule_problem(name) is None


def test_the_runtime_tool_set_is_the_table_in_order() -> None:
    assert [t.name for t in builtin_tools()] == list(BUILTIN_TOOL_NAMES)


def test_families_come_from_the_declarations() -> None:
    assert read_family() == {"Read", "Glob", "Grep", "LS"}
    assert edit_family() == {"Write", "Edit", "MultiEdit"}
    previews = {t.name for t in builtin_tools() if isinstance(t, PreviewTool)}
    assert previews == {"Write", "Edit", "MultiEdit"}


@pytest.mark.slow
def test_rule_syntax_stays_cheap_to_import() -> None:
    # It is imported before the first frame: the tool names must not cost the tool modules.
    script = (
        "import agent_core.config.rule_syntax, sys, json; print(json.dumps(sorted(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    loaded = set(json.loads(out.stdout))
    tool_modules = {v.partition(":")[0] for v in BUILTIN_TOOLS.values()}
    assert not loaded & tool_modules
    assert not any(m.startswith("agent_core.tools") for m in loaded)
