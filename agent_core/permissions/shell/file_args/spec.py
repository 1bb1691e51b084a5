"""ArgSpec (where a program's paths are) and the GNU option walker that applies it."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import NamedTuple

from agent_core.permissions.shell.file_args.model import FileUse, TreeRead
from agent_core.permissions.shell.wrappers import Word


@dataclass(frozen=True)
class ArgSpec:
    """How to find a command's path arguments."""

    writes: str = "none"  # "all" positionals, the "last" one, all "after1", or "none"
    short_values: str = ""  # short options that take a value
    long_values: frozenset[str] = frozenset()
    path_options: dict[str, bool] = field(default_factory=dict)  # option -> value is written
    skip: int = 0  # leading positionals that are not paths (a mode, a pattern)
    no_skip_with: frozenset[str] = frozenset()  # options that make the first positional a path
    write_flags: frozenset[str] = frozenset()  # options that turn reading into writing (sed -i)
    recursive: frozenset[str] = frozenset()  # options that make directory arguments trees
    follow: frozenset[str] = frozenset()  # options that make those trees follow symlinks
    list_options: frozenset[str] = frozenset()  # value lists more paths to read (--files0-from)
    list_flags: frozenset[str] = frozenset()  # flags that make each positional a list (md5sum -c)
    code_options: frozenset[str] = frozenset()  # options that run another program
    default_path: str | None = None  # read when no path is given and recursive (grep -r)
    max_positionals: int | None = None  # beyond this, extra positionals are not paths
    reads_written: bool = False  # written positionals are read first (mv, an editor)


def fs(*names: str) -> frozenset[str]:
    """A set of option names, short enough for the tables."""
    return frozenset(names)


def long_option(text: str, names: frozenset[str] | set[str] | dict[str, bool]) -> str | None:
    """The known long option ``text`` names, exactly or as GNU's unambiguous prefix."""
    option = text.split("=", 1)[0]
    if option in names:
        return option
    if len(option) < 3 or not option.startswith("--"):
        return None
    matches = sorted(n for n in names if n.startswith(option))
    return matches[0] if matches else None


class _Options(NamedTuple):
    positionals: list[Word]
    seen: set[str]  # every option name given
    values: list[tuple[str, Word | None]]  # (option, value) for options that take one


def _parse(spec: ArgSpec, args: list[Word]) -> _Options:
    """Split ``args`` into options (with values) and positionals, GNU style."""
    positionals: list[Word] = []
    seen: set[str] = set()
    values: list[tuple[str, Word | None]] = []
    takes_value = set(spec.long_values) | set(spec.path_options) | spec.list_options
    takes_value |= spec.code_options
    i, ended = 0, False
    while i < len(args):
        word = args[i]
        text = word.text
        if ended or not text.startswith("-") or text == "-":
            positionals.append(word)
            i += 1
        elif text == "--":
            ended = True
            i += 1
        elif text.startswith("--"):
            option = long_option(text, takes_value) or text.split("=", 1)[0]
            seen.add(option)
            if option in takes_value:
                if "=" in text:
                    values.append((option, Word(text.split("=", 1)[1], word.dynamic)))
                    i += 1
                else:
                    values.append((option, args[i + 1] if i + 1 < len(args) else None))
                    i += 2
            else:
                i += 1
        else:
            i += 1
            for pos, char in enumerate(text[1:]):
                option = f"-{char}"
                seen.add(option)
                if char in spec.short_values or option in spec.path_options:
                    attached = text[pos + 2 :]
                    if attached:
                        values.append((option, Word(attached, word.dynamic)))
                    else:
                        values.append((option, args[i] if i < len(args) else None))
                        i += 1
                    break
    return _Options(positionals, seen, values)


def generic_uses(name: str, spec: ArgSpec, args: list[Word]) -> FileUse:
    """What a program described by ``spec`` reads and writes."""
    use = FileUse()
    parsed = _parse(spec, args)
    for option, value in parsed.values:
        if option in spec.path_options and value is not None:
            (use.write if spec.path_options[option] else use.read)(value)
        elif option in spec.list_options:
            use.read(value)
            use.unknown_reads = True
        elif option in spec.code_options:
            use.runs_code = True
    if parsed.seen & spec.code_options:
        use.runs_code = True
    skip = 0 if parsed.seen & spec.no_skip_with else spec.skip
    paths = parsed.positionals[skip:]
    if spec.max_positionals is not None:
        paths = paths[: spec.max_positionals]
    writes = "all" if parsed.seen & spec.write_flags else spec.writes
    recursive = bool(parsed.seen & spec.recursive) or (
        name == "grep" and any(v is not None and v.text == "recurse" for _, v in parsed.values)
    )
    if name == "rg":
        recursive = True  # rg always descends into directories
    if recursive and not paths and spec.default_path:
        paths = [Word(spec.default_path)]
    follow = bool(parsed.seen & spec.follow)
    excludes = _excludes(name, parsed.values)
    unrestricted = sum(w.text.count("u") for w in args if re.fullmatch(r"-u+", w.text))
    for index, word in enumerate(paths):
        written = writes == "all" or (
            (writes == "last" and index == len(paths) - 1) or (writes == "after1" and index > 0)
        )
        if written:
            use.write(word)
            if spec.reads_written:
                use.read(word)
            continue
        use.read(word)
        if recursive and word.text != "-":
            use.trees.append(_tree(name, word, follow, parsed.seen, excludes, unrestricted))
    if parsed.seen & spec.list_flags:
        use.unknown_reads = True
    return use


def _excludes(name: str, values: list[tuple[str, Word | None]]) -> tuple[str, ...]:
    found: list[str] = []
    for option, value in values:
        if value is None or value.dynamic:
            continue
        if name == "rg" and option in ("-g", "--glob", "--iglob") and value.text.startswith("!"):
            found.append(value.text[1:])
        elif name == "grep" and option in ("--exclude", "--exclude-dir"):
            found.append(value.text + ("/" if option == "--exclude-dir" else ""))
    return tuple(found)


def _tree(
    name: str,
    word: Word,
    follow: bool,
    seen: set[str],
    excludes: tuple[str, ...],
    unrestricted: int,
) -> TreeRead:
    """How a recursive reader walks a directory (rg skips hidden and ignored files)."""
    if name != "rg":
        return TreeRead(word, follow=follow, excludes=excludes)
    no_ignore = unrestricted >= 1 or any(o.startswith("--no-ignore") for o in seen)
    hidden = unrestricted >= 2 or "--hidden" in seen or "-." in seen
    return TreeRead(word, follow=follow, ignore=not no_ignore, hidden=hidden, excludes=excludes)
