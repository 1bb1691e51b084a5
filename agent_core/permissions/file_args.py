"""Which arguments of common shell commands are file paths, and which of them are written."""

from __future__ import annotations

from dataclasses import dataclass, field

from agent_core.permissions.shell_model import SimpleCommand
from agent_core.permissions.shell_wrappers import Word


@dataclass(frozen=True)
class ArgSpec:
    """How to find a command's path arguments."""

    writes: str = "none"  # "all" positionals, the "last" one, or "none"
    short_values: str = ""  # short options that take a value
    long_values: frozenset[str] = frozenset()
    path_options: dict[str, bool] = field(default_factory=dict)  # option -> its value is written
    skip: int = 0  # leading positionals that are not paths (a mode, a pattern)
    no_skip_with: frozenset[str] = frozenset()  # options that make the first positional a path
    write_flags: frozenset[str] = frozenset()  # options that turn reading into writing (sed -i)


def _fs(*names: str) -> frozenset[str]:
    return frozenset(names)


_PATTERN_GIVEN = _fs("-e", "-f", "--regexp", "--file", "--files")

SPECS: dict[str, ArgSpec] = {
    "rm": ArgSpec("all"),
    "rmdir": ArgSpec("all"),
    "unlink": ArgSpec("all"),
    "mkdir": ArgSpec("all", "m", _fs("--mode")),
    "touch": ArgSpec("all", "dt", _fs("--date"), {"-r": False, "--reference": False}),
    "mv": ArgSpec("all", "S", _fs("--suffix"), {"-t": True, "--target-directory": True}),
    "cp": ArgSpec("last", "S", _fs("--suffix"), {"-t": True, "--target-directory": True}),
    "ln": ArgSpec("last", "S", _fs("--suffix"), {"-t": True, "--target-directory": True}),
    "install": ArgSpec(
        "last",
        "mogS",
        _fs("--mode", "--owner", "--group", "--suffix"),
        {"-t": True, "--target-directory": True},
    ),
    "tee": ArgSpec("all"),
    "truncate": ArgSpec("all", "s", _fs("--size"), {"-r": False, "--reference": False}),
    "shred": ArgSpec("all", "ns", _fs("--iterations", "--size")),
    "chmod": ArgSpec("all", skip=1, path_options={"--reference": False}),
    "chown": ArgSpec("all", skip=1, path_options={"--reference": False}),
    "chgrp": ArgSpec("all", skip=1, path_options={"--reference": False}),
    "cat": ArgSpec(),
    "less": ArgSpec(),
    "more": ArgSpec(),
    "head": ArgSpec(short_values="nc", long_values=_fs("--lines", "--bytes")),
    "tail": ArgSpec(short_values="ncs", long_values=_fs("--lines", "--bytes", "--sleep-interval")),
    "wc": ArgSpec(),
    "stat": ArgSpec(short_values="c", long_values=_fs("--format", "--printf")),
    "file": ArgSpec(short_values="mfF", path_options={"-m": False, "-f": False}),
    "diff": ArgSpec(short_values="UCxXIDF", long_values=_fs("--label", "--ignore-matching-lines")),
    "ls": ArgSpec(short_values="IwT", long_values=_fs("--ignore", "--hide", "--width")),
    "tree": ArgSpec(
        short_values="LIPH", long_values=_fs("--filelimit", "--charset"), path_options={"-o": True}
    ),
    "du": ArgSpec(
        short_values="dBtX",
        long_values=_fs("--max-depth", "--block-size", "--threshold", "--exclude"),
    ),
    "df": ArgSpec(short_values="Bt", long_values=_fs("--block-size", "--type")),
    "grep": ArgSpec(
        short_values="efmABCd",
        skip=1,
        no_skip_with=_PATTERN_GIVEN,
        long_values=_fs(
            "--regexp", "--file", "--max-count", "--include", "--exclude", "--exclude-dir"
        ),
    ),
    "rg": ArgSpec(
        short_values="efgtTmABCEjM",
        skip=1,
        no_skip_with=_PATTERN_GIVEN,
        long_values=_fs(
            "--regexp",
            "--file",
            "--glob",
            "--type",
            "--type-not",
            "--max-count",
            "--max-depth",
            "--encoding",
            "--pre",
        ),
    ),
    "sed": ArgSpec(
        skip=1,
        short_values="ef",
        no_skip_with=_fs("-e", "-f", "--expression", "--file"),
        write_flags=_fs("-i", "--in-place"),
    ),
    "sort": ArgSpec(short_values="ktST", path_options={"-o": True, "--output": True}),
    "source": ArgSpec(),
    ".": ArgSpec(),
}


def _take_option(
    spec: ArgSpec, args: list[Word], i: int, options: set[str]
) -> tuple[int, Word | None, str]:
    """Read the option at ``args[i]``; returns (next index, its value or None, option name)."""
    word = args[i]
    text = word.text
    if text.startswith("--"):
        option, eq, attached = text.partition("=")
        options.add(option)
        if option not in spec.long_values and option not in spec.path_options:
            return i + 1, None, option
        if eq:
            return i + 1, Word(attached, word.dynamic), option
        return i + 2, args[i + 1] if i + 1 < len(args) else None, option
    for pos, char in enumerate(text[1:]):
        option = f"-{char}"
        options.add(option)
        if char in spec.short_values or option in spec.path_options:
            attached = text[pos + 2 :]
            if attached:
                return i + 1, Word(attached, word.dynamic), option
            return i + 2, args[i + 1] if i + 1 < len(args) else None, option
    return i + 1, None, text


def file_targets(cmd: SimpleCommand) -> list[tuple[Word, bool]]:
    """(path word, written?) for every clear file argument of ``cmd``; [] for unknown commands."""
    name = cmd.name
    if name == "dd":
        return [
            (Word(w.text[3:], w.dynamic), w.text.startswith("of="))
            for w in cmd.argv[1:]
            if w.text.startswith(("if=", "of="))
        ]
    if name == "find":
        return [(w, False) for w in _find_starts(cmd.argv[1:])]
    spec = SPECS.get(name)
    if spec is None:
        return []
    found: list[tuple[Word, bool]] = []
    positionals: list[Word] = []
    options: set[str] = set()
    args = list(cmd.argv[1:])
    i, ended = 0, False
    while i < len(args):
        text = args[i].text
        if ended or not text.startswith("-") or text == "-":
            positionals.append(args[i])
            i += 1
        elif text == "--":
            ended = True
            i += 1
        else:
            i, value, option = _take_option(spec, args, i, options)
            if value is not None and value.text and option in spec.path_options:
                found.append((value, spec.path_options[option]))
    paths = positionals[0 if options & spec.no_skip_with else spec.skip :]
    writes = "all" if options & spec.write_flags else spec.writes
    for index, word in enumerate(paths):
        found.append((word, writes == "all" or (writes == "last" and index == len(paths) - 1)))
    return found


def _find_starts(args: tuple[Word, ...]) -> list[Word]:
    starts: list[Word] = []
    for word in args:
        if word.text.startswith(("-", "(", "!")):
            break
        starts.append(word)
    return starts
