"""Which arguments of common shell commands are file paths, and what is done to them.

Pure: words in, classified words out. ``file_uses`` answers for one simple
command: the paths it reads and writes, the directory trees whose files it
reads (``grep -r``, ``tar c``, ``git log -p``), whether some of its paths cannot
be known from the text (a list file, ``-`` on stdin, a computed script), and
whether an option or a script makes it run other code (``sed e``, ``awk
system()``, ``rg --pre``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import NamedTuple

from agent_core.permissions.shell_model import SimpleCommand
from agent_core.permissions.shell_wrappers import Word


class TreeRead(NamedTuple):
    """A directory whose files a command reads, down to every depth."""

    word: Word
    follow: bool = False  # follows the symlinks it meets inside
    ignore: bool = False  # leaves out what .gitignore excludes (ripgrep)
    hidden: bool = True  # reads hidden files too
    excludes: tuple[str, ...] = ()  # gitignore-style patterns it leaves out
    repo: bool = False  # the whole repository's history (git): not a sandbox read


@dataclass
class FileUse:
    """What one command does to files, as far as its words tell."""

    reads: list[Word] = field(default_factory=list)
    writes: list[Word] = field(default_factory=list)
    trees: list[TreeRead] = field(default_factory=list)
    repo_reads: list[Word] = field(default_factory=list)  # git REV:PATH, from the repo root
    maybe_paths: list[Word] = field(default_factory=list)  # git: a path if it exists, else a rev
    maybe_trees: bool = False  # maybe_paths that exist are trees too (git log -p REV path)
    # git: the whole history's contents, unless an existing path among maybe_paths limits it
    whole_repo: TreeRead | None = None
    pathspecs: list[Word] = field(default_factory=list)  # git: read unless outside the repo
    unknown_reads: bool = False  # reads paths the text does not name
    unknown_writes: bool = False  # writes paths the text does not name
    runs_code: bool = False  # an option or script makes it run or write something else
    chdir: list[Word] = field(default_factory=list)  # git -C: where its paths start
    hosts: list[str] = field(default_factory=list)  # remote hosts it talks to (rsync, scp)

    def read(self, word: Word | None) -> None:
        if word is None or not word.text:
            return
        if word.text == "-":
            self.unknown_reads = True
        else:
            self.reads.append(word)

    def write(self, word: Word | None) -> None:
        if word is None or not word.text:
            return
        if word.text == "-":
            return  # stdout
        self.writes.append(word)


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


def _fs(*names: str) -> frozenset[str]:
    return frozenset(names)


_PATTERN_GIVEN = _fs("-e", "-f", "--regexp", "--file", "--files")
_CHECKSUMS = ArgSpec(list_flags=_fs("-c", "--check"))
_READER = ArgSpec()

# fmt: off
SPECS: dict[str, ArgSpec] = {
    "rm": ArgSpec("all"),
    "rmdir": ArgSpec("all"),
    "unlink": ArgSpec("all"),
    "mkdir": ArgSpec("all", "m", _fs("--mode")),
    "touch": ArgSpec("all", "dt", _fs("--date"), {"-r": False, "--reference": False}),
    "mv": ArgSpec("all", "S", _fs("--suffix"), {"-t": True, "--target-directory": True},
                  reads_written=True),
    "cp": ArgSpec(
        "last",
        "S",
        _fs("--suffix"),
        {"-t": True, "--target-directory": True},
        recursive=_fs("-r", "-R", "-a", "--recursive", "--archive"),
        follow=_fs("-L", "--dereference"),
    ),
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
    "cat": _READER,
    "tac": ArgSpec(short_values="s", long_values=_fs("--separator")),
    "nl": ArgSpec(short_values="bdfhilnsvw"),
    "rev": _READER,
    "fold": ArgSpec(short_values="w", long_values=_fs("--width")),
    "fmt": ArgSpec(short_values="wpg", long_values=_fs("--width", "--prefix", "--goal")),
    "expand": ArgSpec(short_values="t", long_values=_fs("--tabs")),
    "unexpand": ArgSpec(short_values="t", long_values=_fs("--tabs")),
    "base64": ArgSpec(short_values="w", long_values=_fs("--wrap")),
    "base32": ArgSpec(short_values="w", long_values=_fs("--wrap")),
    "basenc": ArgSpec(short_values="w", long_values=_fs("--wrap")),
    "xxd": ArgSpec("after1", short_values="cgloRsn"),
    "od": ArgSpec(
        short_values="AjNStw",
        long_values=_fs("--address-radix", "--skip-bytes", "--read-bytes", "--format", "--width"),
    ),
    "hexdump": ArgSpec(short_values="neEs", path_options={"-f": False}),
    "hd": ArgSpec(short_values="neEs", path_options={"-f": False}),
    "strings": ArgSpec(short_values="nteT", long_values=_fs("--bytes", "--radix", "--encoding")),
    "cksum": _CHECKSUMS,
    "sum": _READER,
    "md5sum": _CHECKSUMS,
    "sha1sum": _CHECKSUMS,
    "sha224sum": _CHECKSUMS,
    "sha256sum": _CHECKSUMS,
    "sha384sum": _CHECKSUMS,
    "sha512sum": _CHECKSUMS,
    "b2sum": ArgSpec(short_values="l", list_flags=_fs("-c", "--check")),
    "shasum": ArgSpec(short_values="a", list_flags=_fs("-c", "--check")),
    "cmp": ArgSpec(short_values="in", long_values=_fs("--ignore-initial", "--bytes")),
    "comm": ArgSpec(long_values=_fs("--output-delimiter")),
    "join": ArgSpec(short_values="tjoe12av"),
    "paste": ArgSpec(short_values="d", long_values=_fs("--delimiters")),
    "column": ArgSpec(short_values="csto", long_values=_fs("--separator", "--table-columns")),
    "cut": ArgSpec(
        short_values="bcdf",
        long_values=_fs("--bytes", "--characters", "--delimiter", "--fields", "--output-delimiter"),
    ),
    "iconv": ArgSpec(
        short_values="ft",
        long_values=_fs("--from-code", "--to-code"),
        path_options={"-o": True, "--output": True},
    ),
    "less": ArgSpec(
        short_values="bhjkpPtTxyz#",
        path_options={"-o": True, "-O": True, "--log-file": True, "--LOG-FILE": True},
    ),
    "more": ArgSpec(short_values="n"),
    "head": ArgSpec(short_values="nc", long_values=_fs("--lines", "--bytes")),
    "tail": ArgSpec(short_values="ncs", long_values=_fs("--lines", "--bytes", "--sleep-interval")),
    "wc": ArgSpec(list_options=_fs("--files0-from")),
    "stat": ArgSpec(short_values="c", long_values=_fs("--format", "--printf")),
    "file": ArgSpec(short_values="mfF", path_options={"-m": False, "-f": False}),
    "readlink": _READER,
    "realpath": ArgSpec(path_options={"--relative-to": False, "--relative-base": False}),
    "diff": ArgSpec(
        short_values="UCxIDF",
        long_values=_fs("--label", "--ignore-matching-lines", "--exclude"),
        path_options={"-X": False, "--exclude-from": False, "--from-file": False,
                      "--to-file": False},
        recursive=_fs("-r", "--recursive"),
    ),
    "ls": ArgSpec(short_values="IwT", long_values=_fs("--ignore", "--hide", "--width")),
    "tree": ArgSpec(
        short_values="LIPH",
        long_values=_fs("--filelimit", "--charset"),
        path_options={"-o": True},
        list_options=_fs("--fromfile"),
    ),
    "du": ArgSpec(
        short_values="dBt",
        long_values=_fs("--max-depth", "--block-size", "--threshold", "--exclude"),
        path_options={"-X": False, "--exclude-from": False},
        list_options=_fs("--files0-from"),
    ),
    "df": ArgSpec(short_values="Bt", long_values=_fs("--block-size", "--type")),
    "grep": ArgSpec(
        short_values="emABCd", skip=1, no_skip_with=_PATTERN_GIVEN,
        long_values=_fs("--regexp", "--max-count", "--include", "--exclude", "--exclude-dir",
                        "--directories", "--devices", "--label", "--color", "--colour",
                        "--context", "--after-context", "--before-context", "--binary-files"),
        path_options={"-f": False, "--file": False, "--exclude-from": False},
        recursive=_fs("-r", "-R", "--recursive", "--dereference-recursive"),
        follow=_fs("-R", "--dereference-recursive"), default_path=".",
    ),
    "rg": ArgSpec(
        short_values="egtTmABCEjMrd", skip=1,
        no_skip_with=_fs("-e", "-f", "--regexp", "--file", "--files", "--type-list"),
        long_values=_fs("--regexp", "--glob", "--iglob", "--type", "--type-not", "--type-add",
                        "--type-clear", "--max-count", "--max-depth", "--encoding", "--replace",
                        "--context", "--after-context", "--before-context", "--max-filesize",
                        "--threads", "--sort", "--sortr", "--color", "--colors", "--engine",
                        "--path-separator", "--context-separator", "--field-match-separator",
                        "--field-context-separator", "--max-columns", "--dfa-size-limit",
                        "--regex-size-limit"),
        path_options={"-f": False, "--file": False, "--ignore-file": False},
        code_options=_fs("--pre", "--pre-glob"), follow=_fs("-L", "--follow"), default_path=".",
    ),
    "sort": ArgSpec(
        short_values="ktST",
        long_values=_fs("--key", "--field-separator", "--buffer-size", "--temporary-directory",
                        "--parallel", "--batch-size", "--sort"),
        path_options={"-o": True, "--output": True, "--random-source": False},
        list_options=_fs("--files0-from"), code_options=_fs("--compress-program"),
    ),
    "uniq": ArgSpec(
        "after1", short_values="fsw", max_positionals=2,
        long_values=_fs("--skip-fields", "--skip-chars", "--check-chars", "--group",
                        "--all-repeated"),
    ),
    "split": ArgSpec(
        "after1", short_values="abCdlnt", code_options=_fs("--filter"),
        long_values=_fs("--suffix-length", "--additional-suffix", "--bytes", "--line-bytes",
                        "--lines", "--number", "--separator", "--filter"),
    ),
    "source": _READER,
    ".": _READER,
    **{editor: ArgSpec("all", reads_written=True)
       for editor in ("vi", "vim", "nvim", "view", "nano", "emacs", "ed", "ex", "micro", "hx")},
}
# fmt: on

# Programs that read arguments of the form @FILE as more arguments.
_RESPONSE_FILES = frozenset({
    "gcc", "g++", "cc", "c++", "clang", "clang++", "ld", "javac", "java", "7z", "7za",
    "rustc", "nvcc", "ar", "dotnet", "csc", "kotlinc", "scalac",
})  # fmt: skip


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


def _generic(name: str, spec: ArgSpec, args: list[Word]) -> FileUse:
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


def file_uses(cmd: SimpleCommand) -> FileUse:
    """What ``cmd`` reads, writes and runs, as far as its words tell; empty for unknown programs."""
    name = cmd.name
    args = list(cmd.argv[1:])
    handler = _HANDLERS.get(name)
    if handler is not None:
        use = handler(args)
    elif _PYTHON.fullmatch(name) or name in _INTERPRETERS:
        use = _interpreter(name, args)
    elif name in SPECS:
        use = _generic(name, SPECS[name], args)
    else:
        use = FileUse()
    if name in _RESPONSE_FILES:
        for word in args:
            if word.text.startswith("@") and len(word.text) > 1:
                use.read(Word(word.text[1:], word.dynamic))
    return use


# --- find ---------------------------------------------------------------------------

_FIND_VALUE_TESTS = _fs(
    "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex",
    "-lname", "-ilname", "-type", "-xtype", "-perm", "-user", "-group", "-uid", "-gid",
    "-size", "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-maxdepth",
    "-mindepth", "-links", "-inum", "-used", "-context", "-printf", "-fstype", "-regextype",
)  # fmt: skip
_FIND_READS = _fs("-newer", "-anewer", "-cnewer", "-samefile")
_FIND_WRITES = _fs("-fprint", "-fprint0", "-fls", "-fprintf")
_FIND_EXEC = _fs("-exec", "-execdir", "-ok", "-okdir")


def _find(args: list[Word]) -> FileUse:
    use = FileUse()
    i, follow = 0, False
    while i < len(args):
        text = args[i].text
        if text in ("-H", "-L", "-P"):
            follow = text == "-L" or (follow and text != "-P")
            i += 1
        elif text == "-D":
            i += 2
        elif re.fullmatch(r"-O\d*", text):
            i += 1
        elif text == "--":
            i += 1
            break
        else:
            break
    starts: list[Word] = []
    while i < len(args) and not args[i].text.startswith(("-", "(", "!", ")", ",")):
        starts.append(args[i])
        i += 1
    if not starts:
        starts = [Word(".")]
    for word in starts:
        use.read(word)
        if follow:
            use.trees.append(TreeRead(word, follow=True))
    while i < len(args):
        text = args[i].text
        value = args[i + 1] if i + 1 < len(args) else None
        if text in _FIND_EXEC:
            use.runs_code = True
            while i < len(args) and args[i].text not in (";", "+"):
                i += 1
        elif text in _FIND_READS or (text.startswith("-newer") and len(text) == 8):
            if text not in _FIND_READS and text.endswith("t"):
                i += 2  # -newerXt compares with a time string, not a file
                continue
            use.read(value)
            i += 2
            continue
        elif text in _FIND_WRITES:
            use.runs_code = True
            use.write(value)
            i += 3 if text == "-fprintf" else 2
            continue
        elif text == "-files0-from":
            use.read(value)
            use.unknown_reads = True
            i += 2
            continue
        elif text == "-delete":
            use.runs_code = True
            use.unknown_writes = True
            use.writes.extend(starts)
        elif text in _FIND_VALUE_TESTS:
            i += 2
            continue
        i += 1
    return use


# --- sed ----------------------------------------------------------------------------


class SedScript(NamedTuple):
    """What a sed script does besides printing: files it reads and writes, code it runs."""

    reads: list[str]
    writes: list[str]
    runs_code: bool


def _to_line_end(script: str, i: int) -> tuple[str, int]:
    end = script.find("\n", i)
    end = len(script) if end < 0 else end
    return script[i:end].strip(), end


def _skip_delimited(script: str, i: int, delim: str) -> int | None:
    """Index after the text that ends at an unescaped ``delim`` (regex or replacement)."""
    while i < len(script):
        char = script[i]
        if char == "\\":
            i += 2
            continue
        if char == "\n" and delim != "\n":
            return None
        if char == delim:
            return i + 1
        i += 1
    return None


def _sed_address(script: str, i: int) -> int | None:
    """Index after the address(es) at ``i``, or None when they cannot be read."""
    for _ in range(2):
        if i < len(script) and script[i] in "/\\":
            delim = "/"
            if script[i] == "\\":
                i += 1
                if i >= len(script):
                    return None
                delim = script[i]
            end = _skip_delimited(script, i + 1, delim)
            if end is None:
                return None
            i = end
            while i < len(script) and script[i] in "IM":
                i += 1
        else:
            match = re.compile(r"\$|[0-9]+(~[0-9]+)?|[+~][0-9]+").match(script, i)
            if match:
                i = match.end()
        while i < len(script) and script[i] in " \t":
            i += 1
        if i < len(script) and script[i] == ",":
            i += 1
            while i < len(script) and script[i] in " \t":
                i += 1
            continue
        break
    while i < len(script) and script[i] in " \t!":
        i += 1
    return i


def sed_script(script: str) -> SedScript | None:
    """Read a GNU sed script; None when some part of it cannot be read with certainty."""
    reads: list[str] = []
    writes: list[str] = []
    code = False
    i = 0
    while i < len(script):
        char = script[i]
        if char in " \t\n;":
            i += 1
            continue
        if char == "#":
            i = script.find("\n", i)
            i = len(script) if i < 0 else i
            continue
        after = _sed_address(script, i)
        if after is None or after >= len(script):
            return None if after is None else SedScript(reads, writes, code)
        i = after
        command = script[i]
        i += 1
        if command in "{}=dDgGhHnNpPxzF":
            continue
        if command in "qQlL":
            while i < len(script) and (script[i].isdigit() or script[i] in " \t"):
                i += 1
        elif command in "aic":
            while True:  # text to the end of the line; a trailing backslash continues it
                end = script.find("\n", i)
                if end < 0:
                    i = len(script)
                    break
                if script[end - 1] == "\\":
                    i = end + 1
                    continue
                i = end
                break
        elif command in "btT:v":
            while i < len(script) and script[i] not in ";\n":
                i += 1
        elif command in "rRwW":
            name, i = _to_line_end(script, i)
            (reads if command in "rR" else writes).append(name)
        elif command == "e":
            code = True
            _, i = _to_line_end(script, i)
        elif command in "sy":
            if i >= len(script) or script[i] in "\\\n":
                return None
            delim = script[i]
            end = _skip_delimited(script, i + 1, delim)
            end = _skip_delimited(script, end, delim) if end is not None else None
            if end is None:
                return None
            i = end
            if command == "s":
                while i < len(script) and script[i] not in ";\n}#":
                    flag = script[i]
                    if flag == "e":
                        code = True
                    elif flag == "w":
                        name, i = _to_line_end(script, i + 1)
                        writes.append(name)
                        break
                    elif not (flag.isdigit() or flag in "gpiImM \t"):
                        return None
                    i += 1
        else:
            return None
    return SedScript(reads, writes, code)


def _sed(args: list[Word]) -> FileUse:
    use = FileUse()
    scripts: list[Word] = []
    positionals: list[Word] = []
    in_place = False
    i, ended = 0, False
    while i < len(args):
        word = args[i]
        text = word.text
        if ended or not text.startswith("-") or text == "-":
            positionals.append(word)
        elif text == "--":
            ended = True
        elif text.startswith("--"):
            option = text.split("=", 1)[0]
            value = Word(text.split("=", 1)[1], word.dynamic) if "=" in text else None
            if long_option(option, {"--in-place"}):
                in_place = True
            elif long_option(option, {"--expression", "--file", "--line-length"}):
                if value is None:
                    i += 1
                    value = args[i] if i < len(args) else None
                if value is not None and long_option(option, {"--file"}):
                    use.read(value)
                    use.runs_code = True  # a script we cannot see
                elif value is not None and long_option(option, {"--expression"}):
                    scripts.append(value)
        else:
            for pos, char in enumerate(text[1:]):
                if char == "i":
                    in_place = True
                    break  # the rest is the backup suffix
                if char in "efl":
                    value = Word(text[pos + 2 :], word.dynamic) if text[pos + 2 :] else None
                    if value is None:
                        i += 1
                        value = args[i] if i < len(args) else None
                    if value is not None and char == "f":
                        use.read(value)
                        use.runs_code = True
                    elif value is not None and char == "e":
                        scripts.append(value)
                    break
        i += 1
    given = bool(scripts) or use.runs_code
    if not given and positionals:
        scripts.append(positionals.pop(0))
    for script in scripts:
        if script.dynamic:
            use.runs_code = use.unknown_reads = use.unknown_writes = True
            continue
        found = sed_script(script.text)
        if found is None:
            use.runs_code = use.unknown_reads = use.unknown_writes = True
            continue
        use.runs_code = use.runs_code or found.runs_code or bool(found.writes)
        for name in found.reads:
            if name not in ("/dev/stdin", "-"):
                use.read(Word(name))
        for name in found.writes:
            if name not in ("/dev/stdout", "/dev/stderr"):
                use.write(Word(name))
    for word in positionals:
        use.read(word)
        if in_place:
            use.write(word)
    if in_place:
        use.runs_code = True
    return use


# --- awk ----------------------------------------------------------------------------

_AWK_SAFE_OPTIONS = _fs("-F", "-v", "--field-separator", "--assign")
_AWK_VALUE_OPTIONS = _fs("-F", "-v", "-f", "-i", "-l", "-E", "-o", "-p", "-d", "-W")
_AWK_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_AWK_REGEX = re.compile(r"(?:(?<=^)|(?<=[(,!~{;&|\n]))\s*/(?:[^/\\\n]|\\.)*/")


class AwkProgram(NamedTuple):
    """What an awk program does besides printing."""

    reads: list[str]
    writes: list[str]
    unknown_reads: bool
    unknown_writes: bool
    runs_code: bool


def awk_program(program: str) -> AwkProgram:
    """Find system(), pipes, output redirects and getline reads in an awk program."""
    strings: list[str] = []

    def keep(match: re.Match[str]) -> str:
        strings.append(match.group(0)[1:-1])
        return f'"{len(strings) - 1}"'

    text = _AWK_STRING.sub(keep, program)
    text = re.sub(r"#[^\n]*", "", text)
    text = _AWK_REGEX.sub(" /re/", text)
    code = bool(re.search(r"\bsystem\s*\(|@load|\|&?", text.replace("||", "  ")))
    reads: list[str] = []
    writes: list[str] = []
    unknown_reads = unknown_writes = False
    for match in re.finditer(r"\bprintf?\b[^;{}\n]*?(>>?)\s*(\"(\d+)\"|[^;{}\s]+)?", text):
        if match.group(3) is not None:
            writes.append(strings[int(match.group(3))])
        else:
            unknown_writes = True
    for match in re.finditer(r"\bgetline\b[^;{}\n]*?<\s*(\"(\d+)\"|[^;{}\s]+)?", text):
        if match.group(2) is not None:
            reads.append(strings[int(match.group(2))])
        else:
            unknown_reads = True
    for match in re.finditer(r"@include\s+\"(\d+)\"", text):
        reads.append(strings[int(match.group(1))])
    code = code or bool(writes) or unknown_writes
    return AwkProgram(reads, writes, unknown_reads, unknown_writes, code)


def _awk(args: list[Word]) -> FileUse:
    use = FileUse()
    program: Word | None = None
    positionals: list[Word] = []
    i, ended = 0, False
    while i < len(args):
        word = args[i]
        text = word.text
        if ended or not text.startswith("-") or text == "-":
            positionals.append(word)
        elif text == "--":
            ended = True
        else:
            option = text[:2] if not text.startswith("--") else text.split("=", 1)[0]
            if option not in _AWK_SAFE_OPTIONS:
                use.runs_code = True  # gawk -i inplace, -o, -p, -d, -l, --exec...
            if option in _AWK_VALUE_OPTIONS or (text.startswith("--") and "=" not in text
                                                 and option in _AWK_SAFE_OPTIONS):  # fmt: skip
                attached = text[2:] if not text.startswith("--") else ""
                value = Word(attached, word.dynamic) if attached else None
                if value is None:
                    i += 1
                    value = args[i] if i < len(args) else None
                if option in ("-f", "-E", "-i") and value is not None:
                    use.read(value)
                    program = program or Word("", True)
                if option in ("-o", "-p", "-d") and value is not None:
                    use.write(value)
        i += 1
    if program is None and positionals:
        program = positionals.pop(0)
    if program is not None and program.text and not program.dynamic:
        found = awk_program(program.text)
        use.runs_code = use.runs_code or found.runs_code
        use.unknown_reads = use.unknown_reads or found.unknown_reads
        use.unknown_writes = use.unknown_writes or found.unknown_writes
        for name in found.reads:
            use.read(Word(name))
        for name in found.writes:
            if name not in ("/dev/stdout", "/dev/stderr"):
                use.write(Word(name))
    elif program is not None:
        use.runs_code = use.unknown_reads = use.unknown_writes = True  # -f file or computed
    for word in positionals:
        if not re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", word.text):
            use.read(word)
    return use


# --- jq / yq ------------------------------------------------------------------------

_JQ_VALUES = _fs("--indent", "-L", "--library-path")
_JQ_TWO_VALUES = _fs("--arg", "--argjson", "--rawfile", "--slurpfile")
_YQ_VALUES = _fs("-o", "--output-format", "-p", "--input-format", "-I", "--indent",
                 "--expression", "--front-matter", "--lua-prefix", "--lua-suffix",
                 "--properties-separator", "--csv-separator")  # fmt: skip
_YQ_SPLIT = _fs("-s", "--split-exp")  # writes one file per document
_YQ_LOAD = re.compile(r"\bload(_str|_xml|_props|_base64|_csv|_tsv)?\s*\(")


def _jq(args: list[Word], yq: bool = False) -> FileUse:
    """jq and yq: the first positional is the filter, the rest are inputs (or args)."""
    use = FileUse()
    positionals: list[Word] = []
    filter_from_file = rest_are_args = in_place = False
    values = _JQ_VALUES | (_YQ_VALUES if yq else frozenset())
    i = 0
    while i < len(args):
        word = args[i]
        text = word.text
        i += 1
        if rest_are_args:
            continue  # --args/--jsonargs: the rest are values, not files
        if not text.startswith("-") or text == "-":
            positionals.append(word)
            continue
        option = text.split("=", 1)[0]
        value: Word | None = None
        if "=" in text and text.startswith("--"):
            value = Word(text.split("=", 1)[1], word.dynamic)
        elif text.startswith("-L") and len(text) > 2:
            option, value = "-L", Word(text[2:], word.dynamic)
        if option in ("--args", "--jsonargs"):
            rest_are_args = True
        elif option in ("-f", "--from-file") or option in values or option in _YQ_SPLIT:
            if value is None and i < len(args):
                value = args[i]
                i += 1
            if option in ("-f", "--from-file"):
                filter_from_file = True
                use.read(value)
            elif option in ("-L", "--library-path"):
                use.read(value)
            elif yq and option in _YQ_SPLIT:
                use.runs_code = use.unknown_writes = True
        elif option in _JQ_TWO_VALUES:
            if option in ("--rawfile", "--slurpfile") and i + 1 < len(args):
                use.read(args[i + 1])
            i += 2
        elif yq and (option in ("-i", "--inplace") or re.fullmatch(r"-[a-zA-Z]*i[a-zA-Z]*", text)):
            in_place = True
    if yq and any(w.dynamic or _YQ_LOAD.search(w.text) for w in args):
        use.unknown_reads = True  # yq's load() reads any file the expression names
    if yq and positionals and positionals[0].text in ("eval", "e", "eval-all", "ea"):
        positionals.pop(0)
    if not filter_from_file and positionals:
        if positionals.pop(0).dynamic:
            use.unknown_reads = True
    for word in positionals:
        use.read(word)
        if in_place:
            use.write(word)
    use.runs_code = use.runs_code or in_place
    return use


# --- interpreters -------------------------------------------------------------------

_PYTHON = re.compile(r"python[\d.]*|pypy[\d.]*")
_INTERPRETERS = frozenset({"node", "nodejs", "ruby", "perl", "php", "bash", "sh", "zsh",
                           "dash", "ksh", "mksh", "ash", "lua", "Rscript", "tclsh"})  # fmt: skip
# (options that end the options with inline code, options that take a value)
_INTERPRETER_OPTIONS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "python": (_fs("-c", "-m"), _fs("-W", "-X", "-Q")),
    "node": (_fs("-e", "--eval", "-p", "--print"),
             _fs("-r", "--require", "--import", "--loader", "-C", "--conditions", "--input-type")),
    "ruby": (_fs("-e"), _fs("-r", "-I", "-C", "-E", "-F")),
    "perl": (_fs("-e", "-E"), _fs("-I", "-M", "-m", "-x")),
    "php": (_fs("-r"), _fs("-c", "-d", "-z")),
    "shell": (_fs("-c"), _fs("-o", "+o", "-O", "+O", "--rcfile", "--init-file")),
    "other": (_fs("-e"), _fs()),
}  # fmt: skip


def _interpreter(name: str, args: list[Word]) -> FileUse:
    """An interpreter's script argument is a read; inline code reads nothing we can name."""
    use = FileUse()
    family = "python" if _PYTHON.fullmatch(name) else name
    if name in ("bash", "sh", "zsh", "dash", "ksh", "mksh", "ash"):
        family = "shell"
    inline, valued = _INTERPRETER_OPTIONS.get(family, _INTERPRETER_OPTIONS["other"])
    i = 0
    while i < len(args):
        text = args[i].text
        if text == "--":
            i += 1
            break
        if not text.startswith(("-", "+")) or text in ("-", "+"):
            break
        operands = i + 2  # after the option and its code
        cluster = re.fullmatch(r"-[a-zA-Z]*?[eE](.*)", text) if family in ("perl", "ruby") else None
        if cluster is not None:  # -ne, -lane, -eCODE: inline code like -e
            text, operands = "-e", i + 1 if cluster.group(1) else i + 2
        if text in inline or (family == "shell" and text.startswith("-") and "c" in text[1:]
                              and not text.startswith("--")):  # fmt: skip
            if family != "shell":  # perl -ne CODE FILES: the operands after the code are input
                for word in args[operands:]:
                    if not word.text.startswith("-"):
                        use.read(word)
            return use
        if family == "shell" and text.startswith("-") and "s" in text[1:]:
            return use  # the script comes from stdin
        if text in valued:
            if name == "ruby" and text == "-C" and i + 1 < len(args):
                use.chdir.append(args[i + 1])
            i += 2
            continue
        if family == "python" and text[:2] in ("-c", "-m") and len(text) > 2:
            for word in args[i + 1 :]:
                if not word.text.startswith("-"):
                    use.read(word)
            return use
        i += 1
    if i < len(args):
        use.read(args[i])
    return use


