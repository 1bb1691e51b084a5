"""Layer 3: allow/ask/deny rules, syntax ``Tool`` or ``Tool(specifier)``.

Bash specifiers match one whole simple command: ``npm run test:*`` (prefix at
a word boundary), ``ls *`` (same), ``ls*`` (no boundary), or an exact command.
Path specifiers are gitignore patterns relative to the project root
(``//abs`` is absolute, ``~/`` is home). ``WebFetch(domain:example.com)``
matches that host and its subdomains. MCP rules name a server
(``mcp__github``, ``mcp__github__*``) or one tool.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any, NamedTuple

import pathspec

# The rule syntax lives in config (settings check rules without importing the engine);
# re-exported here for the engine's users.
from agent_core.config.rule_syntax import ParsedRule as ParsedRule
from agent_core.config.rule_syntax import parse_rule as parse_rule
from agent_core.config.rule_syntax import rule_problem as rule_problem
from agent_core.config.settings import RuleEntry
from agent_core.mcp import names as mcp_names
from agent_core.net.hosts import domain_host
from agent_core.permissions.actions import Action, Search
from agent_core.permissions.bash_specifiers import bash_could_match, bash_matches, bash_texts
from agent_core.permissions.families import edit_family, path_family, read_family
from agent_core.permissions.paths import (
    ResolvedPath,
    TreeTooLarge,
    display,
    git_aliases,
    real,
    walk_tree,
)


@functools.lru_cache(maxsize=1024)
def _gitignore(pattern: str) -> pathspec.PathSpec:
    return pathspec.PathSpec.from_lines("gitignore", [pattern])


def path_matches(spec: str, target: Path, root: Path, home: Path) -> bool:
    """Gitignore-style match of ``target`` against a Read/Edit specifier."""
    if spec.startswith("//"):  # ///x too: the kernel reads it as /x
        base, pattern = Path("/"), "/" + spec.lstrip("/")
    elif spec.startswith("~/"):
        base, pattern = real(home), spec[1:]
    elif spec.startswith("./"):
        base, pattern = root, spec[1:]
    else:
        base, pattern = root, spec
    try:
        rel = target.relative_to(base).as_posix()
    except ValueError:
        return False
    matcher = _gitignore(pattern)
    if rel == ".":
        return pattern in ("/", "/**", "**", "*")
    return matcher.match_file(rel) or (target.is_dir() and matcher.match_file(rel + "/"))


def _host_matches(spec: str, host: str) -> bool:
    """``domain:example.com`` (and its subdomains) or ``domain:*.example.com`` (subdomains
    only) against a normalised host; the rule's host is normalised the same way."""
    domain = domain_host(spec)
    if domain is None or not host:
        return False
    base, subdomains_only = domain
    return host.endswith("." + base) or (host == base and not subdomains_only)


def web_hosts_named(rules: Iterable[RuleEntry]) -> frozenset[str]:
    """The hosts allow rules name exactly (``WebFetch(domain:HOST)``, not ``*.``): only these
    may be loopback, private or metadata addresses, and a parent domain does not count."""
    named = set()
    for entry in rules:
        parsed = parse_rule(entry.rule) if entry.kind == "allow" else None
        if parsed is None or parsed.tool != "WebFetch" or parsed.spec is None:
            continue
        domain = domain_host(parsed.spec)
        if domain is not None and not domain[1]:
            named.add(domain[0])
    return frozenset(named)


def _mcp_matches(rule_tool: str, tool: str) -> bool:
    """Rule ``mcp__s``, ``mcp__s__*`` or ``mcp__s__t`` against a call's full name.

    Both are split where the server name ends (server names hold no ``__``) and the
    parts compared, never string prefixes: ``mcp__git`` cannot reach ``mcp__github__x``.
    """
    call = mcp_names.parse(tool)
    if call is None:
        return False
    server, sep, rule_tool_part = rule_tool[len(mcp_names.PREFIX) :].partition("__")
    if server != call.server:
        return False
    return not sep or rule_tool_part in ("*", call.tool)


class RuleScope(NamedTuple):
    root: Path  # resolved project root
    home: Path


