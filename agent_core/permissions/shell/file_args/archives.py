"""tar, zip and unzip: archives read or written, members read as trees, extraction targets."""

from __future__ import annotations

from agent_core.permissions.shell.file_args.model import FileUse, TreeRead
from agent_core.permissions.shell.gnu import fs, long_option
from agent_core.permissions.shell.model import Word

_TAR_VALUE_LETTERS = "fbCgKLNTVXIFH"
_TAR_CODE = fs("--to-command", "--use-compress-program", "--checkpoint-action",
               "--info-script", "--new-volume-script", "--rsh-command", "--rmt-command",
               "-I", "-F")  # fmt: skip
_TAR_LONG_VALUES = fs(
    "--file", "--directory", "--files-from", "--exclude-from", "--exclude", "--transform",
    "--xform", "--owner", "--group", "--mode", "--mtime", "--format", "--blocking-factor",
    "--listed-incremental", "--to-command", "--use-compress-program", "--checkpoint-action",
    "--info-script", "--new-volume-script", "--rsh-command", "--rmt-command", "--label",
    "--newer", "--after-date", "--newer-mtime", "--strip-components", "--tape-length",
)  # fmt: skip


def tar_uses(args: list[Word]) -> FileUse:
    """tar: the archive read or written, members read (create) or unknown writes (extract)."""
    use = FileUse()
    letters: list[tuple[str, Word | None]] = []  # (option, value)
    members: list[Word] = []
    rest = list(args)
    if rest and not rest[0].text.startswith("-"):  # old style: "czf out.tgz dir"
        bundle = rest.pop(0).text
        for char in bundle:
            value = rest.pop(0) if char in _TAR_VALUE_LETTERS and rest else None
            letters.append((f"-{char}", value))
    i = 0
    while i < len(rest):
        word = rest[i]
        text = word.text
        if text.startswith("--"):
            option = long_option(text, _TAR_LONG_VALUES) or text.split("=", 1)[0]
            if option in _TAR_LONG_VALUES:
                if "=" in text:
                    letters.append((option, Word(text.split("=", 1)[1], word.dynamic)))
                else:
                    i += 1
                    letters.append((option, rest[i] if i < len(rest) else None))
            else:
                letters.append((option, None))
        elif text.startswith("-") and len(text) > 1:
            for pos, char in enumerate(text[1:]):
                if char in _TAR_VALUE_LETTERS:
                    attached = text[pos + 2 :]
                    if attached:
                        letters.append((f"-{char}", Word(attached, word.dynamic)))
                    else:
                        i += 1
                        letters.append((f"-{char}", rest[i] if i < len(rest) else None))
                    break
                letters.append((f"-{char}", None))
        else:
            members.append(word)
        i += 1
    names = {o for o, _ in letters}
    create = bool(names & {"-c", "-r", "-u", "-A", "--create", "--append", "--update",
                           "--catenate", "--concatenate"})  # fmt: skip
    extract = bool(names & {"-x", "--extract", "--get"})
    follow = bool(names & {"-h", "--dereference"})
    archives = [v for o, v in letters if o in ("-f", "--file") and v is not None]
    use.runs_code = bool(names & _TAR_CODE)
    for option, value in letters:
        if option in ("-T", "--files-from"):
            use.read(value)
            use.unknown_reads = True
        elif option in ("-X", "--exclude-from"):
            use.read(value)
        elif option in ("-C", "--directory") and value is not None:
            if extract:
                use.write(value)
            else:
                use.chdir.append(value)
                use.read(value)
    for archive in archives:
        (use.write if create else use.read)(archive)
        if create and names & {"-r", "-u", "--append", "--update"}:
            use.read(archive)
    if create:
        for word in members:
            use.read(word)
            use.trees.append(TreeRead(word, follow=follow))
    elif extract:
        use.unknown_writes = True
        if not any(o in ("-C", "--directory") for o, _ in letters):
            use.writes.append(Word("."))
        if names & {"-P", "--absolute-names"}:
            use.writes.append(Word("/"))
    if names & {"--remove-files"}:
        use.writes.extend(members)
    return use


def zip_uses(args: list[Word]) -> FileUse:
    """zip ARCHIVE FILES...: the archive is written, the files read (trees with -r)."""
    use = FileUse()
    positionals: list[Word] = []
    excludes: list[str] = []
    patterns: list[str] | None = None  # after -x/-i, words are patterns until the next option
    recursive, follow = False, True  # zip stores what symlinks point to unless -y
    i = 0
    while i < len(args):
        text = args[i].text
        if patterns is not None and not text.startswith("-"):
            patterns.append(text)
            i += 1
            continue
        patterns = None
        if text in ("-x", "--exclude", "-i", "--include"):
            patterns = excludes if text in ("-x", "--exclude") else []
            i += 1
            continue
        if text in ("-TT", "--unzip-command"):
            use.runs_code = True
            i += 2
            continue
        if text in ("-b", "--temp-path", "-n", "--suffixes", "-P", "--password", "-t", "-tt"):
            i += 2
            continue
        if text in ("-i@", "-x@") or text.startswith(("-i@", "-x@")):
            use.read(Word(text[3:]) if len(text) > 3 else None)
        elif text == "-@" or text == "--names-stdin":
            use.unknown_reads = True
        elif text.startswith("-") and text != "-":
            recursive = recursive or "r" in text[1:] or "R" in text[1:] or text == "--recurse-paths"
            follow = follow and not ("y" in text[1:] or text == "--symlinks")
        else:
            positionals.append(args[i])
        i += 1
    if positionals:
        use.write(positionals[0])
        use.read(positionals[0])
    for word in positionals[1:]:
        use.read(word)
        if recursive:
            use.trees.append(TreeRead(word, follow=follow, excludes=tuple(excludes)))
    return use


def unzip_uses(args: list[Word]) -> FileUse:
    """unzip ARCHIVE: the archive is read; extracting writes below -d (or here)."""
    use = FileUse()
    positionals: list[Word] = []
    target: Word | None = None
    listing = False
    i = 0
    while i < len(args):
        text = args[i].text
        if text == "-d":
            target = args[i + 1] if i + 1 < len(args) else None
            i += 2
            continue
        if text == "-x":
            break
        if text.startswith("-") and text != "-":
            listing = listing or any(c in text[1:] for c in "lptvZ")
        else:
            positionals.append(args[i])
        i += 1
    if positionals:
        use.read(positionals[0])
    if not listing:
        use.unknown_writes = True
        use.write(target or Word("."))
    return use
