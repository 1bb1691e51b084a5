"""Reading the ``mcpServers`` maps of ``~/.claude.json``, ``~/.mewcode/mcp.json`` and ``.mcp.json``
(and of ``--mcp-config``, read as the user's own: see cli_config.py).

Pure apart from reading the files: never raises for bad content. Every problem is
one line naming the file (and the server), and only that server or file is skipped.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple
from urllib.parse import urlsplit

import msgspec

from agent_core.config.paths import MewcodePaths
from agent_core.config.program_trust import mcp_fingerprint
from agent_core.mcp.expand import ProjectEnv, UnsetVariable, expand
from agent_core.mcp.model import ConfigScope, McpConfig, McpServerSpec
from agent_core.mcp.names import server_name_problem

if TYPE_CHECKING:
    from agent_core.config.program_trust import ProgramEntry
    from agent_core.mcp.cli_config import CliMcpConfig

_HTTP_TYPES = ("http", "streamable-http")
_ONLY = "only stdio and http servers are supported"


class _ServersFile(msgspec.Struct):
    """A config file as far as MewCode reads it (``~/.claude.json`` holds much more)."""

    mcpServers: Any = None


class _Bad(Exception):
    """One server entry that cannot be used; the message is the reason."""


def load_mcp_config(
    paths: MewcodePaths,
    *,
    trusted: bool,
    home: Path,
    env: Mapping[str, str],
    withheld: Collection[str] = (),
    approved: Collection[str] | None = None,
    cli: Sequence[CliMcpConfig] = (),
    strict: bool = False,
) -> McpConfig:
    """The configured servers: later files replace earlier entries of the same name.

    An untrusted project's servers go to ``untrusted`` and cannot replace the user's.
    ``withheld`` names the variables a project's file may not expand (API keys).
    In a trusted project, ``approved`` (fingerprints) are the project servers the user
    trusted; the others wait as an untrusted project's do (None: all may start).
    ``cli`` (``--mcp-config``) are the user's own, read last; ``strict``: only those.
    """
    config = McpConfig()
    user: dict[str, McpServerSpec] = {}
    for file in () if strict else (home / ".claude.json", paths.home / "mcp.json"):
        user.update((s.name, s) for s in _read(file, "user", home, env, config.problems))
    own: dict[str, McpServerSpec] = {}  # --mcp-config: the user's own, and last
    for given in cli:
        servers = _read_map(given.servers, given.source, Path(given.base), "user", home, env)
        own.update((s.name, s) for s in servers.found)
        config.problems.extend(servers.problems)
    if strict:
        folder = paths.project if trusted else home
        config.servers = [_run_in(s, folder) for s in own.values()]
        return config
    # A project's file, even trusted, never expands the variables holding API keys.
    project_env = ProjectEnv(env, frozenset(withheld))
    project = _read(paths.project / ".mcp.json", "project", home, project_env, config.problems)
    if trusted:
        if approved is not None:
            config.changed = [s.name for s in project if s.fingerprint not in approved]
            waiting = [s for s in project if s.name in config.changed]
            project = [s for s in project if s.name not in config.changed]
        merged = dict(user)
        merged.update((s.name, s) for s in project)
        merged.update(own)
        config.servers = [_run_in(s, paths.project) for s in merged.values()]
        if approved is not None:
            config.untrusted = [s for s in waiting if s.name not in user and s.name not in own]
        return config
    user.update(own)
    # Not in an untrusted project: `python -m x`, npx and uvx would find code it planted.
    config.servers = [_run_in(s, home) for s in user.values()]
    for spec in project:
        if spec.name in user:
            # A cloned repository must not swap your server for its own under the same name.
            config.problems.append(
                f"{spec.source}: server {spec.name!r} not used: it would replace your own "
                f"{spec.name!r} ({user[spec.name].source}), which needs a trusted project"
            )
        else:
            config.untrusted.append(spec)
    return config


_TRUST_KEY = "trustReadOnlyHint"
_PROJECT_TRUST = (
    f"{_TRUST_KEY} is ignored here: only your own ~/.mewcode/mcp.json or ~/.claude.json can"
    " trust a server's read-only hints (its readOnlyHint tools still ask)"
)


def _trusts_hint(entry: dict[str, Any]) -> bool:
    """The entry's ``trustReadOnlyHint``; _Bad when it is not true or false."""
    value = entry.get(_TRUST_KEY, False)
    if not isinstance(value, bool):
        raise _Bad(f"{_TRUST_KEY} must be true or false")
    return value


