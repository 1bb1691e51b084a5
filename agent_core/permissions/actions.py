"""What a call does, as actions each judged on its own; here, the actions of a Bash call.

An ``Action`` is one thing a call does; ``Scope`` is where its paths resolve.
A Bash call becomes one action per simple command and one per file redirect
(checked as an Edit of that file); other tools' actions are made in
``tool_actions.py``. Paths are resolved here, against the filesystem: globs
are expanded as bash would, symlinks followed as the kernel would, and a path
that cannot be known before the command runs is marked unknown.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import NamedTuple

from agent_core.permissions.globs import expand_glob, is_pattern
from agent_core.permissions.paths import ResolvedPath, expand_home, resolve, root_of
from agent_core.permissions.shell.facts import CommandFacts, ShellFacts
from agent_core.permissions.shell.file_args import FileUse, TreeRead, file_uses
from agent_core.permissions.shell.model import SimpleCommand
from agent_core.permissions.shell.wrappers import Word, basename
from agent_core.permissions.tree_walk import TreeTooLarge, walk_tree

# Device files any command may touch without that being a file access worth judging.
HARMLESS_DEVICES = frozenset({
    "/dev/null", "/dev/zero", "/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/tty",
    "/dev/random", "/dev/urandom",
})  # fmt: skip
_FD_DUP = re.compile(r"^/dev/fd/[0-9]+$")  # an already-open descriptor, not a path lookup
_HOME_VAR = re.compile(r"\$\{HOME\}|\$HOME(?![A-Za-z0-9_])")
_BRACE_RANGE = re.compile(r"\{[^{}]*\.\.[^{}]*\}")
_BRACE_LIST = re.compile(r"\{[^{}]*,[^{}]*\}")
_XARGS_LIKE = frozenset({"xargs", "parallel"})
# Wrappers that change directory before running their command.
_CHDIR_OPTIONS = {
    "env": frozenset({"-C", "--chdir"}),
    "sudo": frozenset({"-D", "--chdir"}),
    "systemd-run": frozenset({"--working-directory"}),
}
# Programs whose output is names found under the (checked) paths they were given.
_LISTERS = frozenset({"find", "fd", "fdfind", "rg", "grep", "git", "ls", "sort", "uniq", "head",
                      "tail", "xargs"})  # fmt: skip
LINK_WALK_LIMIT = 20_000  # entries read looking for symlinks out of the sandbox


class Search(NamedTuple):
    """A directory tree whose files are read: Grep/Glob/LS, ``grep -r``, ``git log -p``."""

    root: ResolvedPath
    how: str  # "Grep", "grep -r"... for messages
    follow: bool = False
    ignore: bool = False  # leaves out what .gitignore excludes
    hidden: bool = True
    skip_git: bool = False
    excludes: tuple[str, ...] = ()  # gitignore-style patterns, relative to the root
    includes: tuple[str, ...] = ()  # Grep's globs (rg --glob), relative to the root
    select: str | None = None  # Glob's pattern, relative to the root


class Action(NamedTuple):
    """One thing a call does: run a command, touch a path, fetch a host, call a tool."""

    tool: str  # the tool name rules match ("Edit" for a Bash redirect)
    label: str  # what it does, for messages
    command: SimpleCommand | None = None
    reads: tuple[ResolvedPath, ...] = ()
    writes: tuple[ResolvedPath, ...] = ()
    read_only: bool = False
    unknown_paths: bool = False  # a path argument the engine cannot resolve
    host: str | None = None
    subject: str = ""  # the declared rule field's value, for a tool other than these
    searches: tuple[Search, ...] = ()
    unknown_reads: bool = False  # some unknown path is read (Read deny rules match)
    unknown_writes: bool = False  # some unknown path is written (Edit deny rules match)
    # Why an action that changes nothing here still asks unless a rule allows it (a fetch
    # sends data out; an MCP server's read-only claim is only its own word); "" if none.
    asks: str = ""
    why: str = ""  # why a Bash command is not known to be read-only, for messages


class Scope(NamedTuple):
    """Where paths resolve: the project root (rules are relative to it), home, the sandbox
    roots, and the folder relative paths start from (where the session was started)."""

    root: Path
    home: Path
    roots: list[Path]
    cwd: Path


def _cwd_base(cwd: str, scope: Scope) -> Path | None:
    """The directory a command runs in, from the parser's view of earlier ``cd`` calls."""
    if cwd == "?":
        return None
    if not cwd:
        return scope.cwd
    text = expand_home(cwd, scope.home)
    if is_pattern(text):  # `cd sr*`: bash takes the single match
        matches = expand_glob(text, scope.cwd)
        if not matches or len(matches) != 1:
            return None
        text = matches[0]
    return Path(os.path.normpath(os.path.join(scope.cwd, text)))