# --- cd -----------------------------------------------------------------------------


def _cd(args: list[Word]) -> FileUse:
    use = FileUse()
    targets = [w for w in args if not (w.text.startswith("-") and w.text != "-")]
    if not targets:
        use.reads.append(Word("~"))
    elif targets[0].text == "-":
        use.unknown_reads = True
    else:
        use.read(targets[0])
    return use


# --- dd -----------------------------------------------------------------------------


def _dd(args: list[Word]) -> FileUse:
    use = FileUse()
    for word in args:
        if word.text.startswith("if="):
            use.read(Word(word.text[3:], word.dynamic))
        elif word.text.startswith("of="):
            use.write(Word(word.text[3:], word.dynamic))
    return use


# --- tar, zip, unzip ------------------------------------------------------------------

_TAR_VALUE_LETTERS = "fbCgKLNTVXIFH"
_TAR_CODE = _fs("--to-command", "--use-compress-program", "--checkpoint-action",
                "--info-script", "--new-volume-script", "--rsh-command", "--rmt-command",
                "-I", "-F")  # fmt: skip
_TAR_LONG_VALUES = _fs(
    "--file", "--directory", "--files-from", "--exclude-from", "--exclude", "--transform",
    "--xform", "--owner", "--group", "--mode", "--mtime", "--format", "--blocking-factor",
    "--listed-incremental", "--to-command", "--use-compress-program", "--checkpoint-action",
    "--info-script", "--new-volume-script", "--rsh-command", "--rmt-command", "--label",
    "--newer", "--after-date", "--newer-mtime", "--strip-components", "--tape-length",
)  # fmt: skip