SEARCH_LIMIT = 50_000  # entries a Read-deny check reads below a search root before giving up
_TOO_MANY = "covers too many files to check"  # a possible match only: a deny rule then asks


def _path_rule_matches(
    rule: ParsedRule, targets: tuple[ResolvedPath, ...], lexical: bool, scope: RuleScope
) -> bool:
    if rule.spec is None:
        return bool(targets) or lexical  # an unknown path only meets deny/ask rules
    if not targets:
        return False
    for target in targets:
        candidates = [target.path, target.lexical] if lexical else [target.path]
        if lexical and target.logical is not None:
            candidates.append(target.logical)
        if any(path_matches(rule.spec, c, scope.root, scope.home) for c in candidates):
            return True
    return False


# --- Read rules over searched trees ----------------------------------------------------


class _SearchMemo:
    """The files below each search root, walked once per decision."""

    def __init__(self) -> None:
        self.trees: dict[Any, list[tuple[Path, bool]] | None] = {}
        self.aliases: frozenset[str] | None = None

    def git_aliases(self, action: Action, scope: RuleScope) -> frozenset[str]:
        if action.command is None or action.command.name != "git":
            return frozenset()
        if self.aliases is None:
            self.aliases = git_aliases(scope.root, scope.home)
        return self.aliases

    def entries(self, search: Search) -> list[tuple[Path, bool]] | None:
        key = (search.root.path, search.follow, search.ignore, search.hidden, search.skip_git)
        if key not in self.trees:
            try:
                self.trees[key] = list(
                    walk_tree(
                        search.root.path,
                        SEARCH_LIMIT,
                        hidden=search.hidden,
                        skip_git=search.skip_git,
                        follow_links=search.follow,
                        ignore=search.ignore,
                    )
                )
            except TreeTooLarge:
                self.trees[key] = None
        return self.trees[key]


@functools.lru_cache(maxsize=256)
def _brace_alternatives(globs: tuple[str, ...]) -> tuple[str, ...]:
    """rg globs with braces (``*.{py,env}``) as the plain globs gitignore syntax knows."""
    from agent_core.tools.globmatch import GlobSyntaxError, expand_braces

    found: list[str] = []
    for glob in globs:
        negated = glob.startswith("!")
        try:
            options = expand_braces(glob[1:] if negated else glob)
        except GlobSyntaxError:
            options = ["**"]  # unreadable: as if it selected everything
            negated = False
        found += [("!" + o) if negated else o for o in options]
    return tuple(found)


@functools.lru_cache(maxsize=256)
def _globs(patterns: tuple[str, ...], default_all: bool) -> pathspec.PathSpec:
    lines = (["**"] if default_all else []) + list(patterns)
    return pathspec.GitIgnoreSpec.from_lines(lines)


def _selected(search: Search, rel: str, is_dir: bool) -> bool:
    """Whether a search reads the entry at ``rel`` (relative to its root)."""
    probe = rel + "/" if is_dir else rel
    if search.excludes and _globs(search.excludes, False).match_file(probe):
        return False
    if search.select is not None:
        from agent_core.tools.globmatch import GlobSyntaxError, compile_glob

        try:
            return not is_dir and compile_glob(search.select).fullmatch(rel) is not None
        except GlobSyntaxError:
            return True
    if search.includes and not is_dir:
        positive = not all(g.startswith("!") for g in search.includes)
        return _globs(_brace_alternatives(search.includes), not positive).match_file(rel)
    return True


def _search_hit(spec: str, search: Search, scope: RuleScope, memo: _SearchMemo) -> str | None:
    """The first path a search would read that ``spec`` matches, or why that cannot be told."""
    entries = memo.entries(search)
    shown = display(search.root, scope.root)
    if entries is None:
        return f"{search.how} over {shown} {_TOO_MANY} for {spec}"
    for path, is_dir in entries:
        rel = path.relative_to(search.root.path).as_posix()
        if not _selected(search, rel, is_dir):
            continue
        if path_matches(spec, path, scope.root, scope.home):
            hit = display(ResolvedPath(str(path), path, path, scope.root), scope.root)
            return f"{search.how} over {shown} reaches {hit}: search a narrower path or exclude it"
    return None


