"""Path resolution for the sandbox: ``~``, ``..``, symlinks (dangling too), letter case,
kernel magic links and shell globs.

A path is followed component by component the way the kernel follows it, so a
``..`` after a symlink climbs from the link's target, not from its name.
Paths the kernel resolves through a process's own state (``/dev/fd/...``,
``/proc/self/root/...``) cannot be known before the command runs.
"""

from __future__ import annotations

import functools
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import NamedTuple

# Writes here ask in every mode: they change how git, the shell or MewCode itself behave.
PROTECTED_NAMES = frozenset({
    ".git", ".mewcode", ".mcp.json", ".ssh", ".gnupg", ".vscode", ".idea",
    ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc",
    ".zprofile", ".zshenv", ".zlogin", ".zlogout", ".gitconfig", ".gitmodules",
    ".git-credentials", ".netrc", ".npmrc", ".pypirc", ".envrc",
})  # fmt: skip

# /proc/<pid>/<name>: links the kernel resolves through that process's fds, root and cwd.
_PROC_LINKS = frozenset({"fd", "fdinfo", "root", "cwd", "exe", "map_files", "task", "ns"})
_MAX_LINKS = 40  # the kernel's own limit on symlinks in one lookup
GLOB_LIMIT = 2000  # matches (or directory entries read) before a glob counts as unknown
_GLOB_MAGIC = re.compile(r"[*?\[]|[+@!]\(")
_POSIX_CLASSES = {
    "alpha": "a-zA-Z", "digit": "0-9", "alnum": "a-zA-Z0-9", "upper": "A-Z", "lower": "a-z",
    "space": r"\s", "blank": r" \t", "punct": r"!-/:-@\[-`{-~", "xdigit": "0-9A-Fa-f",
    "word": r"\w", "cntrl": r"\x00-\x1f\x7f", "print": r" -~", "graph": "!-~",
}  # fmt: skip


class ResolvedPath(NamedTuple):
    """A path as written and as the filesystem would reach it."""

    raw: str
    path: Path  # absolute, symlinks followed (dangling ones too)
    lexical: Path  # absolute, `~` and `..` applied, symlinks not followed
    root: Path | None  # the sandbox root holding it; None when outside every root
    logical: Path | None = None  # the lexical form with its symlinks followed, when it differs
    magic: str | None = None  # why the kernel may reach somewhere else ("network": /dev/tcp)


class KernelPath(NamedTuple):
    """Where a path goes once the kernel follows it, or why that cannot be known."""

    path: str
    magic: str | None  # "network", or the reason the kernel would resolve it elsewhere


def expand_home(raw: str, home: Path) -> str:
    """Expand ``~``, ``~/x``, ``$HOME`` and ``${HOME}``; ``~user`` becomes /home/user."""
    for var in ("${HOME}", "$HOME"):
        if raw == var or raw.startswith(var + "/"):
            return str(home) + raw[len(var) :]
    if raw == "~" or raw.startswith("~/"):
        return str(home) + raw[1:]
    if raw.startswith("~"):
        return "/home/" + raw[1:]
    return raw


@functools.lru_cache(maxsize=128)
def case_insensitive(root: str) -> bool:
    """Whether the filesystem holding ``root`` ignores letter case (checked once per root)."""
    probe = Path(root)
    while not any(c.isalpha() for c in probe.name) and probe.parent != probe:
        probe = probe.parent
    swapped = str(probe.parent / probe.name.swapcase())
    if swapped == str(probe):
        return False
    try:
        return os.path.samefile(probe, swapped)
    except OSError:
        return False


def is_inside(path: Path, root: Path) -> bool:
    """Component-wise containment (``/repo-evil`` is not inside ``/repo``), case-aware."""
    if case_insensitive(str(root)):
        return PurePosixPath(str(path).casefold()).is_relative_to(str(root).casefold())
    return path.is_relative_to(root)


def real(path: Path) -> Path:
    """Follow every symlink, including a dangling last link and symlinked parents."""
    return Path(os.path.realpath(path))


def sandbox_roots(project_root: Path, additional_dirs: list[Path], home: Path) -> list[Path]:
    """The resolved directories file access is confined to."""
    roots = [real(project_root)]
    for extra in additional_dirs:
        text = expand_home(str(extra), home)
        roots.append(real(project_root / text))
    return roots


