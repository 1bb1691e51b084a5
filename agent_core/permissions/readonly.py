"""The fixed set of shell commands that only read, allowed without asking in default mode."""

from __future__ import annotations

from agent_core.permissions.shell_model import SimpleCommand

READ_ONLY_PROGRAMS = frozenset({
    "ls", "cat", "head", "tail", "wc", "grep", "rg", "find", "stat", "diff", "pwd", "echo",
    "which", "file", "tree", "du", "df",
})  # fmt: skip
READ_ONLY_GIT = frozenset({"status", "log", "diff", "show", "branch"})

# Options that make an otherwise read-only program write or run something.
_WRITING_OPTIONS = {
    "find": frozenset(
        {"-exec", "-execdir", "-delete", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls"}
    ),
    "rg": frozenset({"--pre"}),
    "tree": frozenset({"-o"}),
    "file": frozenset({"-C", "--compile"}),
}
# --no-index compares arbitrary files, inside the project or not.
_GIT_WRITING = frozenset({"--output", "--ext-diff", "-o", "--no-index"})
_BRANCH_CHANGING = frozenset({
    "--delete", "--move", "--copy", "--force", "--set-upstream-to", "--unset-upstream",
    "--edit-description", "--track", "--no-track", "--create-reflog",
})  # fmt: skip
_BRANCH_VALUES = frozenset(
    {"--contains", "--no-contains", "--merged", "--no-merged", "--points-at", "--sort", "--format"}
)


def is_read_only(cmd: SimpleCommand) -> bool:
    """True when the command (as rules see it) is in the fixed read-only set."""
    words = cmd.words
    if not words or words[0].dynamic:
        return False
    name = words[0].text
    if name not in READ_ONLY_PROGRAMS and name != "git":
        return False  # paths (/tmp/x/ls), wrappers like sudo and VAR= prefixes land here
    texts = [w.text for w in words[1:]]
    if name == "git":
        return _git_read_only(texts)
    blocked = _WRITING_OPTIONS.get(name, frozenset())
    return not any(t.split("=", 1)[0] in blocked for t in texts)


def _git_read_only(args: list[str]) -> bool:
    i = 0
    while i < len(args) and args[i] == "--no-pager":
        i += 1  # any other global option (-c, -C, --git-dir...) can run or redirect things
    if i >= len(args) or args[i] not in READ_ONLY_GIT:
        return False
    sub, rest = args[i], args[i + 1 :]
    if any(t.split("=", 1)[0] in _GIT_WRITING for t in rest):
        return False
    return sub != "branch" or _branch_lists_only(rest)


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
