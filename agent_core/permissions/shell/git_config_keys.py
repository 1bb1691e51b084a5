"""Git configuration keys that make git run something: one list for the whole engine."""

from __future__ import annotations

import re

# Keys whose value is itself a command git runs (parsed as a nested command).
GIT_COMMAND_KEY = re.compile(
    r"^(alias\.|core\.(pager|editor|sshcommand|fsmonitor|askpass|gitproxy|hookspath|"
    r"alternaterefscommand)$|pager\.|sequence\.editor$|credential\.(.*\.)?helper$|"
    r"diff\.(.*\.)?(external|textconv|command)$|merge\..*\.driver$|filter\..*\.(clean|smudge|"
    r"process)$|gpg\.(.*\.)?program$|web\.browser$|browser\..*\.(cmd|path)$|"
    r"remote\..*\.(uploadpack|receivepack|proxy)$|uploadpack\.packobjectshook$|"
    r"sendemail\.(smtpserver|tocmd|cccmd)$|http\.proxy$|include\.|includeif\.|"
    r"mergetool\..*\.cmd$|difftool\..*\.cmd$|man\..*\.cmd$|protocol\.)",
    re.IGNORECASE,
)

# Prefixes of keys that can change what git runs or loads, beyond the command keys.
_GIT_CODE_PREFIX = re.compile(
    r"(?i)^(alias\.|core\.(pager|editor|sshcommand|fsmonitor|hookspath|askpass|gitproxy"
    r"|alternaterefsCommand)|pager\.|diff\.|merge\.|filter\.|credential\.|gpg\.|sequence\."
    r"|include|uploadpack\.|remote\..*\.(receivepack|uploadpack|vcs)|protocol\.|http\.)"
)


def runs_code(setting: str) -> bool:
    """Whether ``key`` or ``key=value`` (``git -c``, ``git config``) can make git run code."""
    key = setting.split("=", 1)[0].strip()
    return bool(GIT_COMMAND_KEY.match(key) or _GIT_CODE_PREFIX.match(key))
