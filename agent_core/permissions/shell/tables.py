"""The program tables: what each program's options and operands are, loaded from data.

One TOML file per program in ``programs/`` (its name is the program's; other
names for it are in ``programs/aliases.toml``), validated by the Structs below
when the program is first met and cached for the process. TOML because the
tables are written and reviewed by hand from each program's own ``--help`` and
man page, and want comments; it is read by the standard library (``tomllib``),
only when a command is judged, never before the TUI's first frame.

A table that does not load is reported once in the debug log and the program
is treated as unknown: its commands ask.
"""

from __future__ import annotations

import functools
import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import msgspec

PROGRAMS_DIR = Path(__file__).with_name("programs")
_log = logging.getLogger(__name__)

# What an option's value or an operand is. The first group is data and paths read (a
# command using only these is read-only); the rest write, run or hide what is read.
SAFE_KINDS = frozenset({"none", "number", "pattern", "literal", "path"})
EFFECT_KINDS = frozenset({
    "write",  # a path written
    "rw",  # a path read, then written (mv, an editor, sed -i)
    "paths-from",  # a file listing more paths to read (--files0-from)
    "program-file",  # a file holding the program or script it runs (awk -f, sed -f)
    "dir",  # a directory later paths start from (git -C, env -C)
    "code",  # a program or code to run
    "exec",  # find -exec: words up to `;` or `+` are a command
    "command",  # the rest of the line is a command (timeout, nice, env)
    "assignment",  # NAME=VALUE (env)
    "subcommand",  # the operand picks a subcommand table (git log)
})  # fmt: skip
# Operands a program-specific reader looks at: a language of its own.
LANGUAGE_KINDS = frozenset({
    "awk-program", "awk-input", "sed-script", "jq-filter", "test-expression", "git-arg",
})  # fmt: skip
KINDS = SAFE_KINDS | EFFECT_KINDS | LANGUAGE_KINDS
TREE_EFFECTS = frozenset({
    "recursive",  # directory operands are read down to every depth
    "follow",  # ...following the symlinks met inside
    "hidden",  # ...hidden files included (ripgrep skips them otherwise)
    "no-ignore",  # ...files .gitignore excludes included (ripgrep)
    "exclude",  # the value is a name pattern left out (grep --exclude)
    "exclude-glob",  # the value is a glob, left out when it starts with ! (rg -g '!x')
    "writes-operands",  # the path operands are written too (sed -i, find -delete)
    "patch",  # git: the output holds file contents (git log -p)
    "no-patch",  # git: ...and this one says it does not (git show --stat)
    "reads-unnamed",  # reads what no word names (git cat-file --batch: names from stdin)
})  # fmt: skip