def _tar(args: list[Word]) -> FileUse:
    use = FileUse()
    letters: list[tuple[str, Word | None]] = []  # (option, value)
    members: list[Word] = []
    rest = list(args)
    if rest and not rest[0].text.startswith("-"):  # old style: "czf out.tgz dir"
        bundle = rest.pop(0).text
        for char in bundle:
            value = rest.pop(0) if char in _TAR_VALUE_LETTERS and rest else None
            letters.append((f"-{char}", value))
    i = 0
    while i < len(rest):
        word = rest[i]
        text = word.text
        if text.startswith("--"):
            option = long_option(text, _TAR_LONG_VALUES) or text.split("=", 1)[0]
            if option in _TAR_LONG_VALUES:
                if "=" in text:
                    letters.append((option, Word(text.split("=", 1)[1], word.dynamic)))
                else:
                    i += 1
                    letters.append((option, rest[i] if i < len(rest) else None))
            else:
                letters.append((option, None))
        elif text.startswith("-") and len(text) > 1:
            for pos, char in enumerate(text[1:]):
                if char in _TAR_VALUE_LETTERS:
                    attached = text[pos + 2 :]
                    if attached:
                        letters.append((f"-{char}", Word(attached, word.dynamic)))
                    else:
                        i += 1
                        letters.append((f"-{char}", rest[i] if i < len(rest) else None))
                    break
                letters.append((f"-{char}", None))
        else:
            members.append(word)
        i += 1
    names = {o for o, _ in letters}
    create = bool(names & {"-c", "-r", "-u", "-A", "--create", "--append", "--update",
                           "--catenate", "--concatenate"})  # fmt: skip
    extract = bool(names & {"-x", "--extract", "--get"})
    follow = bool(names & {"-h", "--dereference"})
    archives = [v for o, v in letters if o in ("-f", "--file") and v is not None]
    use.runs_code = bool(names & _TAR_CODE)
    for option, value in letters:
        if option in ("-T", "--files-from"):
            use.read(value)
            use.unknown_reads = True
        elif option in ("-X", "--exclude-from"):
            use.read(value)
        elif option in ("-C", "--directory") and value is not None:
            if extract:
                use.write(value)
            else:
                use.chdir.append(value)
                use.read(value)
    for archive in archives:
        (use.write if create else use.read)(archive)
        if create and names & {"-r", "-u", "--append", "--update"}:
            use.read(archive)
    if create:
        for word in members:
            use.read(word)
            use.trees.append(TreeRead(word, follow=follow))
    elif extract:
        use.unknown_writes = True
        if not any(o in ("-C", "--directory") for o, _ in letters):
            use.writes.append(Word("."))
        if names & {"-P", "--absolute-names"}:
            use.writes.append(Word("/"))
    if names & {"--remove-files"}:
        use.writes.extend(members)
    return use


