"""Layer 1: commands nobody should run from an agent. Not configurable; nothing gets past it."""

from __future__ import annotations

import itertools
import posixpath
import re
from typing import NamedTuple

import msgspec

from agent_core.permissions.shell.facts import ShellFacts
from agent_core.permissions.shell.model import SimpleCommand
from agent_core.permissions.shell.wrappers import (
    SHELLS,
    Word,
    basename,
    is_interpreter,
    unknown,
)


class BlacklistHit(NamedTuple):
    entry: str  # the blacklist entry name, reported as the verdict's rule
    reason: str


_GLOB_CHARS = "*?[{"
# Directories whose direct children are still part of the system (/usr/lib, /home/bob...).
_SYSTEM_PARENTS = frozenset({
    "usr", "etc", "var", "home", "Users", "System", "Library", "boot", "opt", "lib", "lib64",
    "bin", "sbin", "private", "Applications", "Volumes", "nix", "snap", "root", "srv",
})  # fmt: skip
_EXEMPT_DEVICES = frozenset({
    "/dev/null", "/dev/zero", "/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/tty",
    "/dev/random", "/dev/urandom",
})  # fmt: skip
_DISK = re.compile(
    r"^/dev/(sd[a-z]|nvme\d|hd[a-z]|mmcblk\d|vd[a-z]|xvd[a-z]|r?disk\d|md\d|dm-\d|mapper/)"
)
_DOWNLOAD_IN_TEXT = re.compile(
    r"(?:^|[\s;|&(`/])(curl|wget|fetch|xh|aria2c|lwp-request|lwp-download)(?=\s|$|\))"
)
_DOWNLOADERS = frozenset(
    {"curl", "wget", "fetch", "xh", "aria2c", "lwp-request", "lwp-download", "http", "https"}
)
_DISK_WRITERS = frozenset(
    {"tee", "cp", "mv", "shred", "ln", "install", "pv", "wipefs", "blkdiscard"}
)
_DESTRUCTIVE = frozenset(
    {"rm", "shred", "unlink", "rmdir", "mv", "chmod", "chown", "truncate", "dd"}
)
# A name starts a token (the lookbehind) and is bounded, so long runs of `$` or `[` stay linear.
_FUNC_DEF = re.compile(
    r"(?<![^\s;&|(){}`])(?:function\s+([^\s(){}|&;<>'\"]{1,200})\s*(?:\(\s*\))?"
    r"|([^\s(){}|&;<>'\"]{1,200})\s*\(\s*\))\s*[{(]"
)


class _Where(NamedTuple):
    root: str
    home: str


# ${HOME}, $HOME, and ${HOME:?}, ${HOME:-x}, ${HOME%/}...: all the home directory when set.
_HOME_VAR = re.compile(r"^(?:\$HOME|\$\{HOME(?:[:]?[-?=][^}]*|%%?/*)?\})(?=/|$)")


def _location(word: Word, cwd: str, where: _Where) -> str | None:
    """The absolute path a target word names, cut above its first glob; None when unknown."""
    text = word.text
    if home := _HOME_VAR.match(text):
        text = where.home + text[home.end() :]
    elif text == "~" or text.startswith("~/"):
        text = where.home + text[1:]
    elif text.startswith("~"):
        text = "/home/" + text[1:]  # ~user, and ~$USER read the same way
    elif unknown(word):
        return None
    if not text.startswith("/"):
        if cwd == "?":
            return None
        base = _location(Word(cwd), "", where) if cwd else where.root
        if base is None:
            return None
        text = posixpath.join(base, text)
    parts: list[str] = []
    for part in text.split("/"):
        if any(c in part for c in _GLOB_CHARS):
            break  # `rm -rf /usr/*` empties /usr: judge the directory itself
        parts.append(part)
    return posixpath.normpath("/" + "/".join(parts).lstrip("/"))


def _critical(path: str | None, where: _Where) -> bool:
    """Root, any top-level directory, system directories' children, home and its ancestors.

    The project itself is judged by the sandbox and the mode, not here, unless it is
    the root or home (someone running the agent in ~).
    """
    if path is None:
        return False
    home = where.home
    if path == "/" or path == home or home.startswith(path + "/"):
        return True
    if path == where.root or path.startswith(where.root.rstrip("/") + "/"):
        return False
    if path.count("/") == 1:
        return True
    top = path.split("/")[1]
    if path.count("/") == 2 and top in _SYSTEM_PARENTS:
        return True
    return False