def _run_in(spec: McpServerSpec, folder: Path) -> McpServerSpec:
    """A stdio server without a ``cwd`` of its own starts in ``folder``."""
    if spec.transport != "stdio" or spec.cwd is not None:
        return spec
    return msgspec.structs.replace(spec, cwd=str(folder))


def target_text(spec: McpServerSpec) -> str:
    """The command line or URL for display: no env values, headers or URL credentials,
    and variables as written in the file (a ``${TOKEN}`` in args is not shown expanded)."""
    if spec.shown:
        return spec.shown
    if spec.transport == "stdio":
        return shlex.join([spec.command, *spec.args])
    return _shown_url(spec.url)


def _shown_url(url: str) -> str:
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    return f"{parts.scheme}://{host}{parts.path}" + ("?…" if parts.query else "")


def _read(
    file: Path, scope: ConfigScope, home: Path, env: Mapping[str, str], problems: list[str]
) -> list[McpServerSpec]:
    read = _read_map(_servers_map(file, problems), str(file), file.parent, scope, home, env)
    problems.extend(read.problems)
    return read.found


class ReadServers(NamedTuple):
    found: list[McpServerSpec]
    problems: list[str]  # one line per server left out, naming ``source``


def _read_map(
    servers: Mapping[str, Any],
    source: str,
    base: Path,
    scope: ConfigScope,
    home: Path,
    env: Mapping[str, str],
) -> ReadServers:
    """The servers of one ``mcpServers`` object; a relative ``cwd`` is relative to ``base``."""
    found: list[McpServerSpec] = []
    problems: list[str] = []
    for name, entry in servers.items():
        if isinstance(entry, dict) and entry.get("disabled") is True:
            continue  # other agents' files switch servers off this way
        problem = server_name_problem(name)
        if problem:
            problems.append(f"{source}: {problem}")
            continue
        try:
            spec = _spec(name, entry, source, base, scope, home, env)
            if scope == "project":  # what trusting the project records (program_trust.py)
                print_ = mcp_fingerprint(name, entry, base)
                spec = msgspec.structs.replace(spec, fingerprint=print_)
            if _trusts_hint(entry):
                if scope == "user":
                    spec = msgspec.structs.replace(spec, trust_read_only_hint=True)
                else:
                    problems.append(f"{source}: server {name!r}: {_PROJECT_TRUST}")
            found.append(spec)
        except (_Bad, UnsetVariable) as exc:
            problems.append(f"{source}: server {name!r}: {exc}")
    return ReadServers(found, problems)


def read_servers(
    servers: Mapping[str, Any], source: str, base: Path, home: Path, env: Mapping[str, str]
) -> ReadServers:
    """A user's own ``mcpServers`` object (``--mcp-config``), checked as a file's would be."""
    return _read_map(servers, source, base, "user", home, env)


def project_server_entries(paths: MewcodePaths) -> list[ProgramEntry]:
    """Every server the project's ``.mcp.json`` configures, for trust (config/program_trust.py)."""
    from agent_core.config.program_trust import ProgramEntry

    found = []
    for name, entry in _servers_map(paths.project / ".mcp.json", []).items():
        if isinstance(entry, dict) and entry.get("disabled") is True:
            continue
        what = _written_target(entry)
        found.append(
            ProgramEntry(
                "mcp",
                f".mcp.json: server {name}",
                str(what),
                mcp_fingerprint(name, entry, paths.project),
            )
        )
    return found


def _written_target(entry: Any) -> str:
    if not isinstance(entry, dict):
        return repr(entry)
    if isinstance(entry.get("url"), str):
        return _shown_url(entry["url"])
    args = entry.get("args")
    listed = [str(a) for a in args] if isinstance(args, list) else []
    return shlex.join([str(entry.get("command", "")), *listed])


def _servers_map(file: Path, problems: list[str]) -> dict[str, Any]:
    """The file's ``mcpServers`` object; {} when the file is missing, empty or unusable."""
    try:
        data = file.read_bytes()
    except FileNotFoundError:
        return {}
    except OSError as exc:
        problems.append(f"{file}: cannot read: {exc.strerror or exc}")
        return {}
    if not data.strip():
        return {}  # empty: as absent (the sandbox's stand-in for a missing file is empty)
    return servers_object(data, str(file), problems)