def _zip(args: list[Word]) -> FileUse:
    """zip ARCHIVE FILES...: the archive is written, the files read (trees with -r)."""
    use = FileUse()
    positionals: list[Word] = []
    excludes: list[str] = []
    patterns: list[str] | None = None  # after -x/-i, words are patterns until the next option
    recursive, follow = False, True  # zip stores what symlinks point to unless -y
    i = 0
    while i < len(args):
        text = args[i].text
        if patterns is not None and not text.startswith("-"):
            patterns.append(text)
            i += 1
            continue
        patterns = None
        if text in ("-x", "--exclude", "-i", "--include"):
            patterns = excludes if text in ("-x", "--exclude") else []
            i += 1
            continue
        if text in ("-TT", "--unzip-command"):
            use.runs_code = True
            i += 2
            continue
        if text in ("-b", "--temp-path", "-n", "--suffixes", "-P", "--password", "-t", "-tt"):
            i += 2
            continue
        if text in ("-i@", "-x@") or text.startswith(("-i@", "-x@")):
            use.read(Word(text[3:]) if len(text) > 3 else None)
        elif text == "-@" or text == "--names-stdin":
            use.unknown_reads = True
        elif text.startswith("-") and text != "-":
            recursive = recursive or "r" in text[1:] or "R" in text[1:] or text == "--recurse-paths"
            follow = follow and not ("y" in text[1:] or text == "--symlinks")
        else:
            positionals.append(args[i])
        i += 1
    if positionals:
        use.write(positionals[0])
        use.read(positionals[0])
    for word in positionals[1:]:
        use.read(word)
        if recursive:
            use.trees.append(TreeRead(word, follow=follow, excludes=tuple(excludes)))
    return use