def _split_options(args: tuple[Word, ...]) -> tuple[list[str], list[Word]]:
    options: list[str] = []
    positionals: list[Word] = []
    ended = False
    for word in args:
        if not ended and word.text == "--":
            ended = True
        elif not ended and word.text.startswith("-") and len(word.text) > 1:
            options.append(word.text)
        else:
            positionals.append(word)
    return options, positionals


def _recursive(options: list[str], letters: str) -> bool:
    return any(
        o == "--recursive" or (not o.startswith("--") and any(c in o[1:] for c in letters))
        for o in options
    )


def _show(cmd: SimpleCommand) -> str:
    return " ".join(w.text for w in cmd.argv)[:120]


def _check_command(cmd: SimpleCommand, where: _Where) -> BlacklistHit | None:
    name = cmd.name
    options, positionals = _split_options(cmd.argv[1:])

    def critical(words: list[Word]) -> bool:
        return any(_critical(_location(w, cmd.cwd, where), where) for w in words)

    if name == "rm":
        if "--no-preserve-root" in options:
            return BlacklistHit("rm-no-preserve-root", f"deletes the root filesystem: {_show(cmd)}")
        if _recursive(options, "rR") and critical(positionals):
            return BlacklistHit(
                "rm-recursive-system-dir",
                f"recursive delete of the root, home or a system directory: {_show(cmd)}",
            )
    # `chmod -R -w /`: the mode can look like an option, then no positional is the mode.
    mode_in_options = name == "chmod" and any(set(o[1:]) <= set("rwxXstugoa") for o in options)
    targets = positionals if mode_in_options else positionals[1:]
    if name in ("chmod", "chown", "chgrp") and (
        "--no-preserve-root" in options or (_recursive(options, "R") and critical(targets))
    ):
        return BlacklistHit(
            f"{name}-recursive-system-dir",
            f"recursive {name} of the root or a system directory: {_show(cmd)}",
        )
    if name == "mv" and critical(positionals[:-1]):
        return BlacklistHit(
            "mv-system-dir", f"moves the root, home or a system directory: {_show(cmd)}"
        )
    if name.startswith("mkfs") or name in ("mke2fs", "mkswap", "wipefs", "mkdosfs", "newfs"):
        return BlacklistHit("mkfs", f"formats a filesystem: {_show(cmd)}")
    if hit := _disk_tool(cmd, name, options, positionals):
        return hit
    if name == "dd":
        for word in cmd.argv[1:]:
            target = word.text[3:] if word.text.startswith("of=") else ""
            if target.startswith("/dev/") and target not in _EXEMPT_DEVICES:
                return BlacklistHit("dd-to-device", f"dd writes onto a device: {_show(cmd)}")
    if name in _DISK_WRITERS and any(_DISK.match(w.text) for w in positionals):
        return BlacklistHit("disk-device-write", f"writes to a disk device: {_show(cmd)}")
    if (
        name in ("shutdown", "reboot", "halt", "poweroff")
        or (name in ("init", "telinit") and any(w.text in ("0", "6") for w in positionals))
        or (
            name == "systemctl"
            and any(w.text in ("poweroff", "reboot", "halt", "kexec") for w in positionals)
        )
    ):
        return BlacklistHit("shutdown", f"shuts down or reboots the machine: {_show(cmd)}")
    if name == "find":
        return _check_find(cmd, where)
    if _runs_downloaded_code(cmd):
        piped = " | ".join([*cmd.upstream, ""]) if cmd.upstream else ""
        return BlacklistHit(
            "download-to-shell", f"runs code straight from a download: {piped}{_show(cmd)}"
        )
    return None


