"""jq and yq: the filter, input files, --rawfile/--slurpfile reads and yq's in-place writes."""

from __future__ import annotations

import re

from agent_core.permissions.shell.file_args.model import FileUse
from agent_core.permissions.shell.file_args.spec import fs
from agent_core.permissions.shell.wrappers import Word

_JQ_VALUES = fs("--indent", "-L", "--library-path")
_JQ_TWO_VALUES = fs("--arg", "--argjson", "--rawfile", "--slurpfile")
_YQ_VALUES = fs("-o", "--output-format", "-p", "--input-format", "-I", "--indent",
                "--expression", "--front-matter", "--lua-prefix", "--lua-suffix",
                "--properties-separator", "--csv-separator")  # fmt: skip
_YQ_SPLIT = fs("-s", "--split-exp")  # writes one file per document
_YQ_LOAD = re.compile(r"\bload(_str|_xml|_props|_base64|_csv|_tsv)?\s*\(")


def jq_uses(args: list[Word], yq: bool = False) -> FileUse:
    """jq and yq: the first positional is the filter, the rest are inputs (or args)."""
    use = FileUse()
    positionals: list[Word] = []
    filter_from_file = rest_are_args = in_place = False
    values = _JQ_VALUES | (_YQ_VALUES if yq else frozenset())
    i = 0
    while i < len(args):
        word = args[i]
        text = word.text
        i += 1
        if rest_are_args:
            continue  # --args/--jsonargs: the rest are values, not files
        if not text.startswith("-") or text == "-":
            positionals.append(word)
            continue
        option = text.split("=", 1)[0]
        value: Word | None = None
        if "=" in text and text.startswith("--"):
            value = Word(text.split("=", 1)[1], word.dynamic)
        elif text.startswith("-L") and len(text) > 2:
            option, value = "-L", Word(text[2:], word.dynamic)
        if option in ("--args", "--jsonargs"):
            rest_are_args = True
        elif option in ("-f", "--from-file") or option in values or option in _YQ_SPLIT:
            if value is None and i < len(args):
                value = args[i]
                i += 1
            if option in ("-f", "--from-file"):
                filter_from_file = True
                use.read(value)
            elif option in ("-L", "--library-path"):
                use.read(value)
            elif yq and option in _YQ_SPLIT:
                use.runs_code = use.unknown_writes = True
        elif option in _JQ_TWO_VALUES:
            if option in ("--rawfile", "--slurpfile") and i + 1 < len(args):
                use.read(args[i + 1])
            i += 2
        elif yq and (option in ("-i", "--inplace") or re.fullmatch(r"-[a-zA-Z]*i[a-zA-Z]*", text)):
            in_place = True
    if yq and any(w.dynamic or _YQ_LOAD.search(w.text) for w in args):
        use.unknown_reads = True  # yq's load() reads any file the expression names
    if yq and positionals and positionals[0].text in ("eval", "e", "eval-all", "ea"):
        positionals.pop(0)
    if not filter_from_file and positionals:
        if positionals.pop(0).dynamic:
            use.unknown_reads = True
    for word in positionals:
        use.read(word)
        if in_place:
            use.write(word)
    use.runs_code = use.runs_code or in_place
    return use