def _unzip(args: list[Word]) -> FileUse:
    use = FileUse()
    positionals: list[Word] = []
    target: Word | None = None
    listing = False
    i = 0
    while i < len(args):
        text = args[i].text
        if text == "-d":
            target = args[i + 1] if i + 1 < len(args) else None
            i += 2
            continue
        if text == "-x":
            break
        if text.startswith("-") and text != "-":
            listing = listing or any(c in text[1:] for c in "lptvZ")
        else:
            positionals.append(args[i])
        i += 1
    if positionals:
        use.read(positionals[0])
    if not listing:
        use.unknown_writes = True
        use.write(target or Word("."))
    return use


# --- rsync, scp ---------------------------------------------------------------------

_REMOTE = re.compile(r"^(?:[A-Za-z][A-Za-z0-9+.-]*://|(?:[^/:@]+@)?([^/:]+):)")


def _remote_host(text: str) -> str | None:
    match = _REMOTE.match(text)
    if match is None:
        return None
    if "://" in match.group(0):
        host = text.split("://", 1)[1].split("/", 1)[0]
        return host.rsplit("@", 1)[-1].split(":", 1)[0]
    return match.group(1)


class _CopierOptions(NamedTuple):
    values: frozenset[str]  # options that take a value
    reads: frozenset[str]  # ...whose value is a file read
    lists: frozenset[str]  # ...whose value lists more files to read
    writes: frozenset[str]  # ...whose value is written
    code: frozenset[str]  # ...whose value is a program to run


