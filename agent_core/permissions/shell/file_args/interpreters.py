"""Interpreters (python, node, perl, sh...): the script they are given is a read."""

from __future__ import annotations

import re

from agent_core.permissions.shell.file_args.model import FileUse
from agent_core.permissions.shell.gnu import fs
from agent_core.permissions.shell.model import Word

PYTHON = re.compile(r"python[\d.]*|pypy[\d.]*")
INTERPRETERS = frozenset({"node", "nodejs", "ruby", "perl", "php", "bash", "sh", "zsh",
                           "dash", "ksh", "mksh", "ash", "lua", "Rscript", "tclsh"})  # fmt: skip
# (options that end the options with inline code, options that take a value)
_INTERPRETER_OPTIONS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "python": (fs("-c", "-m"), fs("-W", "-X", "-Q")),
    "node": (fs("-e", "--eval", "-p", "--print"),
             fs("-r", "--require", "--import", "--loader", "-C", "--conditions", "--input-type")),
    "ruby": (fs("-e"), fs("-r", "-I", "-C", "-E", "-F")),
    "perl": (fs("-e", "-E"), fs("-I", "-M", "-m", "-x")),
    "php": (fs("-r"), fs("-c", "-d", "-z")),
    "shell": (fs("-c"), fs("-o", "+o", "-O", "+O", "--rcfile", "--init-file")),
    "other": (fs("-e"), fs()),
}  # fmt: skip


def interpreter_uses(name: str, args: list[Word]) -> FileUse:
    """An interpreter's script argument is a read; inline code reads nothing we can name."""
    use = FileUse()
    family = "python" if PYTHON.fullmatch(name) else name
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
