"""The ArgSpec table of coreutils and other plain programs (viewers, editors); cd and dd."""

from __future__ import annotations

from agent_core.permissions.shell.file_args.model import FileUse
from agent_core.permissions.shell.file_args.spec import ArgSpec, fs
from agent_core.permissions.shell.wrappers import Word

_CHECKSUMS = ArgSpec(list_flags=fs("-c", "--check"))
_READER = ArgSpec()

# fmt: off
COREUTILS: dict[str, ArgSpec] = {
    "rm": ArgSpec("all"),
    "rmdir": ArgSpec("all"),
    "unlink": ArgSpec("all"),
    "mkdir": ArgSpec("all", "m", fs("--mode")),
    "touch": ArgSpec("all", "dt", fs("--date"), {"-r": False, "--reference": False}),
    "mv": ArgSpec("all", "S", fs("--suffix"), {"-t": True, "--target-directory": True},
                  reads_written=True),
    "cp": ArgSpec(
        "last",
        "S",
        fs("--suffix"),
        {"-t": True, "--target-directory": True},
        recursive=fs("-r", "-R", "-a", "--recursive", "--archive"),
        follow=fs("-L", "--dereference"),
    ),
    "ln": ArgSpec("last", "S", fs("--suffix"), {"-t": True, "--target-directory": True}),
    "install": ArgSpec(
        "last",
        "mogS",
        fs("--mode", "--owner", "--group", "--suffix"),
        {"-t": True, "--target-directory": True},
    ),
    "tee": ArgSpec("all"),
    "truncate": ArgSpec("all", "s", fs("--size"), {"-r": False, "--reference": False}),
    "shred": ArgSpec("all", "ns", fs("--iterations", "--size")),
    "chmod": ArgSpec("all", skip=1, path_options={"--reference": False}),
    "chown": ArgSpec("all", skip=1, path_options={"--reference": False}),
    "chgrp": ArgSpec("all", skip=1, path_options={"--reference": False}),
    "cat": _READER,
    "tac": ArgSpec(short_values="s", long_values=fs("--separator")),
    "nl": ArgSpec(short_values="bdfhilnsvw"),
    "rev": _READER,
    "fold": ArgSpec(short_values="w", long_values=fs("--width")),
    "fmt": ArgSpec(short_values="wpg", long_values=fs("--width", "--prefix", "--goal")),
    "expand": ArgSpec(short_values="t", long_values=fs("--tabs")),
    "unexpand": ArgSpec(short_values="t", long_values=fs("--tabs")),
    "base64": ArgSpec(short_values="w", long_values=fs("--wrap")),
    "base32": ArgSpec(short_values="w", long_values=fs("--wrap")),
    "basenc": ArgSpec(short_values="w", long_values=fs("--wrap")),
    "xxd": ArgSpec("after1", short_values="cgloRsn"),
    "od": ArgSpec(
        short_values="AjNStw",
        long_values=fs("--address-radix", "--skip-bytes", "--read-bytes", "--format", "--width"),
    ),
    "hexdump": ArgSpec(short_values="neEs", path_options={"-f": False}),
    "hd": ArgSpec(short_values="neEs", path_options={"-f": False}),
    "strings": ArgSpec(short_values="nteT", long_values=fs("--bytes", "--radix", "--encoding")),
    "cksum": _CHECKSUMS,
    "sum": _READER,
    "md5sum": _CHECKSUMS,
    "sha1sum": _CHECKSUMS,
    "sha224sum": _CHECKSUMS,
    "sha256sum": _CHECKSUMS,
    "sha384sum": _CHECKSUMS,
    "sha512sum": _CHECKSUMS,
    "b2sum": ArgSpec(short_values="l", list_flags=fs("-c", "--check")),
    "shasum": ArgSpec(short_values="a", list_flags=fs("-c", "--check")),
    "cmp": ArgSpec(short_values="in", long_values=fs("--ignore-initial", "--bytes")),
    "comm": ArgSpec(long_values=fs("--output-delimiter")),
    "join": ArgSpec(short_values="tjoe12av"),
    "paste": ArgSpec(short_values="d", long_values=fs("--delimiters")),
    "column": ArgSpec(short_values="csto", long_values=fs("--separator", "--table-columns")),
    "cut": ArgSpec(
        short_values="bcdf",
        long_values=fs("--bytes", "--characters", "--delimiter", "--fields", "--output-delimiter"),
    ),
    "iconv": ArgSpec(
        short_values="ft",
        long_values=fs("--from-code", "--to-code"),
        path_options={"-o": True, "--output": True},
    ),
    "less": ArgSpec(
        short_values="bhjkpPtTxyz#",
        path_options={"-o": True, "-O": True, "--log-file": True, "--LOG-FILE": True},
    ),
    "more": ArgSpec(short_values="n"),
    "head": ArgSpec(short_values="nc", long_values=fs("--lines", "--bytes")),
    "tail": ArgSpec(short_values="ncs", long_values=fs("--lines", "--bytes", "--sleep-interval")),
    "wc": ArgSpec(list_options=fs("--files0-from")),
    "stat": ArgSpec(short_values="c", long_values=fs("--format", "--printf")),
    "file": ArgSpec(short_values="mfF", path_options={"-m": False, "-f": False}),
    "readlink": _READER,
    "realpath": ArgSpec(path_options={"--relative-to": False, "--relative-base": False}),
    "diff": ArgSpec(
        short_values="UCxIDF",
        long_values=fs("--label", "--ignore-matching-lines", "--exclude"),
        path_options={"-X": False, "--exclude-from": False, "--from-file": False,
                      "--to-file": False},
        recursive=fs("-r", "--recursive"),
    ),
    "ls": ArgSpec(short_values="IwT", long_values=fs("--ignore", "--hide", "--width")),
    "tree": ArgSpec(
        short_values="LIPH",
        long_values=fs("--filelimit", "--charset"),
        path_options={"-o": True},
        list_options=fs("--fromfile"),
    ),
    "du": ArgSpec(
        short_values="dBt",
        long_values=fs("--max-depth", "--block-size", "--threshold", "--exclude"),
        path_options={"-X": False, "--exclude-from": False},
        list_options=fs("--files0-from"),
    ),
    "df": ArgSpec(short_values="Bt", long_values=fs("--block-size", "--type")),
    "sort": ArgSpec(
        short_values="ktST",
        long_values=fs("--key", "--field-separator", "--buffer-size", "--temporary-directory",
                       "--parallel", "--batch-size", "--sort"),
        path_options={"-o": True, "--output": True, "--random-source": False},
        list_options=fs("--files0-from"), code_options=fs("--compress-program"),
    ),
    "uniq": ArgSpec(
        "after1", short_values="fsw", max_positionals=2,
        long_values=fs("--skip-fields", "--skip-chars", "--check-chars", "--group",
                       "--all-repeated"),
    ),
    "split": ArgSpec(
        "after1", short_values="abCdlnt", code_options=fs("--filter"),
        long_values=fs("--suffix-length", "--additional-suffix", "--bytes", "--line-bytes",
                       "--lines", "--number", "--separator", "--filter"),
    ),
    "source": _READER,
    ".": _READER,
    **{editor: ArgSpec("all", reads_written=True)
       for editor in ("vi", "vim", "nvim", "view", "nano", "emacs", "ed", "ex", "micro", "hx")},
}
# fmt: on


def cd_uses(args: list[Word]) -> FileUse:
    """cd and pushd: the directory entered is a read (home when none is named)."""
    use = FileUse()
    targets = [w for w in args if not (w.text.startswith("-") and w.text != "-")]
    if not targets:
        use.reads.append(Word("~"))
    elif targets[0].text == "-":
        use.unknown_reads = True
    else:
        use.read(targets[0])
    return use


def dd_uses(args: list[Word]) -> FileUse:
    """dd: if= is read, of= is written."""
    use = FileUse()
    for word in args:
        if word.text.startswith("if="):
            use.read(Word(word.text[3:], word.dynamic))
        elif word.text.startswith("of="):
            use.write(Word(word.text[3:], word.dynamic))
    return use