class Resolved(NamedTuple):
    """The paths one shell word names, once expanded; unknown when it cannot be told."""

    paths: list[ResolvedPath]
    unknown: bool = False
    network: str | None = None  # host of a /dev/tcp or /dev/udp path


def _alternatives(text: str) -> list[str] | None:
    """A word's brace alternatives (the literal word too: it may have been quoted)."""
    if _BRACE_RANGE.search(text):
        return None
    if not _BRACE_LIST.search(text):
        return [text]
    from agent_core.tools.globmatch import GlobSyntaxError, expand_braces

    try:
        return [*expand_braces(text), text]
    except GlobSyntaxError:
        return None


def resolve_word(word: Word, base: Path | None, scope: Scope, dotglob: bool = False) -> Resolved:
    """Every path a shell word names: ``$HOME`` filled in, braces and globs expanded."""
    text = word.text
    if text in HARMLESS_DEVICES or _FD_DUP.match(text):
        return Resolved([])
    if word.dynamic:
        text = _HOME_VAR.sub(lambda _: str(scope.home), text)
        if "$" in text or "`" in text:
            return Resolved([], unknown=True)
    if "{}" in text:  # find -exec / xargs -I placeholder: filled in at run time
        return Resolved([], unknown=True)
    alternatives = _alternatives(text)
    if alternatives is None:
        return Resolved([], unknown=True)
    found: list[ResolvedPath] = []
    unknown = False
    network: str | None = None
    for alternative in alternatives:
        expanded = expand_home(alternative, scope.home)
        if base is None and not expanded.startswith("/"):
            return Resolved([], unknown=True)
        names = [alternative]
        if is_pattern(expanded):
            matches = expand_glob(expanded, base or scope.cwd, dotglob)
            if matches is None:
                return Resolved([], unknown=True)
            names = matches or [alternative]
        for name in names:
            target = resolve(name, base or scope.cwd, scope.home, scope.roots)
            if target.magic == "network":  # bash opens a socket: no file, an unknown peer
                network = _network_host(str(target.lexical))
                unknown = True
            else:
                found.append(target)
    return Resolved(found, unknown, network)


def _network_host(path: str) -> str:
    parts = path.split("/")
    return parts[3] if len(parts) > 3 else ""


class _Collector:
    """Resolves one command's path words into reads, writes and searches."""

    def __init__(self, scope: Scope, base: Path | None, dotglob: bool, how: str) -> None:
        self.scope = scope
        self.base = base
        self.dotglob = dotglob
        self.how = how
        self.reads: list[ResolvedPath] = []
        self.writes: list[ResolvedPath] = []
        self.searches: list[Search] = []
        self.unknown_reads = False
        self.unknown_writes = False
        self.host: str | None = None

    def resolve(self, word: Word, written: bool, base: Path | None = None) -> list[ResolvedPath]:
        got = resolve_word(word, base or self.base, self.scope, self.dotglob)
        if got.unknown:
            if written:
                self.unknown_writes = True
            else:
                self.unknown_reads = True
        self.host = self.host or got.network
        return got.paths

    def add(self, word: Word, written: bool, base: Path | None = None) -> list[ResolvedPath]:
        paths = self.resolve(word, written, base)
        (self.writes if written else self.reads).extend(paths)
        return paths

    def tree(self, tree: TreeRead, base: Path | None = None, repo: Path | None = None) -> None:
        """A tree read (its root is among the reads already): searched for Read-deny paths."""
        for root in self.resolve(tree.word, False, base):
            if repo is None or _within(root, repo):
                self.searches.append(self.search(root, tree))

    def search(self, root: ResolvedPath, tree: TreeRead) -> Search:
        return Search(
            root,
            self.how,
            follow=tree.follow,
            ignore=tree.ignore,
            hidden=tree.hidden,
            excludes=tree.excludes,
        )


