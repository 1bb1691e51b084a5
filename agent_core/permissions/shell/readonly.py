"""The fixed set of shell commands that only read, allowed without asking in default mode.

A program in the set is read-only only when its arguments make it write
nothing and run nothing else (``sort -o``, ``sed w``, ``awk 'system()'``,
``find -exec``, ``rg --pre`` are not); the paths it reads still go through
the sandbox layer.
"""

from __future__ import annotations

from agent_core.permissions.shell.file_args import file_uses, long_option, split_git
from agent_core.permissions.shell.model import SimpleCommand
from agent_core.permissions.shell.wrappers import Word

READ_ONLY_PROGRAMS = frozenset({
    "ls", "cat", "head", "tail", "wc", "grep", "rg", "find", "stat", "diff", "pwd", "echo",
    "which", "file", "tree", "du", "df", "cd", "pushd", "true", "false", ":", "test", "[",
    "[[", "sort", "uniq", "cut", "tr", "basename", "dirname", "realpath", "readlink", "date",
    "uname", "whoami", "id", "hostname", "printf", "env", "printenv", "jq", "yq", "sleep",
    "seq", "nproc", "arch", "tty", "locale", "type", "command", "sed", "awk", "gawk", "mawk",
    "nl", "tac", "rev", "fold", "fmt", "expand", "unexpand", "base64", "base32", "od",
    "hexdump", "strings", "cksum", "md5sum", "sha1sum", "sha224sum", "sha256sum",
    "sha384sum", "sha512sum", "b2sum", "cmp", "comm", "join", "paste", "column", "xxd",
})  # fmt: skip
READ_ONLY_GIT = frozenset({
    "status", "log", "diff", "show", "branch", "rev-parse", "remote", "blame", "ls-files",
    "describe", "shortlog", "reflog", "tag", "config", "grep", "cat-file", "ls-tree",
    "rev-list", "merge-base", "whatchanged",
})  # fmt: skip
# Options (beyond what file_args sees) that make an otherwise read-only program write or run.
_WRITING_OPTIONS = {
    "file": frozenset({"-C", "--compile"}),
    "tree": frozenset({"-o"}),
    "xxd": frozenset({"-r", "-revert"}),
}
_VERSION_FLAGS = frozenset({"--version", "-V", "--help"})  # not -h: `shutdown -h` halts
_GIT_WRITING = frozenset({"--output", "--ext-diff", "--open-files-in-pager", "-O"})
_BRANCH_CHANGING = frozenset({
    "--delete", "--move", "--copy", "--force", "--set-upstream-to", "--unset-upstream",
    "--edit-description", "--track", "--no-track", "--create-reflog",
})  # fmt: skip
_BRANCH_VALUES = frozenset(
    {"--contains", "--no-contains", "--merged", "--no-merged", "--points-at", "--sort", "--format"}
)
_CONFIG_GETTERS = frozenset({"--get", "--get-all", "--get-regexp", "--get-urlmatch", "--list",
                             "-l", "--get-color", "--get-colorbool"})  # fmt: skip
_CONFIG_SETTERS = frozenset({"--add", "--unset", "--unset-all", "--replace-all", "--edit", "-e",
                             "--rename-section", "--remove-section"})  # fmt: skip
_CONFIG_VALUES = frozenset({"-f", "--file", "--blob", "--type", "--default", "--comment"})
_TAG_LISTING = frozenset({"-l", "--list", "-n", "--contains", "--no-contains", "--merged",
                          "--no-merged", "--points-at", "--sort", "--format", "--column",
                          "--no-column", "-i", "--ignore-case", "--omit-empty"})  # fmt: skip


def is_read_only(cmd: SimpleCommand) -> bool:
    """True when the command (as rules see it) is in the fixed read-only set."""
    words = cmd.words
    if not words or words[0].dynamic:
        return False
    name = words[0].text
    texts = [w.text for w in words[1:]]
    if len(texts) == 1 and texts[0] in _VERSION_FLAGS and "/" not in name and "=" not in name:
        return True  # `X --version`: a program named on PATH describing itself
    if name not in READ_ONLY_PROGRAMS and name != "git":
        return False  # paths (/tmp/x/ls), wrappers like sudo and VAR= prefixes land here
    if name == "git":
        return _git_read_only(list(cmd.argv[1:]))
    if not _program_read_only(name, texts):
        return False
    use = file_uses(cmd)
    return not (use.writes or use.unknown_writes or use.runs_code)


