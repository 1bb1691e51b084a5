"""What a command does to files: the reads, writes and trees the parsers report."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from agent_core.permissions.shell.model import Word


class TreeRead(NamedTuple):
    """A directory whose files a command reads, down to every depth."""

    word: Word
    follow: bool = False  # follows the symlinks it meets inside
    ignore: bool = False  # leaves out what .gitignore excludes (ripgrep)
    hidden: bool = True  # reads hidden files too
    excludes: tuple[str, ...] = ()  # gitignore-style patterns it leaves out
    repo: bool = False  # the whole repository's history (git): not a sandbox read


@dataclass
class FileUse:
    """What one command does to files, as far as its words tell."""

    reads: list[Word] = field(default_factory=list)
    writes: list[Word] = field(default_factory=list)
    trees: list[TreeRead] = field(default_factory=list)
    repo_reads: list[Word] = field(default_factory=list)  # git REV:PATH, from the repo root
    maybe_paths: list[Word] = field(default_factory=list)  # git: a path if it exists, else a rev
    maybe_trees: bool = False  # maybe_paths that exist are trees too (git log -p REV path)
    # git: the whole history's contents, unless an existing path among maybe_paths limits it
    whole_repo: TreeRead | None = None
    pathspecs: list[Word] = field(default_factory=list)  # git: read unless outside the repo
    outside_reads: bool = False  # git diff: a maybe_path outside the repo is read (--no-index)
    unknown_reads: bool = False  # reads paths the text does not name
    unknown_writes: bool = False  # writes paths the text does not name
    runs_code: bool = False  # an option or script makes it run or write something else
    chdir: list[Word] = field(default_factory=list)  # git -C: where its paths start
    hosts: list[str] = field(default_factory=list)  # remote hosts it talks to (rsync, scp)

    def read(self, word: Word | None) -> None:
        if word is None or not word.text:
            return
        if word.text == "-":
            self.unknown_reads = True
        else:
            self.reads.append(word)

    def write(self, word: Word | None) -> None:
        if word is None or not word.text:
            return
        if word.text == "-":
            return  # stdout
        self.writes.append(word)