_RSYNC = _CopierOptions(
    values=_fs("-e", "--rsh", "--rsync-path", "-f", "--filter", "-T", "--temp-dir", "-B",
               "--block-size", "--log-file", "--files-from", "--exclude-from", "--include-from",
               "--password-file", "--exclude", "--include", "--backup-dir", "--link-dest",
               "--compare-dest", "--copy-dest", "--chmod", "--chown", "--suffix", "--port",
               "--max-size", "--min-size", "--timeout", "--bwlimit", "--partial-dir",
               "--out-format", "--log-file-format"),
    reads=_fs("--exclude-from", "--include-from", "--password-file", "--link-dest",
              "--compare-dest", "--copy-dest"),
    lists=_fs("--files-from"),
    writes=_fs("--log-file", "--backup-dir", "-T", "--temp-dir", "--partial-dir"),
    code=_fs("-e", "--rsh", "--rsync-path"),
)  # fmt: skip
_SCP = _CopierOptions(
    values=_fs("-F", "-i", "-o", "-P", "-l", "-J", "-c", "-D", "-S"),
    reads=_fs("-F", "-i"),
    lists=_fs(),
    writes=_fs(),
    code=_fs("-S"),
)
_SSH_COMMAND_OPTIONS = re.compile(
    r"(?i)\s*(proxycommand|localcommand|permitlocalcommand|knownhostscommand)"
)


