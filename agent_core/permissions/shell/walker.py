"""The one option walker: a program's words read against its table (tables.py).

Out of one pass come two answers. ``use`` is what the command does to files
(paths read and written, trees searched, unknown reads), which the sandbox
layer judges for every program with a table. ``unknown`` is why the command is
not known to be read-only, or "" when every option and operand is in the
table as harmless: the positive knowledge default mode allows on.

Options are read as the program's own parser reads them: GNU clusters
(``-abc``, ``-n5``), ``--opt=value`` and ``--opt value``, ``--`` ending the
options, subcommands (``git log``). Operands get their kinds from the table's
grammar; kinds that are a language (awk programs, sed scripts, jq filters,
test expressions, git revisions) go to the small readers in languages.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from agent_core.permissions.shell.file_args.model import FileUse, TreeRead
from agent_core.permissions.shell.model import Word, unknown
from agent_core.permissions.shell.tables import (
    LANGUAGE_KINDS,
    SAFE_KINDS,
    Grammar,
    Option,
    Program,
    program,
)

_STOPS = frozenset({"command", "subcommand"})
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


@dataclass
class Walk:
    """What walking one command found: its file use, and any doubt about it being read-only."""

    use: FileUse = field(default_factory=FileUse)
    unknown: str = ""  # the first reason the command is not known to be read-only
    command: list[Word] | None = None  # the command a wrapper runs (timeout 5 CMD)

    def doubt(self, reason: str) -> None:
        if not self.unknown:
            self.unknown = reason[:200]


@dataclass
class Reading:
    """One program's options and operands, as the walker split them (readers get this)."""

    program: Program
    invoked: str  # the name it was called by ([ or test)
    walk: Walk
    operands: list[Word] = field(default_factory=list)
    after_dashes: list[bool] = field(default_factory=list)
    options: list[tuple[Option, list[Word]]] = field(default_factory=list)
    grammar: Grammar | None = None

    def seen(self, effect: str) -> bool:
        """Whether an option with this tree effect was given (with its value, if it needs one)."""
        return any(
            effect in option.tree
            and (not option.tree_when or any(v.text == option.tree_when for v in values))
            for option, values in self.options
        )


def _could_be_option(word: Word) -> bool:
    """A run-time word whose value may start with `-`: it may be any option at all."""
    return unknown(word) and word.text[:1] in ("$", "`", "<", '"', "'")


def walk_command(name: str, args: list[Word]) -> Walk:
    """Walk one command (its program's name and the words after it) against its table."""
    walk = Walk()
    table = program(name)
    if table is None:
        walk.doubt(f"{name} is not a known read-only program")
    else:
        walk_program(table, args, walk, name)
    return walk


def walk_program(program: Program, args: list[Word], walk: Walk, invoked: str = "") -> Reading:
    """Walk ``args`` (the words after the program name) against ``program``'s table."""
    reading = Reading(program, invoked or program.name, walk)
    spec = program.spec
    if not spec.read_only:
        walk.doubt(f"{program.name} is not a known read-only program")
    ended = spec.style == "operands"
    i = 0
    while i < len(args):
        word = args[i]
        text = word.text
        grammar = _grammar(reading)
        if _at_stop(reading, grammar, word, ended):
            _stop(reading, args[i:])
            break
        if not ended and _could_be_option(word) and not spec.dynamic_options:
            walk.doubt(f"{program.name}: a word known only at run time may be an option: {text}")
        if ended or not _is_option(program, text):
            reading.operands.append(word)
            reading.after_dashes.append(ended and spec.style != "operands")
            if spec.style == "posix":
                ended = True
            i += 1
        elif text == "--":
            ended = True
            i += 1
        elif spec.style == "words" or text.startswith("--"):
            i = _long_option(reading, args, i)
        else:
            i = _short_options(reading, args, i)
    else:
        _finish(reading)
        return reading
    _finish(reading, stopped=True)
    return reading


def _is_option(program: Program, text: str) -> bool:
    if program.spec.style == "words":
        return text in program.long or (text.startswith("-") and text != "-")
    return text.startswith("-") and text != "-"


def _grammar(reading: Reading) -> Grammar:
    return reading.grammar or reading.program.operands


