"""What our dependencies fix for a process's whole life, and how a warm child still gets the caller's.

A child forked by the preload server inherits everything the server's imports
and its warm-up run of the UI computed. Our own per-process caches reset
themselves after a fork (``os.register_at_fork`` next to each cache). For the
dependencies' state, this module is the one place that says what is needed
and why, with the versions it was written for (``WRITTEN_FOR``: pyproject.toml
caps each of them below its next major, and a test fails when an installed
version leaves the range, so an upgrade forces a new look at this file).

1. Environment variables a dependency reads once, at import or into a
   process-wide cache during the warm-up run, are part of the server's key
   (``KEYED_NAMES``, ``KEYED_PREFIXES``): a caller whose values differ is
   served by a server started with its values, or runs cold. No module is
   reloaded and no private attribute is reset:

   - textual: ``textual.constants`` reads ``TEXTUAL_*`` and ``ESCDELAY`` at
     import, and other modules copy some of them at import
     (``UPDATE_PERIOD`` from ``TEXTUAL_FPS``, the default theme from
     ``TEXTUAL_THEME``); ``textual._xterm_parser`` works out from
     ``TERM_PROGRAM`` and ``LC_TERMINAL`` whether this is iTerm when first
     imported: only that fact is keyed (``KEYED_AS_FACT``), not the values.
   - rich: the cell-width table is chosen from ``UNICODE_VERSION`` on first use
     and cached, with every width computed from it.
   - anthropic, openai: ``ANTHROPIC_LOG`` / ``OPENAI_LOG`` set their loggers'
     levels at import.
   - mcp: imports OpenTelemetry, which picks its context and propagators
     (``OTEL_PYTHON_CONTEXT``, ``OTEL_PROPAGATORS``) at import; pydantic (the SDKs' models) reads its plugin switches on the
     first model; platformdirs (textual) checks ``ANDROID_DATA`` at import.

   The warm-up run keeps these variables (``keyed_environment``), so what it
   caches is what the caller's own process would have cached.

2. One reset is left, because the server's logging is not a cold start's:
   the SDKs' ``setup_logging()`` adds the root handler on stderr that a
   ``*_LOG`` variable asks for, which the server could not (its stderr is
   its log file, and the child drops the server's handlers). The child calls
   it again once stderr is the caller's (``caller_sdk_logging``). It is a
   private function of each SDK (anthropic >=2,<3; openai >=3,<4): the server
   checks its shape before serving (``problems``), and if it has changed, or
   an installed version is outside ``WRITTEN_FOR``, the server serves no run
   warm: every run starts cold, and the reason is in the preload log.

Not after a fork but also held to ``WRITTEN_FOR``: ``css_parse_cache.py`` wraps one
private method of Textual's, and installs nothing where its signature differs.

``READ_WHEN_USED`` lists the variables the warm-up reads that are read again
on each use (so a child sees the caller's), with why; a test records every
variable read while the server warms up and fails on one in neither list.

Standard library only, nothing imported at module level but built-in modules:
the client imports this (through the key) on every ``mewcode``.
"""

from __future__ import annotations

import sys

# package -> (first version written for, first version not checked): ">=min,<below".
WRITTEN_FOR: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = {
    "textual": ((8, 0), (9,)),
    "rich": ((15, 0), (16,)),
    "anthropic": ((2, 0), (3,)),
    "openai": ((3, 0), (4,)),
    "mcp": ((2, 0), (3,)),
}

# The interpreter's own settings (PYTHONPATH, PYTHONHASHSEED...) and the dependencies'.
KEYED_PREFIXES = ("PYTHON", "TEXTUAL_")
KEYED_NAMES = frozenset(
    {
        "ESCDELAY",  # textual.constants
        "UNICODE_VERSION",  # rich's cell widths
        "ANTHROPIC_LOG",  # the SDKs' log levels
        "OPENAI_LOG",
        # OpenTelemetry, through mcp; by name: other OTEL_* (exporter headers) hold secrets.
        "OTEL_PROPAGATORS",
        "OTEL_PYTHON_CONTEXT",
        "OTEL_PYTHON_TRACER_PROVIDER",
        "PYDANTIC_DISABLE_PLUGINS",  # pydantic, through the SDKs' models
        "DEFER_PYDANTIC_BUILD",
        "ANDROID_DATA",  # platformdirs, through textual
    }
)

# Of these only what textual makes of them at import is keyed: by value, a tmux, a VS Code
# and a plain terminal (TERM_PROGRAM) would each want a server of their own.
KEYED_AS_FACT = frozenset({"TERM_PROGRAM", "LC_TERMINAL"})


def _textual_is_iterm(env: dict[str, str]) -> bool:
    """textual._xterm_parser's IS_ITERM, which it works out when first imported."""
    return env.get("LC_TERMINAL", "") == "iTerm2" or env.get("TERM_PROGRAM", "") == "iTerm.app"


