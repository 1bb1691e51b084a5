"""git's own language: global options before the subcommand, REV:PATH blobs and pathspecs.

Which options each subcommand takes, and which print file contents, is in the
program table (programs/git.toml); this reads the operands those options leave.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from agent_core.permissions.shell.file_args.model import FileUse, TreeRead
from agent_core.permissions.shell.model import Word

# Global options that take a value (git -C dir, -c key=value...).
GIT_GLOBAL_VALUES = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path",
                       "--config-env", "--super-prefix", "--list-cmds", "--attr-source"})  # fmt: skip


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


def git_operands(words: list[Word], dashed: list[bool], use: FileUse, content: bool) -> None:
    """Revisions, REV:PATH blobs and pathspecs of a git command that may print contents."""
    limits = False
    excludes: list[str] = []
    for word, after_dashes in zip(words, dashed, strict=False):
        text = word.text
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
        else:
            use.maybe_paths.append(word)
    use.maybe_trees = content
    if excludes:
        use.trees[:] = [t._replace(excludes=tuple(excludes)) for t in use.trees]
    if content and not limits:
        use.whole_repo = TreeRead(Word("."), repo=True, excludes=tuple(excludes))