def _at_stop(reading: Reading, grammar: Grammar, word: Word, ended: bool) -> bool:
    """Whether ``word`` is where a subcommand or a wrapped command starts."""
    if not ended and _is_option(reading.program, word.text):
        return False
    if reading.program.subcommands and not reading.operands:
        if word.text in reading.program.subcommands or grammar.position(_STOPS) == 0:
            return True
    at = grammar.position(_STOPS)
    if at is None or len(reading.operands) != at:
        return False
    kinds = [k for k, _ in grammar.items]
    return not ("assignment" in kinds and _ASSIGNMENT.match(word.text))


def _stop(reading: Reading, rest: list[Word]) -> None:
    """A subcommand's words are walked with its table; a wrapped command is handed back."""
    program, walk = reading.program, reading.walk
    head = rest[0]
    sub = program.subcommands.get(head.text) if not head.dynamic else None
    if sub is not None:
        walk_program(sub, rest[1:], walk)
    elif program.subcommands:
        walk.doubt(f"{program.name} {head.text} is not a known read-only subcommand")
        if unknown(head):
            walk.use.runs_code = walk.use.unknown_reads = walk.use.unknown_writes = True
    else:
        walk.command = rest


def _long_option(reading: Reading, args: list[Word], i: int) -> int:
    """``--name=value``, ``--name value``, or (words style) ``-name value``."""
    program, walk = reading.program, reading.walk
    word = args[i]
    name, eq, attached = word.text.partition("=")
    if program.spec.style == "words":
        name, eq = word.text, ""
    option = program.long.get(name)
    if option is None:
        walk.doubt(f"{program.name}: option {name} is not known to be safe")
        option = _by_prefix(program, name)
        if option is None:
            return i + 1
    values: list[Word] = []
    if eq:
        values.append(Word(attached, word.dynamic))
        if not option.kinds:
            walk.doubt(f"{program.name}: option {name} takes no value")
    if "exec" in option.kinds:
        end = next((j for j in range(i + 1, len(args)) if args[j].text in (";", "+")), len(args))
        _record(reading, option, args[i + 1 : end])
        return end + 1
    wanted = len(option.kinds) - len(values)
    if option.optional and not eq:
        wanted = 0
    values += args[i + 1 : i + 1 + max(wanted, 0)]
    _record(reading, option, values)
    return i + 1 + max(wanted, 0)


def _record(reading: Reading, option: Option, values: list[Word]) -> None:
    """An option given: its operand grammar holds from here on (command -v NAME)."""
    reading.options.append((option, values))
    if option.operands is not None:
        reading.grammar = option.operands


def _by_prefix(program: Program, name: str) -> Option | None:
    """GNU's unambiguous prefix (``--out`` for ``--output``): for the effects only."""
    if len(name) < 3 or not name.startswith("--"):
        return None
    matches = sorted(n for n in program.long if n.startswith(name))
    return program.long[matches[0]] if matches else None


def _short_options(reading: Reading, args: list[Word], i: int) -> int:
    """A cluster: ``-abc``, ``-n5``, ``-e PATTERN``; ``-5`` when -NUM means -n NUM."""
    program, walk = reading.program, reading.walk
    word = args[i]
    text = word.text
    number = program.spec.number_option
    if number and text[1:].isdigit():
        option = program.short.get(number[1:]) or program.long.get(number)
        if option is not None:
            _record(reading, option, [Word(text[1:], word.dynamic)])
            return i + 1
    for pos, char in enumerate(text[1:]):
        option = program.short.get(char)
        if option is None:
            walk.doubt(f"{program.name}: option -{char} is not known to be safe")
            continue
        if not option.kinds:
            _record(reading, option, [])
            continue
        rest = text[pos + 2 :]
        if rest:
            values = [Word(rest, word.dynamic)]
            more = len(option.kinds) - 1
        else:
            values, more = [], 0 if option.optional else len(option.kinds)
        values += args[i + 1 : i + 1 + more]
        _record(reading, option, values)
        return i + 1 + more
    return i + 1