READ_WHEN_USED: dict[str, str] = {
    "HOME": "sysconfig's user base; the caller's paths are read per run (MEWCODE_HOME, ~)",
    "LANG": "gettext looks for catalogs per message, and the child sets the caller's locale",
    "LANGUAGE": "gettext, as LANG",
    "LC_ALL": "gettext, as LANG",
    "LC_MESSAGES": "gettext, as LANG",
    "OPENAI_API_TYPE": "openai's module-level client, which MewCode never uses",
    "OPENAI_API_VERSION": "openai's module-level client, as OPENAI_API_TYPE",
    "AZURE_OPENAI_ENDPOINT": "openai's module-level client, as OPENAI_API_TYPE",
    "_PYTHON_PROJECT_BASE": "sysconfig: where this interpreter was built (the same for all)",
    "_PYTHON_SYSCONFIGDATA_NAME": "sysconfig, as _PYTHON_PROJECT_BASE",
    "COLUMNS": "each rich Console measures the terminal when made",
    "LINES": "as COLUMNS",
    "FORCE_COLOR": "each rich Console reads the colour switches when made",
    "NO_COLOR": "each Textual app and rich Console, when made",
    "TTY_COMPATIBLE": "each rich Console, when made",
    "TTY_INTERACTIVE": "each rich Console, when made",
    "TEXTUAL": "each Textual app reads its feature flags when made",
    "TMPDIR": "tempfile caches the directory; the child clears tempfile.tempdir",
    "TEMP": "as TMPDIR",
    "TMP": "as TMPDIR",
}

# The SDKs' private logging set-up (see 2. above) and the shape it was written for.
SDK_LOG_SETUP = ("anthropic._utils._logs", "openai._utils._logs")


def keyed(name: str) -> bool:
    """Whether the process fixes this variable's value for its whole life."""
    return name in KEYED_NAMES or name.startswith(KEYED_PREFIXES)


def key_material(env: dict[str, str]) -> dict[str, str]:
    """What of ``env`` the server's key holds: the keyed variables and textual's iTerm fact."""
    material = {name: value for name, value in env.items() if keyed(name)}
    material["textual: iTerm"] = str(_textual_is_iterm(env))
    return material


def keyed_environment(env: dict[str, str]) -> dict[str, str]:
    """The variables of ``env`` a warm-up run keeps: what the key holds, or a fact of."""
    return {n: v for n, v in env.items() if keyed(n) or n in KEYED_AS_FACT}


def version_tuple(version: str) -> tuple[int, ...]:
    """The leading numbers of a version string ("8.2.8" -> (8, 2, 8); "2.0rc1" -> (2, 0))."""
    numbers = []
    for part in version.split("."):
        digits = ""
        for char in part:
            if not char.isdigit():
                break
            digits += char
        if not digits:
            break
        numbers.append(int(digits))
        if len(digits) < len(part):
            break
    return tuple(numbers)


def version_problems() -> list[str]:
    """Installed versions outside WRITTEN_FOR, one line each (a package not installed is one)."""
    from importlib import metadata

    problems = []
    for package, (minimum, below) in WRITTEN_FOR.items():
        try:
            installed = metadata.version(package)
        except metadata.PackageNotFoundError:
            problems.append(f"{package} is not installed")
            continue
        if not minimum <= version_tuple(installed) < below:
            problems.append(
                f"{package} {installed} is outside the range the warm start was written for "
                f"(>={_dotted(minimum)},<{_dotted(below)})"
            )
    return problems


def _dotted(version: tuple[int, ...]) -> str:
    return ".".join(map(str, version))


def _setup_logging_problem(module_name: str) -> str | None:
    """Why the SDK's ``setup_logging`` is not the zero-argument function we call, or None."""
    import inspect

    module = sys.modules.get(module_name)
    if module is None:
        return None  # not pre-imported: a child imports it itself, reading its own variables
    setup = getattr(module, "setup_logging", None)
    if not inspect.isfunction(setup):
        return f"{module_name}.setup_logging is missing"
    required = [
        p
        for p in inspect.signature(setup).parameters.values()
        if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]
    if required:
        return f"{module_name}.setup_logging now takes arguments ({', '.join(p.name for p in required)})"
    return None


def problems() -> list[str]:
    """Why a child of this server could not be made the caller's own; empty when it can."""
    found = version_problems()
    for module_name in SDK_LOG_SETUP:
        problem = _setup_logging_problem(module_name)
        if problem:
            found.append(problem)
    return found


def caller_sdk_logging() -> None:
    """After stderr is the caller's: the SDKs' logging as the caller's ``*_LOG`` ask (see 2.)."""
    for module_name in SDK_LOG_SETUP:
        setup = getattr(sys.modules.get(module_name), "setup_logging", None)
        if callable(setup):  # the server checked its shape before serving
            setup()