_PARTITIONERS = frozenset({"fdisk", "sfdisk", "gdisk", "sgdisk", "cfdisk", "cgdisk", "parted"})
_LISTING = frozenset({
    "-l", "--list", "-p", "--print", "-d", "--dump", "-v", "--verify", "-V", "--version",
    "-h", "--help", "-s", "--show-size", "-J", "--json", "-i", "--info", "-m", "--machine",
    "print", "p",
})  # fmt: skip
_DISK_ERASERS = {
    "cryptsetup": frozenset({"luksFormat", "erase", "luksErase", "reencrypt", "luksKillSlot"}),
    "mdadm": frozenset({"--create", "-C", "--build", "-B", "--zero-superblock"}),
    "nvme": frozenset({"format", "sanitize"}),
    "zpool": frozenset({"destroy", "labelclear", "create"}),
    "hdparm": frozenset({"--security-erase", "--security-erase-enhanced", "--trim-sector-ranges",
                         "--write-sector", "--make-bad-sector", "--dco-restore"}),
    "dmsetup": frozenset({"remove_all", "wipe_table"}),
    "flashrom": frozenset({"-w", "--write", "-E", "--erase"}),
}  # fmt: skip


def _disk_tool(
    cmd: SimpleCommand, name: str, options: list[str], positionals: list[Word]
) -> BlacklistHit | None:
    """Partition editors, secure erasers and volume tools that destroy a disk's contents."""
    words = {w.text for w in cmd.argv[1:]}
    listing = bool(words & _LISTING) and all(w in _LISTING or w.startswith("/dev/") for w in words)
    if name in _PARTITIONERS and not listing:
        return BlacklistHit("partition-table", f"edits a disk's partition table: {_show(cmd)}")
    if name in ("blkdiscard", "srm", "wipe", "lvremove", "vgremove", "pvremove"):
        return BlacklistHit("disk-erase", f"erases a disk or volume: {_show(cmd)}")
    erasing = _DISK_ERASERS.get(name)
    if erasing and (words & erasing or any(o.split("=", 1)[0] in erasing for o in options)):
        return BlacklistHit("disk-erase", f"erases a disk or volume: {_show(cmd)}")
    return None


def _check_find(cmd: SimpleCommand, where: _Where) -> BlacklistHit | None:
    starts: list[Word] = []
    for word in cmd.argv[1:]:
        if word.text.startswith(("-", "(", "!")):
            break
        starts.append(word)
    starts = starts or [Word(".")]
    texts = [w.text for w in cmd.argv]
    deletes = "-delete" in texts
    for i, text in enumerate(texts):
        if text in ("-exec", "-execdir", "-ok", "-okdir") and i + 1 < len(texts):
            deletes = deletes or basename(texts[i + 1]) in _DESTRUCTIVE
    if deletes and any(_critical(_location(w, cmd.cwd, where), where) for w in starts):
        return BlacklistHit(
            "find-delete-system-dir",
            f"find deletes under the root or a system directory: {_show(cmd)}",
        )
    return None


def _program_source(cmd: SimpleCommand) -> Word | str | None:
    """Where a shell or interpreter reads its program: a word, "stdin", or None (a module)."""
    args = list(cmd.argv[1:])
    i = 0
    while i < len(args):
        text = args[i].text
        if text == "-":
            return "stdin"
        if text == "-m":
            return None
        if text.startswith("-") and len(text) > 1 and not text.startswith("--"):
            if text[-1] in "ce" or text == "-r":
                return args[i + 1] if i + 1 < len(args) else None
            if text[-1] == "s" and cmd.name in SHELLS:
                return "stdin"
            i += 2 if text in ("-o", "+o", "-O", "-W", "-X") else 1
            continue
        if text.startswith("--"):
            i += 1
            continue
        return args[i]
    return "stdin"


def _runs_downloaded_code(cmd: SimpleCommand) -> bool:
    name = cmd.name
    feeders = set(cmd.upstream) | set(cmd.substituted)
    if name in ("eval", "source", "."):
        stdin = len(cmd.argv) > 1 and cmd.argv[1].text in ("/dev/stdin", "/dev/fd/0", "-")
        return any(w.dynamic and _DOWNLOAD_IN_TEXT.search(w.text) for w in cmd.argv[1:]) or (
            stdin and bool(feeders & _DOWNLOADERS)
        )
    if name not in SHELLS and not is_interpreter(name):
        return False
    source = _program_source(cmd)
    if source == "stdin":
        return bool(feeders & _DOWNLOADERS)
    return (
        isinstance(source, Word) and source.dynamic and bool(_DOWNLOAD_IN_TEXT.search(source.text))
    )


