"""git: global options, which subcommands print file contents, REV:PATH blobs and pathspecs."""

from __future__ import annotations

import re
from typing import NamedTuple

from agent_core.permissions.shell.file_args.model import FileUse, TreeRead
from agent_core.permissions.shell.file_args.spec import fs, long_option
from agent_core.permissions.shell.git_config_keys import runs_code as git_config_runs_code
from agent_core.permissions.shell.wrappers import Word

# Global options that take a value (git -C dir, -c key=value...).
GIT_GLOBAL_VALUES = fs("-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path",
                       "--config-env", "--super-prefix", "--list-cmds", "--attr-source")  # fmt: skip
# -c keys that make git run a program (or load config that may).
# Options after which git shows no file contents.
_GIT_NO_PATCH = fs("--stat", "--shortstat", "--numstat", "--name-only", "--name-status",
                   "-s", "--no-patch", "--summary", "--dirstat", "--raw", "--oneline-only")  # fmt: skip
_GIT_PATCH = fs("-p", "-u", "--patch", "--cc", "-c", "--binary", "--full-diff", "-S", "-G",
                "--word-diff", "--color-words", "--pickaxe-regex", "--textconv")  # fmt: skip
# Subcommands whose output holds file contents, and whether they do by default.
_GIT_CONTENT = {"show": True, "diff": True, "log": False, "whatchanged": False,
                "grep": True, "archive": True, "blame": True, "annotate": True,
                "cat-file": True, "format-patch": True, "stash": False,
                "range-diff": True, "difftool": True, "fast-export": True,
                "bundle": True}  # fmt: skip
# Options whose value is the next word (only those certain to take one: a value wrongly
# skipped could hide a path, a path wrongly kept is only checked).
_GIT_VALUE_OPTIONS = fs(
    "-n", "--max-count", "--skip", "--since", "--after", "--until", "--before", "--author",
    "--committer", "--grep", "--format", "--pretty", "--date", "-L", "--output", "-o",
    "--prefix", "--remote", "--exec", "--encoding", "--diff-filter", "--word-diff-regex",
    "--src-prefix", "--dst-prefix", "--line-prefix", "-S", "-G", "--contains",
    "--no-contains", "--points-at", "--sort",
)  # fmt: skip
_GIT_GREP_VALUES = fs("-e", "-f", "-A", "-B", "-C", "-m", "--max-count", "--context",
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


def git_uses(args: list[Word]) -> FileUse:
    """git: what its global options and a content-printing subcommand read and write."""
    use = FileUse()
    call = split_git(args)
    for option, value in call.globals_:
        if option == "-C" and value is not None:
            use.chdir.append(value)
        elif option in ("--git-dir", "--work-tree") and value is not None:
            use.read(value)
            use.runs_code = True
        elif option == "-c" and value is not None:
            if value.dynamic or git_config_runs_code(value.text):
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