def magic_reason(parts: list[str], more: bool) -> str | None:
    """Why the kernel resolves ``/parts...`` through process state (None: it does not)."""
    if parts[:1] == ["dev"] and len(parts) >= 2:
        if parts[1] in ("tcp", "udp") and (more or len(parts) > 2):
            return "network"
        if parts[1] in ("fd", "stdin", "stdout", "stderr") and (more or len(parts) > 2):
            return f"/dev/{parts[1]} is resolved through the running process's file descriptors"
    if parts[:1] == ["proc"] and len(parts) >= 2:
        pid = parts[1]
        if pid in ("self", "thread-self") and (more or len(parts) > 2):
            return f"/proc/{pid} is the running process, not this check"
        if pid.isdigit() and len(parts) >= 3 and parts[2] in _PROC_LINKS:
            return f"/proc/{pid}/{parts[2]} is resolved through another process"
    return None


def follow(absolute: str) -> KernelPath:
    """Follow an absolute path as the kernel does: symlinks first, then ``..`` from the target."""
    done: list[str] = []
    pending = [p for p in reversed(absolute.split("/")) if p not in ("", ".")]
    links = 0
    while pending:
        part = pending.pop()
        if part == "..":
            if done:
                done.pop()
            continue
        done.append(part)
        if why := magic_reason(done, bool(pending)):
            return KernelPath("/" + "/".join(done + pending[::-1]), why)
        here = "/" + "/".join(done)
        try:
            is_link = stat.S_ISLNK(os.lstat(here).st_mode)
        except (OSError, ValueError):
            continue  # missing (or unreadable): the rest is taken as written
        if not is_link:
            continue
        links += 1
        if links > _MAX_LINKS:
            pending.clear()  # a loop: the kernel fails the lookup, keep it where it is
            continue
        try:
            target = os.readlink(here)
        except OSError:
            continue
        done.pop()
        if target.startswith("/"):
            done.clear()
        pending.extend(p for p in reversed(target.split("/")) if p not in ("", "."))
    return KernelPath("/" + "/".join(done), None)


def root_of(path: Path, roots: list[Path]) -> Path | None:
    """The sandbox root that holds ``path``, or None."""
    return next((r for r in roots if is_inside(path, r)), None)


def resolve(raw: str, base: Path, home: Path, roots: list[Path]) -> ResolvedPath:
    """Resolve ``raw`` (relative to ``base``) and find the sandbox root that holds it.

    The kernel's view (symlinks, then ``..``) and the shell's logical view (``..`` first,
    as ``cd`` does) are both taken; when they disagree about the root, the stricter wins.
    A path through kernel magic links (``/dev/fd/..``, ``/proc/self/root/..``) keeps its
    lexical form, says why in ``magic`` and is outside every root: no check can confine it.
    """
    absolute = os.path.join(str(base), expand_home(raw, home))
    if "\0" in absolute:  # NUL bytes: no such path can be opened; treat it as outside
        lexical = Path(os.path.normpath(absolute.replace("\0", "")))
        return ResolvedPath(raw, lexical, lexical, None)
    lexical = Path(os.path.normpath(absolute))
    physical = follow(absolute)
    logical = physical
    if physical.magic is None and ".." in absolute.split("/"):
        logical = follow(str(lexical))
    if magic := physical.magic or logical.magic:
        return ResolvedPath(raw, Path(absolute), lexical, None, magic=magic)
    kernel, shell = Path(physical.path), Path(logical.path)
    root = root_of(kernel, roots)
    if shell == kernel:
        return ResolvedPath(raw, kernel, lexical, root)
    other = root_of(shell, roots)
    if other is None and root is not None:
        return ResolvedPath(raw, shell, lexical, None, kernel)
    return ResolvedPath(raw, kernel, lexical, root if other is not None else None, shell)


def protected_name(target: ResolvedPath) -> str | None:
    """The protected component (``.git``, ``.bashrc``...) a path goes through, if any."""
    if target.root is None:
        return None
    try:
        parts = target.path.relative_to(target.root).parts
    except ValueError:
        try:
            parts = (
                PurePosixPath(str(target.path).casefold())
                .relative_to(str(target.root).casefold())
                .parts
            )
        except ValueError:
            return None
    for part in parts:
        if part.casefold() in PROTECTED_NAMES:
            return part
    return None


def display(target: ResolvedPath, project_root: Path) -> str:
    """A short form for messages and rules: relative inside the project, else absolute."""
    try:
        return target.path.relative_to(real(project_root)).as_posix() or "."
    except ValueError:
        return str(target.path)


# --- Shell globs -------------------------------------------------------------------


def is_pattern(text: str) -> bool:
    """Whether bash would treat ``text`` as a glob (``*``, ``?``, ``[...]``, extglob)."""
    return _GLOB_MAGIC.search(text) is not None