def _copier(args: list[Word], rsync: bool) -> FileUse:
    """rsync and scp: sources are read (trees with -r/-a), the last operand is written."""
    use = FileUse()
    table = _RSYNC if rsync else _SCP
    positionals: list[Word] = []
    recursive = follow = False
    i = 0
    while i < len(args):
        word = args[i]
        text = word.text
        i += 1
        if not text.startswith("-") or text == "-":
            positionals.append(word)
            continue
        long = text.startswith("--")
        option = text.split("=", 1)[0] if long else text[:2]
        if option not in table.values:
            flags = "" if long else text[1:]
            recursive = recursive or any(c in flags for c in "ra") or option in (
                "--recursive", "--archive")  # fmt: skip
            follow = follow or "L" in flags or option == "--copy-links"
            continue
        if long and "=" in text:
            value: Word | None = Word(text.split("=", 1)[1], word.dynamic)
        elif not long and len(text) > 2:
            value = Word(text[2:], word.dynamic)
        else:
            value = args[i] if i < len(args) else None
            i += 1
        if option in table.code or (
            option == "-o" and value is not None and _SSH_COMMAND_OPTIONS.match(value.text)
        ):
            use.runs_code = True
        if option in table.lists:
            use.unknown_reads = True
        if option in table.reads | table.lists:
            use.read(value)
        elif option in table.writes:
            use.write(value)
    for index, word in enumerate(positionals):
        host = _remote_host(word.text)
        if host is not None:
            use.hosts.append(host)
        elif index == len(positionals) - 1 and len(positionals) > 1:
            use.write(word)
        else:
            use.read(word)
            if recursive:
                use.trees.append(TreeRead(word, follow=follow))
    return use


# --- git ----------------------------------------------------------------------------

# Global options that take a value (git -C dir, -c key=value...).
GIT_GLOBAL_VALUES = _fs("-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path",
                        "--config-env", "--super-prefix", "--list-cmds", "--attr-source")  # fmt: skip
# -c keys that make git run a program (or load config that may).
_GIT_CODE_KEYS = re.compile(
    r"(?i)^(alias\.|core\.(pager|editor|sshcommand|fsmonitor|hookspath|askpass|gitproxy"
    r"|alternaterefsCommand)|pager\.|diff\.|merge\.|filter\.|credential\.|gpg\.|sequence\."
    r"|include|uploadpack\.|remote\..*\.(receivepack|uploadpack|vcs)|protocol\.|http\.)"
)
# Options after which git shows no file contents.
_GIT_NO_PATCH = _fs("--stat", "--shortstat", "--numstat", "--name-only", "--name-status",
                    "-s", "--no-patch", "--summary", "--dirstat", "--raw", "--oneline-only")  # fmt: skip
_GIT_PATCH = _fs("-p", "-u", "--patch", "--cc", "-c", "--binary", "--full-diff", "-S", "-G",
                 "--word-diff", "--color-words", "--pickaxe-regex", "--textconv")  # fmt: skip
# Subcommands whose output holds file contents, and whether they do by default.
_GIT_CONTENT = {"show": True, "diff": True, "log": False, "whatchanged": False,
                "grep": True, "archive": True, "blame": True, "annotate": True,
                "cat-file": True, "format-patch": True, "stash": False,
                "range-diff": True, "difftool": True, "fast-export": True,
                "bundle": True}  # fmt: skip
# Options whose value is the next word (only those certain to take one: a value wrongly
# skipped could hide a path, a path wrongly kept is only checked).
_GIT_VALUE_OPTIONS = _fs(
    "-n", "--max-count", "--skip", "--since", "--after", "--until", "--before", "--author",
    "--committer", "--grep", "--format", "--pretty", "--date", "-L", "--output", "-o",
    "--prefix", "--remote", "--exec", "--encoding", "--diff-filter", "--word-diff-regex",
    "--src-prefix", "--dst-prefix", "--line-prefix", "-S", "-G", "--contains",
    "--no-contains", "--points-at", "--sort",
)  # fmt: skip
_GIT_GREP_VALUES = _fs("-e", "-f", "-A", "-B", "-C", "-m", "--max-count", "--context",
                       "--after-context", "--before-context", "--max-depth", "--threads")  # fmt: skip


class GitCall(NamedTuple):
    """A git command line split into its global options, subcommand and arguments."""

    globals_: list[tuple[str, Word | None]]
    sub: str
    args: list[Word]


def split_git(args: list[Word]) -> GitCall:
    """``git -C x -c k=v --no-pager log -p`` -> globals, "log", ["-p"]."""
    found: list[tuple[str, Word | None]] = []
    i = 0
    while i < len(args) and args[i].text.startswith("-"):
        text = args[i].text
        option = text.split("=", 1)[0]
        if option in GIT_GLOBAL_VALUES and "=" in text and option != "-c":
            found.append((option, Word(text.split("=", 1)[1], args[i].dynamic)))
            i += 1
        elif option in GIT_GLOBAL_VALUES or text in ("-c", "-C"):
            if option == "--exec-path" or option == "--list-cmds":
                found.append((option, None))
                i += 1
                continue
            found.append((text, args[i + 1] if i + 1 < len(args) else None))
            i += 2
        else:
            found.append((text, None))
            i += 1
    sub = args[i].text if i < len(args) and not args[i].dynamic else ("?" if i < len(args) else "")
    return GitCall(found, sub, args[i + 1 :])


