"""The configuration MewCode's own git runs under: every program git could run from config is off.

Git runs programs its configuration names (fsmonitor, filters, diff drivers, pagers,
editors, credential helpers, transports...). A repository's ``.git/config`` is input
from a stranger, and a sandboxed command may have written it; so each git MewCode
runs gets command-line-scope overrides (read last by git, so they win) that turn
every such key off. Filter, diff and merge drivers have user-chosen names: they
are read from the config git will see (``git config --list --name-only``) and each
one found is neutralised too. Any other key that names a program (the engine's
list, ``agent_core.permissions.shell.git_config_keys``) is emptied, so nothing unknown
passes. An empty value runs nothing: git 2.39 skips an empty filter, textconv or
askpass, and fails on an empty external diff or textconv without running anything (so
a diff passes --no-ext-diff and --no-textconv to get its output; tested in
tests/unit/test_git_overrides.py and tests/integration/test_git_contained.py).

The overrides travel in GIT_CONFIG_COUNT / GIT_CONFIG_KEY_n / GIT_CONFIG_VALUE_n,
not ``-c key=value``: a driver may be named ``a=b``, which ``-c`` cannot express.
Pure data and functions; nothing here runs git.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from agent_core.permissions.shell.git_config_keys import GIT_COMMAND_KEY

# Set on every run, whatever the config says.
STATIC_OVERRIDES: tuple[tuple[str, str], ...] = (
    ("core.fsmonitor", "false"),
    ("core.hooksPath", "/dev/null"),
    ("core.pager", "cat"),
    ("core.editor", ":"),
    ("sequence.editor", ":"),
    ("diff.external", ""),
    ("core.sshCommand", ""),
    ("core.gitProxy", ""),
    ("core.askPass", ""),
    ("core.alternateRefsCommand", ""),
    ("credential.helper", ""),  # an empty value also clears every helper set before it
    ("gpg.program", ""),
    ("gpg.openpgp.program", ""),
    ("gpg.x509.program", ""),
    ("gpg.ssh.program", ""),
    ("gpg.ssh.defaultKeyCommand", ""),
    ("log.showSignature", "false"),
    ("commit.gpgSign", "false"),
    ("tag.gpgSign", "false"),
    ("push.gpgSign", "false"),
    ("gc.auto", "0"),
    ("maintenance.auto", "false"),
    # protocol.<name>.allow beats protocol.allow: the known names are pinned as well,
    # and any other the config names is found below. No transport (lazy fetches of a
    # partial clone included) can start.
    ("protocol.allow", "never"),
    *(
        (f"protocol.{name}.allow", "never")
        for name in ("ext", "file", "git", "http", "https", "ssh")
    ),
    # Submodules are other repositories, with their own config and drivers.
    ("diff.ignoreSubmodules", "all"),
    ("status.submoduleSummary", "false"),
    ("submodule.recurse", "false"),
    ("fetch.recurseSubmodules", "false"),
)

# Per section with user-named subsections: the variables to neutralise for each name found.
SUBSECTION_OVERRIDES: dict[str, tuple[tuple[str, str], ...]] = {
    "filter": (("clean", ""), ("smudge", ""), ("process", ""), ("required", "false")),
    "diff": (("textconv", ""), ("command", ""), ("cachetextconv", "false")),
    "merge": (("driver", ""),),
    "protocol": (("allow", "never"),),
    "credential": (("helper", ""),),
    "gpg": (("program", ""),),
    "remote": (("uploadpack", ""), ("receivepack", ""), ("proxy", "")),
    "difftool": (("cmd", ""),),
    "mergetool": (("cmd", ""),),
    "submodule": (("update", "none"),),
}

# Program-naming keys left alone, and why they cannot run in MewCode's git: aliases never
# shadow the subcommands MewCode runs; includes are already read; pagers are off
# (--no-pager); the others belong to commands MewCode does not run (help, send-email) or
# to the network, which is off; protocol.version and the like choose no program (the
# allow keys are set above); packObjectsHook is honoured only from protected config
# (setting it on the command line would be the way to turn it on).
INERT_PREFIXES = (
    "alias.",
    "include.",
    "includeif.",
    "pager.",
    "web.browser",
    "browser.",
    "man.",
    "sendemail.",
    "http.proxy",
    "protocol.",
    "uploadpack.packobjectshook",
)


def split_key(name: str) -> tuple[str, str | None, str]:
    """(section, subsection or None, variable) as git splits a key: at its first and last dot."""
    section, _, rest = name.partition(".")
    subsection, dot, variable = rest.rpartition(".")
    return section, (subsection if dot and subsection else None), variable


def canonical(name: str) -> str:
    """The key as git compares it: section and variable lowercased, the subsection as is."""
    section, subsection, variable = split_key(name)
    middle = f".{subsection}" if subsection is not None else ""
    return f"{section.lower()}{middle}.{variable.lower()}"


def parse_config_names(raw: bytes) -> list[str]:
    """The keys in ``git config --list --name-only -z`` output (NUL after each)."""
    return [os.fsdecode(part) for part in raw.split(b"\0") if part]


def config_overrides(names: Iterable[str]) -> list[tuple[str, str]]:
    """Every (key, value) to set for a config holding ``names``: static ones first."""
    chosen: dict[str, tuple[str, str]] = {canonical(k): (k, v) for k, v in STATIC_OVERRIDES}
    found = list(names)
    for name in found:
        section, subsection, _ = split_key(name)
        for variable, value in SUBSECTION_OVERRIDES.get(section.lower(), ()):
            if subsection is not None:
                key = f"{section.lower()}.{subsection}.{variable}"
                chosen.setdefault(canonical(key), (key, value))
    for name in found:
        key = canonical(name)
        if key in chosen or key.startswith(INERT_PREFIXES):
            continue
        if GIT_COMMAND_KEY.match(name):
            chosen[key] = (name, "")  # a program key this table does not know: emptied
    return list(chosen.values())


def config_env(overrides: Iterable[tuple[str, str]]) -> dict[str, str]:
    """The GIT_CONFIG_COUNT / _KEY_n / _VALUE_n variables carrying ``overrides``."""
    env: dict[str, str] = {}
    count = 0
    for count, (key, value) in enumerate(overrides, start=1):
        env[f"GIT_CONFIG_KEY_{count - 1}"] = key
        env[f"GIT_CONFIG_VALUE_{count - 1}"] = value
    env["GIT_CONFIG_COUNT"] = str(count)
    return env
