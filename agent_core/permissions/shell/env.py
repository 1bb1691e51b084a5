"""Environment variables that change what a program runs or reads.

``FOO=1 make`` and ``LANG=C sort`` are harmless; ``GIT_PAGER='rm -rf ~' git log``
runs a command and ``LD_PRELOAD=x.so ls`` loads code. The first kind is
ignored, the second makes the command uncertain, and a variable that holds a
command line has its value parsed as one.
"""

from __future__ import annotations

import re
import shlex
from typing import Literal

VarKind = Literal["safe", "loads", "command"]

# The value is a command line some program runs.
_COMMAND_NAMES = frozenset({
    "PAGER", "EDITOR", "VISUAL", "BROWSER", "MANPAGER", "LESSOPEN", "LESSCLOSE",
    "PROMPT_COMMAND", "PS0", "PS1", "PS2", "PS3", "PS4", "CC", "CXX", "CPP", "LD", "AR",
    "AS", "FC", "RUSTC", "RUSTC_WRAPPER", "RUSTC_WORKSPACE_WRAPPER", "RUSTDOC", "MAKE",
    "SHELL", "RSH", "RSYNC_RSH", "CVS_RSH", "GIT_SSH", "GIT_EXTERNAL_DIFF",
    "GIT_CONFIG_PARAMETERS", "TAR_OPTIONS", "FZF_DEFAULT_OPTS", "TERMINAL",
})  # fmt: skip
_COMMAND_SUFFIXES = ("_PAGER", "_EDITOR", "_COMMAND", "_CMD", "_ASKPASS", "_WRAPPER", "_SHELL")
_COMMAND_PREFIXES = ("GIT_CONFIG_VALUE_",)

# The value names files or options a program loads code or configuration from.
_LOADING_NAMES = frozenset({
    "PATH", "BASH_ENV", "ENV", "IFS", "HOME", "SHELLOPTS", "BASHOPTS", "CDPATH",
    "GLOBIGNORE", "ZDOTDIR", "INPUTRC", "HISTFILE", "CLASSPATH", "GCONV_PATH", "TERMINFO",
    "TERMINFO_DIRS", "HOSTALIASES", "LOCALDOMAIN", "RES_OPTIONS", "WGETRC", "SYSTEMWGETRC",
    "CURL_HOME", "CURL_CA_BUNDLE", "LESSKEY", "LESSKEYIN", "MAKEFILES", "BUNDLE_GEMFILE",
    "GOENV", "GOROOT", "GOPATH", "GOTOOLCHAIN", "GOPROXY", "KUBECONFIG", "DOCKER_HOST",
    "DOCKER_CONFIG", "NIX_PATH", "GNUPGHOME", "PERLLIB", "PERL5LIB", "PERL5OPT", "PERL5DB",
    "RUBYOPT", "RUBYLIB", "NODE_OPTIONS", "NODE_PATH", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS",
    "JDK_JAVA_OPTIONS", "GLIBC_TUNABLES", "MALLOC_CONF", "OPENSSL_CONF", "OPENSSL_ENGINES",
    "SSLKEYLOGFILE", "PROMPT_DIRTRIM", "BASH_LOADABLES_PATH", "EXECIGNORE", "FPATH",
    "MANPATH", "MAIL", "TMOUT", "POSIXLY_CORRECT", "LANGUAGE_PATH", "NLSPATH", "LOCPATH",
    "TZDIR", "XAUTHORITY", "DISPLAY", "SSH_AUTH_SOCK", "GPG_AGENT_INFO",
})  # fmt: skip
_LOADING_PREFIXES = (
    "LD_",
    "DYLD_",
    "GIT_",
    "XDG_",
    "NPM_CONFIG_",
    "PIP_",
    "UV_",
    "PYTHON",
    "PERL",
    "RUBY",
    "BUNDLE_",
    "GEM_",
    "CARGO_",
    "RUSTUP_",
    "SSL_",
    "CURL_",
    "WGET",
    "BASH_",
    "YARN_",
    "PNPM_",
    "COMPOSER_",
    "MAVEN_",
    "GRADLE_",
    "CONDA_",
    "VIRTUAL_ENV",
    "POETRY_",
    "PDM_",
    "HATCH_",
    "NIX_",
    "DOCKER_",
    "KUBE",
    "AWS_",
    "GOOGLE_APPLICATION",
    "MYSQL_",
    "PG",
    "RIPGREP_",
    "FZF_",
    "GREP_",
    "LESS",
    "SYSTEMD_",
    "DBUS_",
    "MAKE",
    "CMAKE_",
    "CCACHE_",
)
_LOADING_SUFFIXES = ("_PATH", "_HOME", "_OPTIONS", "_OPTS", "FLAGS", "_CONFIG", "_CONFIG_FILE",
                     "_CONFIG_DIR", "_CONFIG_PATH", "_PRELOAD", "_RC", "RC_FILE")  # fmt: skip
