"""The program tables (agent_core/permissions/shell/programs/*.toml): every file loads,
says where it was read from, and a broken one is named in a one-line error."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agent_core.permissions.shell.tables import (
    PROGRAMS_DIR,
    TableError,
    load_aliases,
    load_program,
    program,
    table_names,
)

FILES = sorted(f for f in os.listdir(PROGRAMS_DIR) if f.endswith(".toml") and f != "aliases.toml")


@pytest.mark.parametrize("name", FILES)
def test_every_table_loads_and_names_its_source(name: str) -> None:
    table = load_program(PROGRAMS_DIR / name)
    assert table.spec.doc.strip(), f"{name}: doc says which documentation it was built from"
    for sub in table.subcommands.values():
        assert sub.spec.doc.strip(), f"{name} [{sub.name}]: no doc"


def test_every_alias_names_a_table() -> None:
    stems = {f[:-5] for f in FILES}
    for alias, stem in load_aliases(PROGRAMS_DIR / "aliases.toml").items():
        assert stem in stems, f"alias {alias} -> {stem}: no such table"
        assert program(alias) is not None


def test_the_everyday_programs_have_read_only_tables() -> None:
    names = set(table_names())
    for name in ("ls", "cat", "grep", "rg", "find", "git", "sed", "awk", "jq", "test", "[", "env"):
        assert name in names
        table = program(name)
        assert table is not None and table.spec.read_only, name


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('doc = "x"\nread_only = "yes"\n', "Expected `bool`"),
        ('doc = "x"\n[options]\n"-a" = "sideways"\n', "unknown value kind 'sideways'"),
        ('doc = "x"\noperands = "path* write*"\n', "at most one operand kind may repeat"),
        ('doc = "x"\n[options]\n"all" = "none"\n', "neither -x nor --long"),
        ('doc = "x"\nbogus = 1\n', "unknown field"),
        ("doc = \n", "x.toml"),
    ],
)
def test_a_bad_table_is_one_line_naming_the_file(tmp_path: Path, text: str, problem: str) -> None:
    bad = tmp_path / "x.toml"
    bad.write_text(text)
    with pytest.raises(TableError) as caught:
        load_program(bad)
    message = str(caught.value)
    assert message.startswith("x.toml: ") and "\n" not in message, message
    assert problem in message, message