def _bracket(comp: str, i: int) -> tuple[str, int] | None:
    """The regex for a ``[...]`` class starting at ``comp[i]``, and the index after it."""
    j = i + 1
    negate = j < len(comp) and comp[j] in "!^"
    j += negate
    body: list[str] = []
    first = True
    while j < len(comp):
        char = comp[j]
        if char == "]" and not first:
            inner = "".join(body) or r"\s\S"
            return ("[^" if negate else "[") + inner + "]", j + 1
        if char == "[" and comp.startswith("[:", j):
            end = comp.find(":]", j + 2)
            name = comp[j + 2 : end] if end > 0 else ""
            if name in _POSIX_CLASSES:
                body.append(_POSIX_CLASSES[name])
                j = end + 2
                first = False
                continue
        body.append("\\" + char if char in "\\^[]-" and not (char == "-" and body) else char)
        first = False
        j += 1
    return None


def _extglob_end(comp: str, start: int) -> int | None:
    """Index of the ``)`` closing the extglob group whose ``(`` is at ``start``."""
    depth = 0
    for j in range(start, len(comp)):
        if comp[j] == "(":
            depth += 1
        elif comp[j] == ")":
            depth -= 1
            if depth == 0:
                return j
    return None


def _translate(comp: str) -> str | None:
    """Regex for one glob component (None when it cannot be read)."""
    out: list[str] = []
    i = 0
    while i < len(comp):
        char = comp[i]
        if char in "?*+@!" and comp.startswith("(", i + 1):
            end = _extglob_end(comp, i + 1)
            if end is None:
                return None
            alternatives = []
            for alt in re.split(r"\|(?![^(]*\))", comp[i + 2 : end]):
                inner = _translate(alt)
                if inner is None:
                    return None
                alternatives.append(inner)
            group = "(?:" + "|".join(alternatives) + ")"
            suffix = {"?": "?", "*": "*", "+": "+", "@": ""}.get(char)
            out.append(".*" if suffix is None else group + suffix)  # !(...): anything (wider)
            i = end + 1
        elif char == "*":
            out.append(".*")
            i += 1
        elif char == "?":
            out.append(".")
            i += 1
        elif char == "[":
            found = _bracket(comp, i)
            if found is None:
                out.append(re.escape(char))
                i += 1
            else:
                out.append(found[0])
                i = found[1]
        elif char == "\\" and i + 1 < len(comp):
            out.append(re.escape(comp[i + 1]))
            i += 2
        else:
            out.append(re.escape(char))
            i += 1
    return "".join(out)


def _join(prefix: str, name: str) -> str:
    if not prefix:
        return name
    return prefix + name if prefix.endswith("/") else f"{prefix}/{name}"


class _Budget:
    def __init__(self, limit: int) -> None:
        self.left = limit

    def spend(self, count: int = 1) -> bool:
        self.left -= count
        return self.left >= 0


def _entries(directory: str, budget: _Budget) -> list[os.DirEntry[str]] | None:
    try:
        with os.scandir(directory or ".") as it:
            entries = list(it)
    except OSError:
        return []
    return entries if budget.spend(len(entries) + 1) else None


def _match_component(
    comp: str, found: list[tuple[str, str]], dotglob: bool, dirs_only: bool, budget: _Budget
) -> list[tuple[str, str]] | None:
    regex = _translate(comp)
    if regex is None:
        return None
    pattern = re.compile(regex, re.DOTALL)
    hidden_ok = dotglob or comp.startswith(".") or re.search(r"[?*+@!]\(", comp) is not None
    matched: list[tuple[str, str]] = []
    for shown, actual in found:
        entries = _entries(actual, budget)
        if entries is None:
            return None
        for entry in sorted(entries, key=lambda e: e.name):
            if entry.name.startswith(".") and not hidden_ok:
                continue
            if not pattern.fullmatch(entry.name):
                continue
            if dirs_only and not _is_dir(entry):
                continue
            matched.append((_join(shown, entry.name), entry.path))
    return matched


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def _descendants(
    found: list[tuple[str, str]], dotglob: bool, budget: _Budget
) -> list[tuple[str, str]] | None:
    """``**``: every directory below (and including) the ones found, as globstar reads it."""
    result: list[tuple[str, str]] = []
    queue = list(found)
    while queue:
        shown, actual = queue.pop(0)
        result.append((shown, actual))
        entries = _entries(actual, budget)
        if entries is None:
            return None
        for entry in sorted(entries, key=lambda e: e.name):
            hidden = entry.name.startswith(".") and not dotglob
            if not hidden and entry.is_dir(follow_symlinks=False):
                queue.append((_join(shown, entry.name), entry.path))
    return result


