"""Which programs are shells, interpreters, or ones the blacklist judges."""

from __future__ import annotations

import re

SHELLS = frozenset({
    "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "fish", "hush", "posh",
    "rbash", "oksh", "loksh", "pdksh", "ksh93", "csh", "tcsh", "elvish", "nu", "xonsh", "pwsh",
})  # fmt: skip
# Shells whose syntax differs from bash enough that our reading of a -c string is a guess.
FOREIGN_SHELLS = frozenset(
    {"zsh", "fish", "csh", "tcsh", "elvish", "nu", "xonsh", "pwsh", "ksh", "ksh93", "yash"}
)
_INTERPRETER = re.compile(
    r"(python|pypy|perl|ruby|php|lua|luajit|tclsh|wish|jython|julia|guile|racket|sbcl|"
    r"gawk|Rscript|R|irb|node|nodejs|deno|bun|osascript|expect|groovy|scala|jshell|pwsh)"
    r"[\d.]*"
)
# What the blacklist judges: a wrapper option value naming one of these is looked at too.
DESTRUCTIVE = frozenset({
    "rm", "rmdir", "unlink", "shred", "dd", "mkfs", "mke2fs", "mkswap", "mkdosfs", "newfs",
    "wipefs", "sgdisk", "sfdisk", "parted", "fdisk", "gdisk", "cfdisk", "cgdisk", "blkdiscard",
    "cryptsetup", "mdadm", "chmod", "chown", "chgrp", "mv", "find", "truncate", "shutdown",
    "reboot", "halt", "poweroff", "init", "telinit", "systemctl", "tee", "cp", "ln",
    "install", "pv", "srm", "wipe", "zpool", "lvremove", "vgremove", "pvremove", "dmsetup",
    "hdparm", "nvme", "flashrom", "kexec",
})  # fmt: skip


def basename(text: str) -> str:
    """``/bin/rm`` -> ``rm``: the program a path names."""
    return text.rsplit("/", 1)[-1] if "/" in text.rstrip("/") else text


def is_interpreter(name: str) -> bool:
    """Python, Perl, Node... : programs that run code given as a file, -c/-e or stdin."""
    return bool(_INTERPRETER.fullmatch(name))
