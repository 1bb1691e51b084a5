"""How state flows between the parts of a command line: `cd`, and programs fed on stdin."""

from __future__ import annotations

import posixpath

from agent_core.permissions.shell_wrappers import SHELLS, Word


def next_cwd(argv: list[Word], cwd: str) -> str:
    """The directory after ``argv`` runs ("?" when it cannot be known)."""
    name = argv[0].text
    if name == "popd":
        return "?"
    if name not in ("cd", "pushd"):
        return cwd
    args = [w for w in argv[1:] if not (w.text.startswith("-") and w.text != "-")]
    if not args:
        return "~"
    target = args[0]
    if target.dynamic or target.text == "-":
        return "?"
    if target.text.startswith(("/", "~")):
        return posixpath.normpath(target.text)
    if cwd == "?":
        return "?"
    return posixpath.normpath(posixpath.join(cwd or ".", target.text))


def literal_output(argv: list[Word], stdin: str | None = None) -> str | None:
    """What a command prints when that is known: literal echo/printf, or cat/tee passing stdin."""
    if argv and argv[0].text in ("cat", "tee") and stdin is not None:
        if argv[0].text == "tee" or all(w.text == "-" for w in argv[1:]):
            return stdin
    if not argv or argv[0].text not in ("echo", "printf") or any(w.dynamic for w in argv[1:]):
        return None
    args = [w.text for w in argv[1:]]
    while argv[0].text == "echo" and args and args[0] in ("-n", "-e", "-E", "-ne", "-en"):
        args.pop(0)
    # printf's format and echo -e escapes: splitting on every \n finds each line it could print.
    return "\n".join(args).replace("\\n", "\n")


_STDIN_FILES = frozenset({"-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})


def reads_program_from_stdin(argv: list[Word]) -> bool:
    """True for a shell that takes its script from stdin (``bash``, ``sh -s``, ``. /dev/stdin``)."""
    if argv and argv[0].text in (".", "source"):
        return len(argv) > 1 and argv[1].text in _STDIN_FILES
    if not argv or argv[0].text not in SHELLS:
        return False
    skip_value = False
    for word in argv[1:]:
        text = word.text
        if skip_value:
            skip_value = False
        elif text == "-s" or (text.startswith("-") and not text.startswith("--")
                                     and "s" in text[1:]):  # fmt: skip
            return True
        elif text in ("-o", "+o", "-O", "+O", "--rcfile", "--init-file"):
            skip_value = True
        elif text.startswith(("-", "+")):
            if not text.startswith("--") and "c" in text[1:]:
                return False
        else:
            return text in _STDIN_FILES  # otherwise a script file
    return True