def servers_object(data: bytes, source: str, problems: list[str]) -> dict[str, Any]:
    """The ``mcpServers`` object of a JSON text; {} and a problem line when it has none."""
    data = data.removeprefix(b"\xef\xbb\xbf")  # a byte-order mark some Windows editors add
    try:
        servers = msgspec.json.decode(data, type=_ServersFile).mcpServers
    except msgspec.ValidationError:
        problems.append(f"{source}: expected a JSON object with an mcpServers object")
        return {}
    except msgspec.DecodeError as exc:
        problems.append(f"{source}: not valid JSON: {_json_error(data, exc)}")
        return {}
    if servers is None:
        return {}
    if not isinstance(servers, dict):
        problems.append(f"{source}: mcpServers must be an object of server name -> settings")
        return {}
    return servers


def _json_error(data: bytes, exc: msgspec.DecodeError) -> str:
    """The error with a line and column (the standard parser reports them)."""
    try:
        json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        return "not UTF-8 text"
    except json.JSONDecodeError as detail:
        return f"{detail.msg} at line {detail.lineno} column {detail.colno}"
    return str(exc)


def _spec(
    name: str,
    entry: Any,
    source: str,
    base: Path,
    scope: ConfigScope,
    home: Path,
    env: Mapping[str, str],
) -> McpServerSpec:
    if not isinstance(entry, dict):
        raise _Bad("expected an object with command or url")
    kind = entry.get("type")
    if kind is None:
        if "command" in entry and "url" in entry:
            raise _Bad('has both command and url: set "type" to "stdio" or "http"')
        if "command" not in entry and "url" not in entry:
            raise _Bad("needs command (a stdio server) or url (an http server)")
        kind = "http" if "url" in entry else "stdio"
    if kind == "stdio":
        return _stdio(name, entry, source, base, scope, home, env)
    if kind in _HTTP_TYPES:
        return _http(name, entry, source, scope, env)
    if kind == "sse":
        raise _Bad(f"type 'sse' is not supported: {_ONLY}")
    raise _Bad(f"unknown type {kind!r}: {_ONLY}")


def _stdio(
    name: str,
    entry: dict[str, Any],
    source: str,
    base: Path,
    scope: ConfigScope,
    home: Path,
    env: Mapping[str, str],
) -> McpServerSpec:
    command = entry.get("command")
    if not isinstance(command, str) or not command.strip():
        raise _Bad("command must be a non-empty string")
    args = entry.get("args", [])
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        raise _Bad("args must be a list of strings")
    variables = _string_map(entry, "env")
    cwd = entry.get("cwd")
    if cwd is not None and not isinstance(cwd, str):
        raise _Bad("cwd must be a string")
    return McpServerSpec(
        name=name,
        transport="stdio",
        source=source,
        scope=scope,
        command=expand(command, env),
        args=tuple(expand(a, env) for a in args),
        env={k: expand(v, env) for k, v in variables.items()},
        cwd=_directory(expand(cwd, env), base, home) if cwd else None,
        shown=shlex.join([command, *args]),  # as written: ${TOKEN} stays a name
    )


def _http(
    name: str, entry: dict[str, Any], source: str, scope: ConfigScope, env: Mapping[str, str]
) -> McpServerSpec:
    url = entry.get("url")
    if not isinstance(url, str):
        raise _Bad("url must be a string")
    headers = _string_map(entry, "headers")
    raw_url, url = url, expand(url, env)
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        # The address itself is not repeated: after expansion it may hold a token.
        raise _Bad("url must be an http:// or https:// address with a host")
    return McpServerSpec(
        name=name,
        transport="http",
        source=source,
        scope=scope,
        url=url,
        headers={k: expand(v, env) for k, v in headers.items()},
        shown=_shown_url(raw_url),
    )


def _string_map(entry: dict[str, Any], key: str) -> dict[str, str]:
    value = entry.get(key, {})
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise _Bad(f"{key} must be an object of string values")
    return value


def _directory(cwd: str, base: Path, home: Path) -> str:
    """``~`` is your home; a relative directory is relative to the config file's folder."""
    if cwd == "~" or cwd.startswith("~/"):
        return str(home / cwd[2:]) if cwd != "~" else str(home)
    return str(base / cwd)
