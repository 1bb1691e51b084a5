"""rsync and scp: sources read, the destination written, remote hosts named."""

from __future__ import annotations

import re
from typing import NamedTuple

from agent_core.permissions.shell.file_args.model import FileUse, TreeRead
from agent_core.permissions.shell.gnu import fs
from agent_core.permissions.shell.model import Word

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
    values=fs("-e", "--rsh", "--rsync-path", "-f", "--filter", "-T", "--temp-dir", "-B",
              "--block-size", "--log-file", "--files-from", "--exclude-from", "--include-from",
              "--password-file", "--exclude", "--include", "--backup-dir", "--link-dest",
              "--compare-dest", "--copy-dest", "--chmod", "--chown", "--suffix", "--port",
              "--max-size", "--min-size", "--timeout", "--bwlimit", "--partial-dir",
              "--out-format", "--log-file-format"),
    reads=fs("--exclude-from", "--include-from", "--password-file", "--link-dest",
             "--compare-dest", "--copy-dest"),
    lists=fs("--files-from"),
    writes=fs("--log-file", "--backup-dir", "-T", "--temp-dir", "--partial-dir"),
    code=fs("-e", "--rsh", "--rsync-path"),
)  # fmt: skip
_SCP = _CopierOptions(
    values=fs("-F", "-i", "-o", "-P", "-l", "-J", "-c", "-D", "-S"),
    reads=fs("-F", "-i"),
    lists=fs(),
    writes=fs(),
    code=fs("-S"),
)
_SSH_COMMAND_OPTIONS = re.compile(
    r"(?i)\s*(proxycommand|localcommand|permitlocalcommand|knownhostscommand)"
)


def copier_uses(args: list[Word], rsync: bool) -> FileUse:
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