# --- Matching one rule against one action ----------------------------------------------


def _rule_hit(
    rule: ParsedRule, action: Action, kind: str, scope: RuleScope, memo: _SearchMemo
) -> str | None:
    """None when the rule does not apply; else "" or a note on why it applies."""
    loose = kind != "allow"
    tool = rule.tool
    if tool == "Bash":
        if action.tool != "Bash":
            return None
        if loose:
            aliases = memo.git_aliases(action, scope)
            return "" if bash_could_match(rule.spec, action, aliases) else None
        return "" if bash_matches(rule.spec, bash_texts(action, True)) else None
    if tool in path_family():
        return _path_hit(rule, action, loose, scope, memo)
    if tool == "WebFetch":
        if action.tool != "WebFetch":
            return None
        if rule.spec is not None and not action.host and loose and not action.reads:
            return "the URL's host cannot be read exactly"  # it could be the one denied
        matched = rule.spec is None or _host_matches(rule.spec, action.host or "")
        return "" if matched else None
    if tool.startswith("mcp__"):
        return "" if rule.spec is None and _mcp_matches(tool, action.tool) else None
    if tool != action.tool:
        return None
    matched = rule.spec is None or (
        bool(action.subject)
        and re.fullmatch(".*".join(re.escape(p) for p in rule.spec.split("*")), action.subject)
        is not None
    )
    return "" if matched else None


def _path_hit(
    rule: ParsedRule, action: Action, loose: bool, scope: RuleScope, memo: _SearchMemo
) -> str | None:
    tool = rule.tool
    reading = tool not in edit_family()
    if action.tool in path_family():
        family = (
            read_family()
            if tool == "Read"
            else edit_family()
            if tool == "Edit"
            else frozenset({tool})
        )
        if action.tool not in family:
            return None
        targets = action.writes if tool in edit_family() else action.reads
        if _path_rule_matches(rule, targets or action.reads + action.writes, loose, scope):
            return ""
    elif action.tool == "Bash" and loose and tool in ("Read", "Edit"):
        if rule.spec is None:
            return None
        targets = action.reads if reading else action.writes
        if _path_rule_matches(rule, targets, True, scope):
            return ""
    else:
        return None
    if not loose or rule.spec is None or tool not in ("Read", "Edit"):
        return None
    if (action.unknown_reads if reading else action.unknown_writes) or (
        action.unknown_paths and not (action.unknown_reads or action.unknown_writes)
    ):
        return f"it {'reads' if reading else 'writes'} a path that cannot be known before it runs"
    if reading:
        for search in action.searches:
            if note := _search_hit(rule.spec, search, scope, memo):
                return note
    return None


def rule_matches(rule: ParsedRule, action: Action, kind: str, scope: RuleScope) -> bool:
    """Whether one rule applies to one action (allow rules match strictly)."""
    return _rule_hit(rule, action, kind, scope, _SearchMemo()) is not None


def first_match(action: Action, rules: list[RuleEntry], scope: RuleScope) -> RuleEntry | None:
    """The deciding rule for an action: any deny, else any ask, else any allow.

    When a rule applies for a reason the rule text does not show (an unknown path, a
    denied file inside a searched directory), the reason is added to its source. A deny
    rule that only may apply (a tree too large to check) asks instead.
    """
    memo = _SearchMemo()
    possible: RuleEntry | None = None
    for kind in ("deny", "ask", "allow"):
        if kind == "ask" and possible is not None:
            return possible
        for entry in rules:
            if entry.kind != kind:
                continue
            parsed = parse_rule(entry.rule)
            if parsed is None:
                continue
            note = _rule_hit(parsed, action, kind, scope, memo)
            if note is None:
                continue
            if not note:
                return entry
            annotated = RuleEntry(entry.rule, entry.kind, f"{entry.source}; {note}")
            if kind == "deny" and _TOO_MANY in note:
                possible = possible or RuleEntry(entry.rule, "ask", annotated.source)
                continue
            return annotated
    return possible