def _program_read_only(name: str, args: list[str]) -> bool:
    blocked = _WRITING_OPTIONS.get(name, frozenset())
    if any(t.split("=", 1)[0] in blocked for t in args):
        return False
    if name == "date":
        return _date_read_only(args)
    if name == "hostname":
        return all(t.startswith("-") and t not in ("-F", "--file", "-b", "--boot") for t in args)
    if name == "command":
        return bool(args) and args[0] in ("-v", "-V")
    if name == "env":
        return all(t.startswith("-") or "=" in t for t in args)
    return True


def _date_read_only(args: list[str]) -> bool:
    """``date`` prints unless asked to set the clock (-s, --set, or an MMDDhhmm operand)."""
    skip = False
    for text in args:
        if skip:
            skip = False
            continue
        if text.startswith("--"):
            if long_option(text, {"--set"}):
                return False
            skip = "=" not in text and bool(long_option(text, {"--date", "--file", "--reference"}))
            continue
        if text.startswith("-") and len(text) > 1:
            for pos, char in enumerate(text[1:]):
                if char == "s":
                    return False
                if char in "dfr":
                    skip = pos == len(text) - 2
                    break
            continue
        if not text.startswith("+"):
            return False
    return True


def _git_read_only(argv: list[Word]) -> bool:
    call = split_git(argv)
    if any(option != "--no-pager" for option, _ in call.globals_):
        return False  # -c, -C, --git-dir, --exec-path... can run or redirect things
    if call.sub not in READ_ONLY_GIT:
        return False
    args = [w.text for w in call.args]
    if any(w.dynamic for w in call.args):
        return False
    if any(long_option(t, _GIT_WRITING) or t.split("=", 1)[0] in _GIT_WRITING for t in args):
        return False
    use = file_uses(SimpleCommand((Word("git"), *argv), (Word("git"), *argv)))
    if use.writes or use.unknown_writes or use.runs_code:
        return False
    check = _GIT_SUBCOMMAND_CHECKS.get(call.sub)
    return check is None or check(args)


def _no_index_ok(args: list[str]) -> bool:
    # --no-index compares arbitrary files: their paths are not pathspecs the repo confines.
    return "--no-index" not in args


def _branch_lists_only(args: list[str]) -> bool:
    listing = False
    expect_value = False
    positionals = 0
    for text in args:
        if expect_value:
            expect_value = False
            continue
        if text.startswith("--"):
            option = text.split("=", 1)[0]
            if option in _BRANCH_CHANGING:
                return False
            listing = listing or option == "--list"
            expect_value = option in _BRANCH_VALUES and "=" not in text
        elif text.startswith("-") and len(text) > 1:
            if any(c in "dDmMcCfu" for c in text[1:]):
                return False
            listing = listing or "l" in text[1:]
        else:
            positionals += 1
    return positionals == 0 or listing


def _remote_lists_only(args: list[str]) -> bool:
    rest = [t for t in args if t not in ("-v", "--verbose")]
    return not rest or (rest[0] == "get-url" and len(rest) >= 2)


def _reflog_shows_only(args: list[str]) -> bool:
    positionals = [t for t in args if not t.startswith("-")]
    return not positionals or positionals[0] not in ("expire", "delete", "drop")


def _tag_lists_only(args: list[str]) -> bool:
    options = {t.split("=", 1)[0] for t in args if t.startswith("-")}
    if options - _TAG_LISTING:
        return False
    positionals = [t for t in args if not t.startswith("-")]
    return not positionals or bool(options & {"-l", "--list"})


def _config_reads_only(args: list[str]) -> bool:
    if args and args[0] in ("get", "list"):
        return True
    options = {t.split("=", 1)[0] for t in args if t.startswith("-")}
    if options & _CONFIG_SETTERS or (args and args[0] in ("set", "unset", "rename-section",
                                                          "remove-section", "edit")):  # fmt: skip
        return False
    if options & _CONFIG_GETTERS:
        return True
    positionals: list[str] = []
    skip = False
    for text in args:
        if skip:
            skip = False
        elif text.startswith("-"):
            skip = text in _CONFIG_VALUES
        else:
            positionals.append(text)
    return len(positionals) == 1  # `git config user.name` reads; with a value it sets


_GIT_SUBCOMMAND_CHECKS = {
    "branch": _branch_lists_only,
    "remote": _remote_lists_only,
    "reflog": _reflog_shows_only,
    "tag": _tag_lists_only,
    "config": _config_reads_only,
    "diff": _no_index_ok,
}
