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
import shlex
from pathlib import Path
from typing import NamedTuple

import pathspec

from agent_core.config.settings import RuleEntry
from agent_core.permissions.actions import EDIT_FAMILY, READ_FAMILY, Action
from agent_core.permissions.paths import ResolvedPath, real
from agent_core.permissions.shell_wrappers import Word, basename

_RULE = re.compile(r"^\s*([A-Za-z0-9_.*\-]+)\s*(?:\((.*)\))?\s*$", re.DOTALL)
_SHELL_SAFE = re.compile(r"^[^\s'\"\\]+$")


class ParsedRule(NamedTuple):
    tool: str
    spec: str | None  # None for a bare tool name


@functools.lru_cache(maxsize=1024)
def parse_rule(text: str) -> ParsedRule | None:
    """Split ``Tool(spec)``; None when the text is not a rule."""
    match = _RULE.match(text)
    if not match:
        return None
    spec = match.group(2)
    return ParsedRule(match.group(1), spec.strip() if spec and spec.strip() else None)


def rule_problem(text: str) -> str | None:
    """A one-line reason why ``text`` is not a valid rule, for settings validation."""
    parsed = parse_rule(text)
    if parsed is None:
        return f"not a permission rule (expected Tool or Tool(specifier)): {text}"
    if parsed.tool == "WebFetch" and parsed.spec and not parsed.spec.startswith("domain:"):
        return f"WebFetch rules take domain:HOST: {text}"
    if parsed.tool.startswith("mcp__") and parsed.spec:
        return f"MCP rules take no specifier: {text}"
    return None


def shell_word(text: str) -> str:
    """A word as rule text: quoted only when it holds spaces, quotes or backslashes."""
    if text == "":
        return "''"
    return text if _SHELL_SAFE.match(text) else shlex.quote(text)


def command_text(words: tuple[Word, ...] | list[Word]) -> str:
    """The normalized text rules match a simple command against."""
    return " ".join(shell_word(w.text) for w in words)


@functools.lru_cache(maxsize=1024)
def _bash_pattern(spec: str) -> re.Pattern[str]:
    text = spec.strip()
    if text.endswith(":*"):
        text = text[:-2].rstrip() + " *"
    try:
        tokens = shlex.split(text)
    except ValueError:
        tokens = text.split()
    normalized = " ".join(t if "*" in t and _SHELL_SAFE.match(t) else shell_word(t) for t in tokens)
    tail = ""
    if normalized.endswith(" *"):
        normalized, tail = normalized[:-2], "(?: .*)?"
    body = ".*".join(re.escape(piece) for piece in normalized.split("*"))
    return re.compile(body + tail, re.DOTALL)


def bash_matches(spec: str | None, texts: list[str]) -> bool:
    """Whether a Bash specifier matches any of the command's texts."""
    if spec is None:
        return True
    pattern = _bash_pattern(spec)
    return any(pattern.fullmatch(text) for text in texts)


@functools.lru_cache(maxsize=1024)
def _gitignore(pattern: str) -> pathspec.PathSpec:
    return pathspec.PathSpec.from_lines("gitignore", [pattern])


def path_matches(spec: str, target: Path, root: Path, home: Path) -> bool:
    """Gitignore-style match of ``target`` against a Read/Edit specifier."""
    if spec.startswith("//"):
        base, pattern = Path("/"), spec[1:]
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
    if not spec.startswith("domain:") or not host:
        return False
    domain = spec[len("domain:") :].strip().lower().rstrip(".")
    if domain.startswith("*."):
        return host.endswith(domain[1:])
    return host == domain or host.endswith("." + domain)


def _mcp_matches(rule_tool: str, tool: str) -> bool:
    if not tool.startswith("mcp__"):
        return False
    pieces = rule_tool.split("__")
    if len(pieces) == 2 or (len(pieces) == 3 and pieces[2] == "*"):
        return tool.startswith(f"mcp__{pieces[1]}__")
    return tool == rule_tool


class RuleScope(NamedTuple):
    root: Path  # resolved project root
    home: Path


def _path_rule_matches(
    rule: ParsedRule, targets: tuple[ResolvedPath, ...], lexical: bool, scope: RuleScope
) -> bool:
    if rule.spec is None:
        return bool(targets) or lexical  # an unknown path only meets deny/ask rules
    if not targets:
        return False
    for target in targets:
        candidates = [target.path, target.lexical] if lexical else [target.path]
        if any(path_matches(rule.spec, c, scope.root, scope.home) for c in candidates):
            return True
    return False


def _bash_texts(action: Action, permissive: bool) -> list[str]:
    cmd = action.command
    if cmd is None:
        return []
    texts = [command_text(cmd.words)]
    if not permissive:
        words = list(cmd.words)
        first = next((i for i, w in enumerate(words) if "=" not in w.text.split("/")[0]), 0)
        if words:
            words[first] = Word(basename(words[first].text), words[first].dynamic)
        texts += [command_text(words), command_text(cmd.argv)]
        if cmd.name == "git":
            texts.append(command_text(_without_git_globals(list(cmd.argv))))
    return texts


_GIT_GLOBAL_VALUES = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace",
                                "--exec-path", "--config-env"})  # fmt: skip


def _without_git_globals(argv: list[Word]) -> list[Word]:
    """``git -C x -c k=v --no-pager push`` -> ``git push``, so deny rules still see the push."""
    i = 1
    while i < len(argv) and argv[i].text.startswith("-"):
        i += 2 if argv[i].text in _GIT_GLOBAL_VALUES else 1
    return [argv[0], *argv[i:]]


def rule_matches(rule: ParsedRule, action: Action, kind: str, scope: RuleScope) -> bool:
    """Whether one rule applies to one action (allow rules match strictly)."""
    loose = kind != "allow"
    tool = rule.tool
    if tool == "Bash":
        return action.tool == "Bash" and bash_matches(rule.spec, _bash_texts(action, not loose))
    if tool in READ_FAMILY or tool in EDIT_FAMILY:
        family = (
            READ_FAMILY if tool == "Read" else EDIT_FAMILY if tool == "Edit" else frozenset({tool})
        )
        if action.tool in family:
            targets = action.writes if tool in EDIT_FAMILY else action.reads
            return _path_rule_matches(rule, targets or action.reads + action.writes, loose, scope)
        if action.tool == "Bash" and loose and tool in ("Read", "Edit"):
            targets = action.reads if tool == "Read" else action.writes
            return rule.spec is not None and _path_rule_matches(rule, targets, True, scope)
        return False
    if tool == "WebFetch":
        return action.tool == "WebFetch" and (
            rule.spec is None or _host_matches(rule.spec, action.host or "")
        )
    if tool.startswith("mcp__"):
        return rule.spec is None and _mcp_matches(tool, action.tool)
    if tool != action.tool:
        return False
    return rule.spec is None or (
        bool(action.subject)
        and re.fullmatch(".*".join(re.escape(p) for p in rule.spec.split("*")), action.subject)
        is not None
    )


def first_match(action: Action, rules: list[RuleEntry], scope: RuleScope) -> RuleEntry | None:
    """The deciding rule for an action: any deny, else any ask, else any allow."""
    for kind in ("deny", "ask", "allow"):
        for entry in rules:
            if entry.kind != kind:
                continue
            parsed = parse_rule(entry.rule)
            if parsed is not None and rule_matches(parsed, action, kind, scope):
                return entry
    return None