def _repo_root(base: Path | None, scope: Scope) -> Path:
    from agent_core.tools.pathfilter import git_root

    start = base or scope.cwd
    return git_root(start) or scope.root


def _extra_arguments(cmd: SimpleCommand) -> bool:
    """True when xargs or parallel runs ``cmd``: more arguments arrive on stdin."""
    if not cmd.text or not cmd.argv:
        return False
    tokens = cmd.text.split()
    program = cmd.argv[0].text
    for token in tokens:
        name = basename(token.strip("'\""))
        if name in _XARGS_LIKE:
            return True
        if name == program:
            return False
    return False


def _appended_use(cmd: SimpleCommand) -> str | None:
    """Whether an argument appended to ``cmd`` (by xargs) would be "read", "write" or neither."""
    probe = Word("\0appended")
    use = file_uses(SimpleCommand((*cmd.argv, probe), (*cmd.words, probe)))
    if any(w is probe for w in use.writes):
        return "write"
    if any(w is probe for w in use.reads) or use.unknown_reads:
        return "read"
    return None


def _listers_only(upstream: tuple[str, ...]) -> bool:
    return bool(upstream) and all(basename(p) in _LISTERS for p in upstream)


def wrapper_chdir(cmd: SimpleCommand) -> list[Word]:
    """Directories a wrapper changes to before running the command (env -C, sudo -D)."""
    found: list[Word] = []
    words = list(cmd.words[: max(len(cmd.words) - len(cmd.argv) + 1, 0)])
    for index, word in enumerate(words):
        name = basename(word.text)
        options = _CHDIR_OPTIONS.get(name)
        if options is None:
            continue
        for j in range(index + 1, len(words)):
            text = words[j].text
            option, eq, value = text.partition("=")
            if option in options and option.startswith("--") and eq:
                found.append(Word(value, words[j].dynamic))
            elif text in options and j + 1 < len(words):
                found.append(words[j + 1])
            elif text.startswith(tuple(o for o in options if not o.startswith("--"))):
                found.append(Word(text[2:], words[j].dynamic))
    return found


def _command_action(facts: CommandFacts, scope: Scope, dotglob: bool) -> Action:
    cmd, use = facts.command, facts.use
    base = _cwd_base(cmd.cwd, scope)
    label = " ".join(w.text for w in cmd.words)
    how = " ".join(w.text for w in cmd.argv[:2]) if cmd.name == "git" else cmd.name
    collect = _Collector(scope, base, dotglob, how)
    for word in [*wrapper_chdir(cmd), *use.chdir]:  # git -C dir, tar -C dir: paths start there
        paths = collect.add(word, False)
        collect.base = paths[0].lexical if len(paths) == 1 else None
    _collect_paths(use, collect, cmd.name == "git")
    for search in collect.searches:
        if search.follow:
            escapes = _link_escapes(search.root, scope)
            if escapes is None:
                collect.unknown_reads = True
            else:
                collect.reads.extend(escapes)
    unknown_reads = collect.unknown_reads or use.unknown_reads
    unknown_writes = collect.unknown_writes or use.unknown_writes
    unknown = unknown_reads or unknown_writes
    if _extra_arguments(cmd) and (appended := _appended_use(cmd)):
        # xargs adds the names it reads on stdin: unknown, but a lister upstream (find,
        # rg --files...) only prints names under paths it was itself checked for
        unknown_writes = unknown_writes or appended == "write"
        unknown_reads = unknown_reads or appended == "read"
        unknown = unknown or appended == "write" or not _listers_only(cmd.upstream)
    return Action(
        "Bash",
        label,
        cmd,
        tuple(collect.reads),
        tuple(collect.writes),
        facts.read_only,
        unknown,
        host=collect.host or (use.hosts[0] if use.hosts else None),
        searches=tuple(collect.searches),
        unknown_reads=unknown_reads,
        unknown_writes=unknown_writes,
        why=facts.unknown,
    )


