"""grep and rg as ArgSpecs, and find: start points, file tests and actions."""

from __future__ import annotations

import re

from agent_core.permissions.shell.file_args.model import FileUse, TreeRead
from agent_core.permissions.shell.file_args.spec import ArgSpec, fs
from agent_core.permissions.shell.wrappers import Word

_PATTERN_GIVEN = fs("-e", "-f", "--regexp", "--file", "--files")

# fmt: off
SEARCH_SPECS: dict[str, ArgSpec] = {
    "grep": ArgSpec(
        short_values="emABCd", skip=1, no_skip_with=_PATTERN_GIVEN,
        long_values=fs("--regexp", "--max-count", "--include", "--exclude", "--exclude-dir",
                       "--directories", "--devices", "--label", "--color", "--colour",
                       "--context", "--after-context", "--before-context", "--binary-files"),
        path_options={"-f": False, "--file": False, "--exclude-from": False},
        recursive=fs("-r", "-R", "--recursive", "--dereference-recursive"),
        follow=fs("-R", "--dereference-recursive"), default_path=".",
    ),
    "rg": ArgSpec(
        short_values="egtTmABCEjMrd", skip=1,
        no_skip_with=fs("-e", "-f", "--regexp", "--file", "--files", "--type-list"),
        long_values=fs("--regexp", "--glob", "--iglob", "--type", "--type-not", "--type-add",
                       "--type-clear", "--max-count", "--max-depth", "--encoding", "--replace",
                       "--context", "--after-context", "--before-context", "--max-filesize",
                       "--threads", "--sort", "--sortr", "--color", "--colors", "--engine",
                       "--path-separator", "--context-separator", "--field-match-separator",
                       "--field-context-separator", "--max-columns", "--dfa-size-limit",
                       "--regex-size-limit"),
        path_options={"-f": False, "--file": False, "--ignore-file": False},
        code_options=fs("--pre", "--pre-glob"), follow=fs("-L", "--follow"), default_path=".",
    ),
}
# fmt: on


_FIND_VALUE_TESTS = fs(
    "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex",
    "-lname", "-ilname", "-type", "-xtype", "-perm", "-user", "-group", "-uid", "-gid",
    "-size", "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-maxdepth",
    "-mindepth", "-links", "-inum", "-used", "-context", "-printf", "-fstype", "-regextype",
)  # fmt: skip
_FIND_READS = fs("-newer", "-anewer", "-cnewer", "-samefile")
_FIND_WRITES = fs("-fprint", "-fprint0", "-fls", "-fprintf")
_FIND_EXEC = fs("-exec", "-execdir", "-ok", "-okdir")


def find_uses(args: list[Word]) -> FileUse:
    """find: its start points are read; -exec, -delete and -fprint run or write."""
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
