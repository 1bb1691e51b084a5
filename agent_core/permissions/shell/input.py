"""What a command takes from its input or arguments as code: xargs items, the script a
shell or interpreter runs (a file, ``<(...)``, ``/dev/fd/3``), code computed at run time.
"""

from __future__ import annotations

import re
import shlex

from agent_core.permissions.shell.model import Doubt, Word
from agent_core.permissions.shell.names import SHELLS, is_interpreter
from agent_core.permissions.shell.wrappers import Unwrapped

MAX_ITEMS = 8  # literal xargs input with more lines than this is treated as unknown
# Programs whose every option only reads: input piped into `xargs grep` cannot make it write.
_XARGS_SAFE = frozenset({
    "grep", "egrep", "fgrep", "wc", "cat", "head", "tail", "ls", "stat", "echo", "du", "df",
    "basename", "dirname", "realpath", "readlink", "md5sum", "sha1sum", "sha256sum",
    "sha512sum", "b2sum", "cksum",
})  # fmt: skip
_CODE_OPTIONS = frozenset({"-c", "-e", "-E", "--eval", "-p", "--print", "-r", "--command"})


def rule_view(found: Unwrapped, argv: list[Word]) -> list[Word]:
    """Rule words for an xargs-built argv: the wrappers kept, the built argv after them."""
    kept = len(found.rule_words) - len(found.argv)
    return found.rule_words[: max(kept, 0)] + argv


def xargs_argvs(
    found: Unwrapped, stdin: str | None, piped: bool, doubts: list[Doubt]
) -> list[list[Word]]:
    """The commands xargs builds from its input: known when the input is a literal."""
    use = found.xargs
    argv = found.argv
    assert use is not None
    if not argv or (argv[0].text in _XARGS_SAFE and use.replace is None):
        return [argv]  # only reads whatever it is given (actions treat the names as unknown)
    data = None if use.from_file else (stdin if piped else "")
    if data is not None:
        try:
            items = data.split("\n") if use.replace else shlex.split(data)
        except ValueError:
            items = None
        if items is not None:
            items = [i.strip() for i in items if i.strip()] if use.replace else items
            if use.replace is None:
                return [argv + [Word(i) for i in items]]
            if 0 < len(items) <= MAX_ITEMS:
                return [
                    [Word(w.text.replace(use.replace, i), w.dynamic) for w in argv] for i in items
                ]
            if not items:
                return [argv]
    name = argv[0].text
    doubts.append(Doubt(f"xargs runs {name} with arguments read from its input"))
    unknown = Word("$(xargs input)", True, True)
    if use.replace is None:
        return [argv + [unknown]]
    built = [unknown if use.replace in w.text else w for w in argv]
    if built[0].dynamic:
        doubts.append(Doubt("xargs takes the program to run from its input", True))
    return [built]


def script_argument(argv: list[Word]) -> Word | None:
    """The ``<(...)`` or descriptor (``/dev/fd/3``) a shell, interpreter or ``source`` runs."""
    script = script_word(argv)
    if script is None:
        return None
    if script.text.startswith(("<(", ">(")) or _DESCRIPTOR.match(script.text):
        return script
    return None


_DESCRIPTOR = re.compile(r"^/(dev/(fd/[1-9]\d*|tcp/|udp/)|proc/[^/]+/fd/[1-9])")
_SCRIPT_VALUES = frozenset({"-o", "+o", "-O", "+O", "--rcfile", "--init-file", "-W", "-X", "-I"})


def script_word(argv: list[Word]) -> Word | None:
    """The file a shell, interpreter or ``source`` runs (``bash x.sh``, ``./x.sh``)."""
    if not argv:
        return None
    name = argv[0].text
    if name not in SHELLS and name not in (".", "source") and not is_interpreter(name):
        return None
    skip = False
    for word in argv[1:]:
        if skip:
            skip = False
        elif word.text in _SCRIPT_VALUES:
            skip = True
        elif word.text in _CODE_OPTIONS or word.text == "-m":
            return None
        elif not word.text.startswith("-") or word.text.startswith(("<(", ">(")):
            return word
    return None


def interpreter_doubts(argv: list[Word]) -> list[Doubt]:
    """A shell or interpreter whose code or options are computed at run time."""
    if not argv:
        return []
    name = argv[0].text
    if name not in SHELLS and not is_interpreter(name) and name not in ("eval", "source", "."):
        return []
    for i, word in enumerate(argv[1:], 1):
        prior = argv[i - 1].text
        if word.dynamic and name not in SHELLS and prior in _CODE_OPTIONS:
            return [Doubt(f"{name} runs code computed at run time: {word.text[:80]}", True)]
        if word.split:
            return [Doubt(f"{name} takes options computed at run time: {word.text}", True)]
        if not word.text.startswith("-") and prior not in _CODE_OPTIONS:
            return []  # the script: what follows are its own arguments
    return []
