"""Which arguments of a shell command are file paths, and what is done to them.

Pure: words in, classified words out. ``file_uses`` answers for one simple
command: the paths it reads and writes, the directory trees whose files it
reads (``grep -r``, ``tar c``, ``git log -p``), whether some of its paths cannot
be known from the text (a list file, ``-`` on stdin, a computed script), and
whether an option or a script makes it run other code (``sed e``, ``awk
system()``, ``rg --pre``). Programs with a table (programs/*.toml) are read by
the one walker; the few below keep a reader of their own because their
operands are not options a table can name (tar's bundled letters and modes,
zip's pattern lists, rsync and scp remotes, interpreters' scripts, dd's if=).
"""

from __future__ import annotations

from agent_core.permissions.shell.file_args.archives import tar_uses, unzip_uses, zip_uses
from agent_core.permissions.shell.file_args.awk import AwkProgram, awk_program
from agent_core.permissions.shell.file_args.copiers import copier_uses
from agent_core.permissions.shell.file_args.dd import dd_uses
from agent_core.permissions.shell.file_args.git import GIT_GLOBAL_VALUES, GitCall, split_git
from agent_core.permissions.shell.file_args.interpreters import (
    INTERPRETERS,
    PYTHON,
    interpreter_uses,
)
from agent_core.permissions.shell.file_args.model import FileUse, TreeRead
from agent_core.permissions.shell.file_args.sed import SedScript, sed_script
from agent_core.permissions.shell.gnu import long_option
from agent_core.permissions.shell.model import SimpleCommand, Word

__all__ = [
    "GIT_GLOBAL_VALUES",
    "AwkProgram",
    "FileUse",
    "GitCall",
    "SedScript",
    "TreeRead",
    "awk_program",
    "file_uses",
    "long_option",
    "sed_script",
    "split_git",
]

# Programs that read arguments of the form @FILE as more arguments.
_RESPONSE_FILES = frozenset({
    "gcc", "g++", "cc", "c++", "clang", "clang++", "ld", "javac", "java", "7z", "7za",
    "rustc", "nvcc", "ar", "dotnet", "csc", "kotlinc", "scalac",
})  # fmt: skip


_HANDLERS = {
    "dd": dd_uses,
    "tar": tar_uses,
    "gtar": tar_uses,
    "bsdtar": tar_uses,
    "zip": zip_uses,
    "unzip": unzip_uses,
    "rsync": lambda args: copier_uses(args, rsync=True),
    "scp": lambda args: copier_uses(args, rsync=False),
}


def file_uses(cmd: SimpleCommand) -> FileUse:
    """What ``cmd`` reads, writes and runs, as far as its words tell; empty for unknown programs."""
    from agent_core.permissions.shell.walker import walk_command  # local: it imports this package

    name = cmd.name
    args = list(cmd.argv[1:])
    handler = _HANDLERS.get(name)
    if handler is not None:
        use = handler(args)
    elif PYTHON.fullmatch(name) or name in INTERPRETERS:
        use = interpreter_uses(name, args)
    else:
        use = walk_command(name, args).use
    if name in _RESPONSE_FILES:
        for word in args:
            if word.text.startswith("@") and len(word.text) > 1:
                use.read(Word(word.text[1:], word.dynamic))
    return use