def expand_glob(
    pattern: str, base: Path, dotglob: bool = False, limit: int = GLOB_LIMIT
) -> list[str] | None:
    """Bash pathname expansion of ``pattern`` from ``base``: the matches as bash would write
    them ([] when nothing matches), or None when the expansion is too large to compute."""
    budget = _Budget(limit)
    absolute = pattern.startswith("/")
    parts = pattern.split("/")
    trailing = len(parts) > 1 and parts[-1] == ""
    comps = [p for p in parts if p != ""]
    found: list[tuple[str, str]] = [("/" if absolute else "", "/" if absolute else str(base))]
    globbed = False
    for index, comp in enumerate(comps):
        last = index == len(comps) - 1
        if not is_pattern(comp):
            found = [(_join(s, comp), os.path.join(a, comp)) for s, a in found]
            continue
        globbed = True
        if comp == "**":
            found_or_none = _descendants(found, dotglob, budget)
            if found_or_none is None:
                return None
            if not last:
                found = found_or_none
                continue
            comp = "*"  # a final ** also names every entry at every depth
            found = found_or_none
        dirs_only = not last or trailing
        matched = _match_component(comp, found, dotglob, dirs_only, budget)
        if matched is None:
            return None
        found = matched
        if len(found) > limit:
            return None
    if not globbed:
        return [pattern]
    existing = [s + ("/" if trailing else "") for s, a in found if os.path.lexists(a)]
    return sorted(set(existing))


# --- Walking a directory tree (recursive readers) --------------------------------------


class TreeTooLarge(Exception):
    """A tree has more entries than a check may read."""


def walk_tree(
    top: Path,
    limit: int,
    *,
    hidden: bool = True,
    skip_git: bool = False,
    follow_links: bool = False,
    ignore: bool = False,
) -> Iterator[tuple[Path, bool]]:
    """Every entry under ``top`` as (path, is_dir); raises TreeTooLarge past ``limit``.

    ``ignore`` applies .gitignore as ripgrep does, except below a directory holding an
    ``.ignore`` or ``.rgignore`` file (those could re-include what .gitignore leaves out).
    """
    from agent_core.tools.pathfilter import IgnoreRules

    try:
        if not top.is_dir():
            return
    except OSError:
        return
    rules = IgnoreRules.for_directory(top) if ignore else None
    queue: list[tuple[Path, IgnoreRules | None]] = [(top, rules)]
    seen = 0
    visited: set[tuple[int, int]] = set()
    while queue:
        directory, layer = queue.pop()
        try:
            info = directory.stat()
            if (info.st_dev, info.st_ino) in visited:
                continue
            visited.add((info.st_dev, info.st_ino))
            with os.scandir(directory) as it:
                entries = list(it)
        except OSError:
            continue
        if layer is not None and any(e.name in (".ignore", ".rgignore") for e in entries):
            layer = None
        for entry in entries:
            seen += 1
            if seen > limit:
                raise TreeTooLarge(str(top))
            path = Path(entry.path)
            try:
                is_dir = entry.is_dir(follow_symlinks=follow_links)
            except OSError:
                is_dir = False
            if entry.name == ".git" and skip_git:
                continue
            if entry.name.startswith(".") and not hidden:
                continue
            if layer is not None and layer.ignored(path, is_dir):
                continue
            yield path, is_dir
            if is_dir:
                queue.append((path, layer.descend(path) if layer is not None else None))


# --- git configuration ------------------------------------------------------------------

_SECTION = re.compile(r"^\s*\[\s*([A-Za-z0-9.-]+)(?:\s+\"[^\"]*\")?\s*\]")
_KEY = re.compile(r"^\s*([A-Za-z][A-Za-z0-9-]*)\s*(=|$)")


def git_aliases(project: Path, home: Path) -> frozenset[str]:
    """Names defined under ``[alias]`` in the repository's and the user's git config."""
    from agent_core.tools.pathfilter import git_root

    repo = git_root(project) or project
    dot_git = repo / ".git"
    files = [home / ".gitconfig", home / ".config" / "git" / "config", Path("/etc/gitconfig")]
    if dot_git.is_file():  # a worktree: "gitdir: <path>"
        try:
            line = dot_git.read_text(errors="replace").strip()
        except OSError:
            line = ""
        if line.startswith("gitdir:"):
            gitdir = (repo / line[len("gitdir:") :].strip()).resolve()
            files += [gitdir / "config", gitdir.parent.parent / "config"]
    else:
        files.append(dot_git / "config")
    names: set[str] = set()
    for file in files:
        try:
            text = file.read_text(errors="replace")
        except OSError:
            continue
        section = ""
        for line in text.splitlines():
            if header := _SECTION.match(line):
                section = header.group(1).lower()
                line = line[header.end() :]
            if section == "alias" and (key := _KEY.match(line)):
                names.add(key.group(1).lower())
    return frozenset(names)