def _finish(reading: Reading, stopped: bool = False) -> None:
    """Option values and operands, each by its kind; then the language readers."""
    from agent_core.permissions.shell.languages import READERS  # local: they import Reading

    program, walk = reading.program, reading.walk
    use = walk.use
    language: dict[str, list[Word]] = {}
    for option, values in reading.options:
        if option.unsafe:
            walk.doubt(f"{program.name} {option.name}: {option.unsafe}")
        if "exec" in option.kinds:
            use.runs_code = True
            walk.doubt(f"{program.name} {option.name} runs a command")
            continue
        for kind, value in zip(option.kinds, values, strict=False):
            _apply(kind, value, reading, language, option=True)
    if reading.seen("reads-unnamed"):
        use.unknown_reads = True
        walk.doubt(f"{program.name} reads what its input names")
    operands = list(reading.operands)
    if not operands and program.spec.default_operand and not stopped:
        operands = [Word(program.spec.default_operand)]
        reading.after_dashes = [False]
    if not stopped and ("subcommand", "") in _grammar(reading).items:
        walk.doubt(f"{program.name} without a subcommand")
    kinds, extra = _grammar(reading).assign(len(operands))
    if extra:
        walk.doubt(f"{program.name}: more operands than it is known to take safely")
    trees = program.spec.recursive or reading.seen("recursive")
    paths = [w for w, k in zip(operands, kinds, strict=False) if k == "path"]
    if trees and not paths and program.spec.tree_default and not stopped:
        operands, kinds = [*operands, Word(program.spec.tree_default)], [*kinds, "path"]
        reading.after_dashes.append(False)
    reading.operands = operands
    pattern = program.spec.operand_pattern
    for word, kind in zip(operands, kinds, strict=False):
        if pattern and not re.match(pattern, word.text):
            walk.doubt(f"{program.name}: operand {word.text} is not one it only reads")
        _apply(kind, word, reading, language, option=False)
        if kind == "path" and trees and word.text != "-":
            use.trees.append(_tree(reading, word))
        if kind == "path" and reading.seen("writes-operands"):
            use.write(word)
    for kind, _quant in _grammar(reading).items:
        if kind in LANGUAGE_KINDS:
            language.setdefault(kind, [])  # git log with no operand still reads the history
    for kind, words in language.items():
        READERS[kind](words, reading)


def _apply(
    kind: str, word: Word, reading: Reading, language: dict[str, list[Word]], option: bool
) -> None:
    use, walk = reading.walk.use, reading.walk
    where = reading.program.name
    if kind in LANGUAGE_KINDS:
        language.setdefault(kind, []).append(word)
    elif kind == "path":
        use.read(word)
    elif kind in SAFE_KINDS or kind == "assignment":
        return
    elif kind == "write":
        use.write(word)
        walk.doubt(f"{where} writes {word.text}")
    elif kind == "rw":
        use.read(word)
        use.write(word)
        walk.doubt(f"{where} writes {word.text}")
    elif kind == "paths-from":
        use.read(word)
        use.unknown_reads = True
        walk.doubt(f"{where} reads the paths listed in {word.text}")
    elif kind == "program-file":
        use.read(word)
        use.runs_code = use.unknown_reads = use.unknown_writes = True
        walk.doubt(f"{where} runs the program in {word.text}, which is not checked")
    elif kind == "dir":
        use.chdir.append(word)
        if not option:
            use.read(word)
        walk.doubt(f"{where} changes directory to {word.text}")
    elif kind == "code":
        use.runs_code = True
        walk.doubt(f"{where} runs {word.text}")
    else:
        walk.doubt(f"{where}: {word.text} is a {kind}")


def _tree(reading: Reading, word: Word) -> TreeRead:
    """How a recursive reader walks a directory (rg leaves out hidden and ignored files)."""
    spec = reading.program.spec
    excludes: list[str] = []
    no_ignore_flags = 0
    for option, values in reading.options:
        no_ignore_flags += "no-ignore" in option.tree
        for value in values:
            if value.dynamic:
                continue
            if "exclude" in option.tree:
                excludes.append(value.text + ("/" if option.name.endswith("-dir") else ""))
            elif "exclude-glob" in option.tree and value.text.startswith("!"):
                excludes.append(value.text[1:])
    no_ignore = no_ignore_flags >= 1
    hidden = reading.seen("hidden") or no_ignore_flags >= 2  # rg -uu
    return TreeRead(
        word,
        follow=reading.seen("follow"),
        ignore=spec.ignore and not no_ignore,
        hidden=not spec.ignore or hidden,
        excludes=tuple(excludes),
    )