def _git_pathspec(text: str) -> tuple[str, bool, bool] | None:
    """(path, excluded?, from the top?) of a pathspec with magic, or None for a plain path."""
    if text.startswith((":!", ":^")):
        return text[2:], True, False
    if text.startswith(":/"):
        return text[2:] or ".", False, True
    if text.startswith(":("):
        end = text.find(")")
        if end < 0:
            return None
        magic = {m.strip() for m in text[2:end].split(",")}
        rest = text[end + 1 :] or "."
        return rest, bool(magic & {"exclude"}), "top" in magic
    return None


def _git(args: list[Word]) -> FileUse:
    use = FileUse()
    call = split_git(args)
    for option, value in call.globals_:
        if option == "-C" and value is not None:
            use.chdir.append(value)
        elif option in ("--git-dir", "--work-tree") and value is not None:
            use.read(value)
            use.runs_code = True
        elif option == "-c" and value is not None:
            if value.dynamic or _GIT_CODE_KEYS.match(value.text):
                use.runs_code = True
        elif option in ("--exec-path", "--config-env") and value is not None:
            use.runs_code = True
    sub, rest = call.sub, call.args
    if sub == "?":
        use.runs_code = use.unknown_reads = use.unknown_writes = True
        return use
    if sub == "config":
        _git_config(rest, use)
        return use
    if sub not in _GIT_CONTENT:
        return use
    flags = {w.text.split("=", 1)[0] for w in rest if w.text.startswith("-")}
    if sub == "stash":
        if not rest or rest[0].text != "show":
            return use
        rest = rest[1:]
    if sub == "cat-file" and flags & {"--batch", "--batch-check", "--batch-command"}:
        use.unknown_reads = True
    content = _GIT_CONTENT[sub]
    if sub in ("log", "whatchanged", "stash") and flags & _GIT_PATCH:
        content = True
    if (
        sub in ("show", "diff", "format-patch")
        and flags & _GIT_NO_PATCH
        and not (flags & (_GIT_PATCH - {"-c"}))
    ):
        content = False
    no_index = "--no-index" in flags or (sub == "grep" and "--untracked" in flags)
    short_output = ("-o",) if sub in ("archive", "format-patch") else ()  # git grep -o: a flag
    for option in ("--output", *short_output):
        for value in _git_values(rest, option):
            use.write(value)
    if sub == "grep":
        for value in _git_values(rest, "-f"):
            use.read(value)
    _git_arguments(sub, rest, use, content, no_index)
    return use


def _git_values(args: list[Word], option: str) -> list[Word]:
    """Values of ``option`` (git accepts unambiguous prefixes of long options: --out=x)."""
    found: list[Word] = []
    for i, word in enumerate(args):
        text = word.text
        if text == "--":
            break
        named = text == option or (option.startswith("--") and long_option(text, {option}))
        if not named:
            continue
        if "=" in text and option.startswith("--"):
            found.append(Word(text.split("=", 1)[1], word.dynamic))
        elif i + 1 < len(args):
            found.append(args[i + 1])
    return found


def _git_config(args: list[Word], use: FileUse) -> None:
    for i, word in enumerate(args):
        if word.text in ("-f", "--file") and i + 1 < len(args):
            use.read(args[i + 1])
        elif word.text.startswith("--file="):
            use.read(Word(word.text.split("=", 1)[1], word.dynamic))


def _git_arguments(sub: str, args: list[Word], use: FileUse, content: bool, no_index: bool) -> None:
    """Revisions, REV:PATH blobs and pathspecs of a git command that may print contents."""
    limits = False
    excludes: list[str] = []
    values = _GIT_VALUE_OPTIONS | (_GIT_GREP_VALUES if sub == "grep" else frozenset())
    pattern_given = sub == "grep" and any(w.text in ("-e", "-f") for w in args)
    i, after_dashes, positional = 0, False, 0
    while i < len(args):
        word = args[i]
        text = word.text
        i += 1
        if not after_dashes and text == "--":
            after_dashes = True
            continue
        if not after_dashes and text.startswith("-") and text != "-":
            if text in values:
                i += 1
            continue
        positional += 1
        magic = _git_pathspec(text)
        if magic is not None:
            path, excluded, top = magic
            if excluded:
                excludes.append(path)
                continue
            limits = True
            target = Word(path, word.dynamic)
            (use.repo_reads if top else use.pathspecs).append(target)
            if content:
                use.trees.append(TreeRead(target, repo=top))
        elif word.dynamic:
            use.unknown_reads = True
            limits = True
        elif no_index:
            limits = True  # plain files anywhere: read, but not confined like pathspecs
            use.unknown_reads = True
        elif after_dashes:
            limits = True
            use.pathspecs.append(word)
            if content:
                use.trees.append(TreeRead(word))
        elif ":" in text and not re.match(r"^[a-z+]+://|^[^/:]+@[^/:]+:", text):
            path = re.sub(r"^:[0-3]:", ":", text).split(":", 1)[1]
            limits = True
            local = path.startswith(("./", "../")) or path in (".", "..")
            target = Word(path or ".")
            (use.pathspecs if local else use.repo_reads).append(target)
            if content:
                use.trees.append(TreeRead(target, repo=not local))
        elif positional == 1 and ((sub == "grep" and not pattern_given) or sub == "archive"):
            continue  # git grep's pattern, git archive's tree-ish
        else:
            use.maybe_paths.append(word)
    use.maybe_trees = content
    if excludes:
        use.trees[:] = [t._replace(excludes=tuple(excludes)) for t in use.trees]
    if content and not limits:
        use.whole_repo = TreeRead(Word("."), repo=True, excludes=tuple(excludes))


_HANDLERS = {
    "find": _find,
    "sed": _sed,
    "gsed": _sed,
    "awk": _awk,
    "gawk": _awk,
    "mawk": _awk,
    "nawk": _awk,
    "jq": _jq,
    "gojq": _jq,
    "yq": lambda args: _jq(args, yq=True),
    "cd": _cd,
    "pushd": _cd,
    "dd": _dd,
    "tar": _tar,
    "gtar": _tar,
    "bsdtar": _tar,
    "zip": _zip,
    "unzip": _unzip,
    "rsync": lambda args: _copier(args, rsync=True),
    "scp": lambda args: _copier(args, rsync=False),
    "git": _git,
}