class OptionSpec(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """One option: the kinds of its values, and what it changes."""

    arg: str = "none"  # space-separated kinds, one per value; "kind?" = only as --opt=value
    unsafe: str = ""  # why a command using it is not read-only, whatever its value
    operands: str | None = None  # the operand grammar it switches to (grep -e: "path*")
    tree: list[str] = []  # TREE_EFFECTS
    tree_when: str = ""  # the tree effects hold only for this value (grep -d recurse)


class ProgramSpec(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """One program (or subcommand) as its documentation describes it."""

    doc: str  # where the table was read from: "ls --help (GNU coreutils 9.1)"
    read_only: bool = False  # prints and reads only, used with the options below
    # gnu: options anywhere before `--`; posix: options end at the first operand;
    # words: an option is a whole word, no clusters (find, xxd); operands: no options.
    style: Literal["gnu", "posix", "words", "operands"] = "gnu"
    options: dict[str, str | OptionSpec] = {}  # "-a --all" -> kind, or a table
    operands: str = "literal*"  # grammar: kinds with ? * + (see Grammar)
    operand_pattern: str = ""  # a regex every operand matches when the command only reads
    # Options whose values a word known only at run time cannot turn harmful: every option
    # the program has is in the table and harmless (echo). Otherwise such a word asks.
    dynamic_options: bool = False
    number_option: str = ""  # `-5` means this option with 5 (head -n)
    recursive: bool = False  # directory operands are always trees (rg)
    ignore: bool = False  # its trees leave out what .gitignore excludes (rg)
    default_operand: str = ""  # the operand when none is given (cd: "~")
    tree_default: str = ""  # read when no path is given and trees are read (grep -r: ".")
    response_files: bool = False  # @FILE is read as more arguments (gcc, javac)
    subcommands: dict[str, ProgramSpec] = {}
    # git: whether the output holds file contents: always, with a patch option, or never.
    content: Literal["always", "with-patch", "never"] = "never"
    operators: dict[str, str] = {}  # test: operator -> "unary KIND" | "binary KIND" | "group"
    uses: list[str] = []  # option sets (of the file's top table) this one takes too
    option_sets: dict[str, dict[str, str | OptionSpec]] = {}  # shared by subcommands (git)


class Aliases(msgspec.Struct, forbid_unknown_fields=True):
    """Other names of a program: `gawk` reads as `awk`, `[` as `test`."""

    names: dict[str, str]


@dataclass(frozen=True)
class Option:
    """An option resolved for the walker."""

    name: str
    kinds: tuple[str, ...]  # one per value
    optional: bool  # the value is given only attached (-I5, --color=auto)
    unsafe: str
    operands: Grammar | None
    tree: frozenset[str]
    tree_when: str = ""


Item = tuple[str, str]  # (kind, quantifier: "" | "?" | "*" | "+")


@dataclass(frozen=True)
class Grammar:
    """Which kind each operand is: ``pattern path*``, ``path+ write``, ``literal command``."""

    items: tuple[Item, ...]

    def assign(self, count: int) -> tuple[list[str], int]:
        """The kind of each of ``count`` operands, and how many are left over."""
        spare = count - sum(q in ("", "+") for _, q in self.items)
        kinds: list[str] = []
        for kind, quant in self.items:
            n = 1 if quant in ("", "+") else 0
            if quant in ("*", "+"):
                n += max(spare, 0)
                spare = 0
            elif quant == "?" and spare > 0:
                n, spare = 1, spare - 1
            kinds += [kind] * n
        used = min(len(kinds), count)
        return kinds[:used], count - used

    def position(self, kinds: frozenset[str]) -> int | None:
        """Index of the operand of one of ``kinds`` (the fixed ones before it counted)."""
        for index, (kind, _quant) in enumerate(self.items):
            if kind in kinds:
                return sum(q in ("", "+") for _, q in self.items[:index])
        return None


@dataclass(frozen=True)
class Program:
    """A program's table, indexed for the walker."""

    name: str
    spec: ProgramSpec
    short: dict[str, Option]
    long: dict[str, Option]
    operands: Grammar
    subcommands: dict[str, Program]


class TableError(ValueError):
    """A program table that does not describe a program: file and problem in one line."""


def grammar(text: str, where: str) -> Grammar:
    """``"pattern path*"`` -> ((pattern, ""), (path, "*"))."""
    items: list[Item] = []
    for token in text.split():
        quant = token[-1] if token[-1] in "?*+" else ""
        kind = token[:-1] if quant else token
        if kind not in KINDS:
            raise TableError(f"{where}: unknown operand kind {kind!r}")
        items.append((kind, quant))
    if sum(q in ("*", "+") for _, q in items) > 1:
        raise TableError(f"{where}: at most one operand kind may repeat ({text!r})")
    return Grammar(tuple(items))


def _option(name: str, value: str | OptionSpec, where: str) -> Option:
    spec = OptionSpec(arg=value) if isinstance(value, str) else value
    kinds = tuple(spec.arg.split()) or ("none",)
    optional = kinds[-1].endswith("?")
    kinds = (*kinds[:-1], kinds[-1].rstrip("?"))
    if kinds == ("none",):
        kinds = ()
    for kind in kinds:
        if kind not in KINDS or kind == "none" and len(kinds) > 1:
            raise TableError(f"{where}: option {name}: unknown value kind {kind!r}")
    for effect in spec.tree:
        if effect not in TREE_EFFECTS:
            raise TableError(f"{where}: option {name}: unknown effect {effect!r}")
    operands = None
    if spec.operands is not None:
        operands = grammar(spec.operands, f"{where}: option {name}")
    return Option(
        name, kinds, optional, spec.unsafe, operands, frozenset(spec.tree), spec.tree_when
    )


Index = tuple[dict[str, "Option"], dict[str, "Option"]]  # (short letters, long names)


def _index(options: dict[str, str | OptionSpec], style: str, where: str) -> Index:
    short: dict[str, Option] = {}
    long: dict[str, Option] = {}
    for key, value in options.items():
        for option_name in key.split():
            option = _option(option_name, value, where)
            if style in ("words", "operands") or option_name.startswith("--"):
                long[option_name] = option
            elif len(option_name) == 2 and option_name[0] in "-+":
                short[option_name[1]] = option
            else:
                raise TableError(f"{where}: {option_name!r} is neither -x nor --long")
    return short, long


def compile_program(
    name: str,
    spec: ProgramSpec,
    where: str,
    sets: dict[str, dict[str, str | OptionSpec]] | None = None,
    indexed: dict[tuple[str, str], Index] | None = None,
) -> Program:
    """Index a validated spec: options by short letter and long name, subcommands."""
    sets = spec.option_sets if sets is None else sets
    indexed = {} if indexed is None else indexed  # a set shared by subcommands: indexed once
    short: dict[str, Option] = {}
    long: dict[str, Option] = {}
    for used in spec.uses:
        if used not in sets:
            raise TableError(f"{where}: no option set named {used!r}")
        if (used, spec.style) not in indexed:
            indexed[used, spec.style] = _index(sets[used], spec.style, f"{where} ({used})")
        short.update(indexed[used, spec.style][0])
        long.update(indexed[used, spec.style][1])
    own_short, own_long = _index(spec.options, spec.style, where)
    short.update(own_short)
    long.update(own_long)
    for operator, shape in spec.operators.items():
        if shape.split()[0] not in ("unary", "binary", "group", "not", "and", "or"):
            raise TableError(f"{where}: operator {operator}: unknown shape {shape!r}")
    subs = {
        sub: compile_program(f"{name} {sub}", sub_spec, f"{where} [{sub}]", sets, indexed)
        for sub, sub_spec in spec.subcommands.items()
    }
    return Program(name, spec, short, long, grammar(spec.operands, where), subs)


@functools.cache
def _files() -> frozenset[str]:
    return frozenset(f[:-5] for f in os.listdir(PROGRAMS_DIR) if f.endswith(".toml"))


@functools.cache
def _aliases() -> dict[str, str]:
    return load_aliases(PROGRAMS_DIR / "aliases.toml")


def load_aliases(path: Path) -> dict[str, str]:
    """Other names -> table names; raises TableError naming the file."""
    try:
        return msgspec.toml.decode(path.read_bytes(), type=Aliases).names
    except (OSError, msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise TableError(f"{path.name}: {exc}") from None


def load_program(path: Path) -> Program:
    """Read and validate one table file; raises TableError naming the file and problem."""
    where = path.name
    try:
        spec = msgspec.toml.decode(path.read_bytes(), type=ProgramSpec)
    except (OSError, msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise TableError(f"{where}: {exc}") from None
    return compile_program(path.stem, spec, where)


def table_names() -> list[str]:
    """Every program that has a table, aliases included."""
    return sorted((_files() - {"aliases"}) | set(_aliases()))


@functools.cache
def program(name: str) -> Program | None:
    """The table of the program ``name`` (None when it has none, or it does not load)."""
    stem = _aliases().get(name, name)
    if stem not in _files() or stem == "aliases":
        return None
    try:
        return load_program(PROGRAMS_DIR / f"{stem}.toml")
    except TableError as exc:
        _log.warning("program table ignored: %s", exc)
        return None