def _collect_paths(use: FileUse, collect: _Collector, git: bool) -> None:
    for word in use.reads:
        collect.add(word, False)
    for word in use.writes:
        collect.add(word, True)
    repo = _repo_root(collect.base, collect.scope) if git else None
    for tree in use.trees:
        if not tree.repo:
            collect.tree(tree, repo=repo)
    if repo is None:
        return
    for word in use.pathspecs:  # git refuses pathspecs outside the repository
        paths = collect.resolve(word, False)
        collect.reads.extend(p for p in paths if _within(p, repo))
    for word in use.repo_reads:
        collect.add(word, False, repo)
    for tree in use.trees:
        if tree.repo:
            collect.tree(tree, repo, repo)
    limited = False
    for word in use.maybe_paths:
        got = resolve_word(word, collect.base, collect.scope, collect.dotglob)
        present = [p for p in got.paths if os.path.lexists(p.lexical) and _within(p, repo)]
        limited = limited or bool(present)
        collect.reads.extend(present)
        if use.outside_reads:  # git diff OUTSIDE x: an implicit --no-index reads it
            collect.reads.extend(
                p for p in got.paths if os.path.lexists(p.lexical) and not _within(p, repo)
            )
        if use.maybe_trees:
            collect.searches.extend(collect.search(p, TreeRead(word)) for p in present)
    if use.whole_repo is not None and not limited:
        root = resolve(str(repo), repo, collect.scope.home, [repo])
        collect.searches.append(
            Search(root, collect.how, skip_git=True, excludes=use.whole_repo.excludes)
        )


def _link_escapes(root: ResolvedPath, scope: Scope) -> list[ResolvedPath] | None:
    """Symlinks below ``root`` that lead out of the sandbox (None: too many entries to look)."""
    found: list[ResolvedPath] = []
    try:
        for path, _is_dir in walk_tree(root.path, LINK_WALK_LIMIT, follow_links=True):
            if path.is_symlink():
                shown = os.path.relpath(path, scope.root)
                target = resolve(shown, scope.root, scope.home, scope.roots)
                if target.root is None:
                    found.append(target)
                    if len(found) >= 8:
                        break
    except TreeTooLarge:
        return None
    return found


def _within(target: ResolvedPath, repo: Path) -> bool:
    return root_of(target.lexical, [repo]) is not None or root_of(target.path, [repo]) is not None


def _redirect_action(text: str, write: bool, got: Resolved) -> Action:
    verb = "write" if write else "read"
    label = f"connect to {got.network}" if got.network is not None else f"{verb} {text}"
    return Action(
        "Edit" if write else "Read",
        label,
        reads=() if write else tuple(got.paths),
        writes=tuple(got.paths) if write else (),
        read_only=not write and got.network is None,
        unknown_paths=got.unknown or not (got.paths or got.network),
        host=got.network,
        unknown_reads=not write and (got.unknown or not got.paths),
        unknown_writes=write and (got.unknown or not got.paths),
    )


def bash_actions(parsed: ShellFacts, scope: Scope) -> list[Action]:
    """One action per simple command and per file redirect."""
    dotglob = any(mark in t for t in parsed.texts for mark in ("dotglob", "GLOBIGNORE"))
    actions = [_command_action(cmd, scope, dotglob) for cmd in parsed.commands]
    for redirect in parsed.redirects:
        text = redirect.target.text
        got = resolve_word(redirect.target, _cwd_base(redirect.cwd, scope), scope, dotglob)
        if not (got.paths or got.unknown):
            continue  # /dev/null, /dev/fd/2 and other harmless devices
        actions.append(_redirect_action(text, redirect.write, got))
    return actions