def _fork_bomb(text: str) -> bool:
    for match in _FUNC_DEF.finditer(text):
        name = re.escape(match.group(1) or match.group(2))
        body = text[match.end() : match.end() + 400]
        piped = rf"(?<![\w.-]){name}\s*\|&?\s*{name}(?![\w.-])"
        doubled = rf"(?<![\w.-]){name}\s*&(?!&)\s*;?\s*{name}(?![\w.-])"
        if re.search(piped, body) or re.search(doubled, body):
            return True
    return False


def check_blacklist(parsed: ShellFacts, root: str, home: str) -> BlacklistHit | None:
    """The first blacklist entry the analyzed command matches, or None."""
    where = _Where(posixpath.normpath(root), posixpath.normpath(home))
    if any(_fork_bomb(text) for text in parsed.texts):
        return BlacklistHit("fork-bomb", "a fork bomb (a function that pipes into itself)")
    for cmd in parsed.programs:
        if hit := _check_command(cmd, where):
            return hit
    for redirect in parsed.redirects:
        if redirect.write and _DISK.match(redirect.target.text):
            return BlacklistHit(
                "disk-device-write", f"redirects output onto a disk device: {redirect.target.text}"
            )
    return None


# Values a word built at run time may take, tried in place of each dynamic word.
_ONE_WORD = [["/"], ["~"], ["/dev/sda"], ["-rf"], ["-R"], ["-delete"],
             ["of=/dev/sda"], ["poweroff"], ["0"]]  # fmt: skip
_SPLIT = [["-rf", "/"], ["-rf", "~"], ["-R", "777", "/"], ["/", "-delete"], ["-f", "/dev/sda"]]
_MAX_DYNAMIC = 2
_HOME_ONLY = re.compile(r"^\$\{?HOME\}?(/[^$`]*)?$")


# Programs whose targets may be computed only under doubt: deleting, formatting,
# re-permissioning and moving, and the shutdown family. (cp, tee, ln write to a device
# only where the OS would let them, which the sandbox decides.)
_TARGET_JUDGED = frozenset({
    "rm", "rmdir", "unlink", "shred", "dd", "wipefs", "mkswap", "mke2fs", "mkdosfs", "newfs",
    "blkdiscard", "cryptsetup", "mdadm", "chmod", "chown", "chgrp", "mv", "find", "shutdown",
    "reboot", "halt", "poweroff", "init", "telinit", "systemctl",
})  # fmt: skip


def _judged(name: str) -> bool:
    return name in _TARGET_JUDGED or name.startswith("mkfs") or name in _PARTITIONERS


def _reach(cmd: SimpleCommand, where: _Where) -> BlacklistHit | None:
    """A blacklist entry the command would match for some value of its run-time words."""
    if not cmd.argv or unknown(cmd.argv[0]) or not _judged(cmd.name):
        return None
    slots = [i for i, w in enumerate(cmd.argv) if i and unknown(w) and not _HOME_ONLY.match(w.text)]
    cwds = ["/", "~"] if cmd.cwd == "?" else [cmd.cwd]
    if not slots and cmd.cwd != "?":
        return None
    if len(slots) > _MAX_DYNAMIC:
        return BlacklistHit("computed-target", f"too many words computed at run time: {_show(cmd)}")
    choices = [_ONE_WORD + (_SPLIT if cmd.argv[i].split else []) for i in slots]
    for cwd in cwds:
        for combo in itertools.product(*choices):
            argv: list[Word] = []
            values = dict(zip(slots, combo, strict=True))
            for i, word in enumerate(cmd.argv):
                argv += [Word(v) for v in values[i]] if i in values else [word]
            trial = msgspec.structs.replace(cmd, argv=tuple(argv), cwd=cwd)
            if hit := _check_command(trial, where):
                return hit
    return None


def unknown_reach(parsed: ShellFacts, root: str, home: str) -> list[str]:
    """Doubts for commands a run-time word or directory could turn into blacklisted ones.

    ``rm -rf "$X"`` is not blacklisted as written, but X may be ``/``: the command
    is uncertain (never allowed by a rule) and denied where nobody is asked.
    """
    where = _Where(posixpath.normpath(root), posixpath.normpath(home))
    found: list[str] = []
    for cmd in parsed.programs:
        if (hit := _reach(cmd, where)) is not None:
            reason = (
                f"a word or directory known only at run time could make it {hit.entry}: "
                f"{_show(cmd)}"
            )
            if reason not in found:
                found.append(reason)
    return found