# Prefixed names that only tune output or behaviour and load nothing.
_HARMLESS = frozenset({
    "PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE", "PYTHONHASHSEED", "PYTHONIOENCODING",
    "PYTHONUTF8", "PYTHONFAULTHANDLER", "PYTHONDEVMODE", "PYTHONOPTIMIZE", "PYTHONVERBOSE",
    "PYTHONTRACEMALLOC", "PYTHONNOUSERSITE", "PYTHONLEGACYWINDOWSSTDIO", "PYTHONCOERCECLOCALE",
    "PYTHONMALLOC", "PYTHONASYNCIODEBUG", "PYTHONSAFEPATH", "PYTHONINTMAXSTRDIGITS",
    "CARGO_TERM_COLOR", "CARGO_INCREMENTAL", "CARGO_BUILD_JOBS", "CARGO_TERM_VERBOSE",
    "PIP_DISABLE_PIP_VERSION_CHECK", "PIP_NO_INPUT", "PIP_QUIET", "PIP_NO_COLOR",
    "UV_NO_PROGRESS", "UV_COLOR", "UV_QUIET", "NPM_CONFIG_LOGLEVEL", "NPM_CONFIG_FUND",
    "NPM_CONFIG_AUDIT", "NPM_CONFIG_UPDATE_NOTIFIER", "DOCKER_BUILDKIT", "MAKELEVEL",
    "LESSCHARSET", "GREP_COLOR", "GREP_COLORS",
})  # fmt: skip


def var_kind(name: str) -> VarKind:
    """What assigning ``name`` can change: nothing, loaded code or config, or a command line."""
    upper = name.upper()
    if upper in _HARMLESS:
        return "safe"
    if (
        upper in _COMMAND_NAMES
        or upper.endswith(_COMMAND_SUFFIXES)
        or upper.startswith(_COMMAND_PREFIXES)
    ):
        return "command"
    if (
        upper in _LOADING_NAMES
        or upper.startswith(_LOADING_PREFIXES)
        or upper.endswith(_LOADING_SUFFIXES)
    ):
        return "loads"
    return "safe"


def command_texts(name: str, value: str) -> list[str]:
    """The command lines a command-valued variable holds (``LESSOPEN='|cmd %s'`` -> ``cmd %s``)."""
    upper = name.upper()
    text = value.strip()
    if upper in ("LESSOPEN", "LESSCLOSE"):
        text = text.lstrip("|-").strip()
    if upper in ("GIT_CONFIG_PARAMETERS", "TAR_OPTIONS", "FZF_DEFAULT_OPTS"):
        return _embedded_commands(text)
    if upper.startswith("GIT_CONFIG_VALUE_"):
        text = text.removeprefix("!")
    return [text] if text else []


def _embedded_commands(text: str) -> list[str]:
    """Commands inside option or config strings: ``'core.pager=cmd'``, ``--preview=cmd``."""
    try:
        tokens = shlex.split(text)
    except ValueError:
        tokens = text.split()
    found: list[str] = []
    for i, token in enumerate(tokens):
        if "=" in token:
            found.append(token.split("=", 1)[1].removeprefix("!").removeprefix("exec="))
        elif token.startswith("--") and i + 1 < len(tokens) and "command" in token:
            found.append(tokens[i + 1])
    return [t for t in found if re.search(r"\s", t)]
