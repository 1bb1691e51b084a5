"""Readers for operands that are a language of their own: what the table cannot say.

awk programs and sed scripts (files they read and write, code they run), jq
filters (modules they load), test expressions (operators and what they stat)
and git's revisions and pathspecs. Each gets its words from the walker and
records into the same Walk: file uses, and a doubt when the words do more than
print and read.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from agent_core.permissions.shell.file_args.awk import awk_program
from agent_core.permissions.shell.file_args.git import git_operands
from agent_core.permissions.shell.file_args.sed import sed_script
from agent_core.permissions.shell.model import Word, unknown
from agent_core.permissions.shell.walker import Reading

_QUIET_DEVICES = ("/dev/stdout", "/dev/stderr")
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
# jq and yq reading files a filter names: modules, data files, yq's load().
_FILTER_READS = re.compile(
    r"\b(?:import|include|modulemeta|load(?:_str|_xml|_props|_base64|_csv|_tsv)?\s*\()"
)
_INTEGER = re.compile(r"^(?:[+-]?\d+|\$[#?]|\$\{#[A-Za-z_][A-Za-z0-9_]*\})$")


def _unseen(reading: Reading, why: str) -> None:
    """Code the reader cannot see: it may read, write or run anything."""
    use = reading.walk.use
    use.runs_code = use.unknown_reads = use.unknown_writes = True
    reading.walk.doubt(why)


def awk_programs(words: list[Word], reading: Reading) -> None:
    """An awk program: getline reads, print redirects, system(), pipes, ARGV rewrites."""
    walk, use = reading.walk, reading.walk.use
    for word in words:
        if word.dynamic:
            _unseen(reading, f"awk: the program is known only at run time: {word.text[:60]}")
            continue
        found = awk_program(word.text)
        if found.runs_code:
            walk.doubt("awk: the program runs a command or writes a file")
            use.runs_code = True
        if found.rewrites_arguments:
            walk.doubt("awk: the program changes ARGV, ARGC or ENVIRON (what it reads)")
            use.unknown_reads = True
        use.unknown_reads = use.unknown_reads or found.unknown_reads
        use.unknown_writes = use.unknown_writes or found.unknown_writes
        for name in found.reads:
            use.read(Word(name))
        for name in found.writes:
            if name not in _QUIET_DEVICES:
                use.write(Word(name))


def awk_inputs(words: list[Word], reading: Reading) -> None:
    """awk's operands: files read, or ``var=value`` assignments."""
    for word in words:
        if not _ASSIGNMENT.match(word.text):
            reading.walk.use.read(word)


def sed_scripts(words: list[Word], reading: Reading) -> None:
    """A sed script: r/R read files, w/W and s///w write them, e and s///e run code."""
    walk, use = reading.walk, reading.walk.use
    for word in words:
        found = None if word.dynamic else sed_script(word.text)
        if found is None:
            _unseen(reading, f"sed: the script cannot be read with certainty: {word.text[:60]}")
            continue
        if found.runs_code:
            walk.doubt("sed: the script runs a command (e)")
            use.runs_code = True
        for name in found.reads:
            if name not in ("/dev/stdin", "-"):
                use.read(Word(name))
        for name in found.writes:
            walk.doubt(f"sed: the script writes {name}")
            use.runs_code = True
            if name not in _QUIET_DEVICES:
                use.write(Word(name))


def jq_filters(words: list[Word], reading: Reading) -> None:
    """A jq (or yq) filter reads only its inputs, unless it loads a module or a file."""
    for word in words:
        if unknown(word):
            reading.walk.doubt(f"{reading.program.name}: the filter is known only at run time")
            reading.walk.use.unknown_reads = True
        elif _FILTER_READS.search(_JSON_STRING.sub('""', word.text)):
            reading.walk.doubt(f"{reading.program.name}: the filter loads a module or a file")
            reading.walk.use.unknown_reads = True


def git_arguments(words: list[Word], reading: Reading) -> None:
    """Revisions, REV:PATH blobs and pathspecs; contents shown decide what is read."""
    spec = reading.program.spec
    patch, no_patch = reading.seen("patch"), reading.seen("no-patch")
    content = spec.content == "always" or (spec.content == "with-patch" and patch)
    if spec.content == "always" and no_patch and not patch:
        content = False
    mine = {id(w) for w in words}
    pairs = zip(reading.operands, reading.after_dashes, strict=False)
    dashed = [d for w, d in pairs if id(w) in mine]
    git_operands(words, dashed, reading.walk.use, content)
    if reading.program.name == "git diff":
        reading.walk.use.outside_reads = True  # a path outside the repo means --no-index


class _TestExpression:
    """test, [ and [[ as bash reads them: which words are operators, which operands."""

    def __init__(self, words: list[Word], reading: Reading) -> None:
        self.words = words
        self.reading = reading
        self.operators = reading.program.spec.operators
        self.keyword = reading.invoked == "[["  # parsed before expansion: words stay words
        self.pos = 0

    def _shape(self, index: int) -> list[str]:
        if index >= len(self.words):
            return []
        word = self.words[index]
        if unknown(word) and not self.keyword:
            return []
        return self.operators.get(word.text, "").split()

    def doubt(self, reason: str) -> None:
        self.reading.walk.doubt(f"{self.reading.invoked}: {reason}")

    def expression(self) -> None:
        self.conjunction()
        while self._shape(self.pos)[:1] == ["or"]:
            self.pos += 1
            self.conjunction()

    def conjunction(self) -> None:
        self.term()
        while self._shape(self.pos)[:1] == ["and"]:
            self.pos += 1
            self.term()

    def term(self) -> None:
        if self.pos >= len(self.words):
            return
        word = self.words[self.pos]
        shape = self._shape(self.pos)
        if shape[:1] == ["not"]:
            self.pos += 1
            self.term()
            return
        if word.text == "(" and shape[:1] == ["group"]:
            self.pos += 1
            self.expression()
            if self.pos < len(self.words) and self.words[self.pos].text == ")":
                self.pos += 1
            return
        following = self._shape(self.pos + 1)
        if following[:1] == ["binary"] and self.pos + 2 < len(self.words):
            self.operand(word, following[1])
            self.operand(self.words[self.pos + 2], following[1])
            self.pos += 3
            return
        if shape[:1] == ["unary"] and self.pos + 1 < len(self.words):
            self.operand(self.words[self.pos + 1], shape[1])
            self.pos += 2
            return
        last = self.pos + 1 >= len(self.words)
        if unknown(word) and not self.keyword and word.split:
            self.doubt(f"an unquoted word known only at run time may be split: {word.text}")
        elif unknown(word) and not self.keyword and not last:
            self.doubt(f"a word known only at run time may be an operator: {word.text}")
        elif re.fullmatch(r"-[A-Za-z]", word.text) and not last and not word.dynamic:
            self.doubt(f"operator {word.text} is not known to be safe")
        self.pos += 1

    def operand(self, word: Word, kind: str) -> None:
        if unknown(word) and word.split and not self.keyword:
            self.doubt(f"an unquoted word known only at run time may be split: {word.text}")
        if kind == "path":
            self.reading.walk.use.read(word)
        elif kind == "number" and self.keyword and not _INTEGER.match(word.text):
            self.doubt(f"arithmetic on {word.text} (its value is evaluated as an expression)")


def test_expression(words: list[Word], reading: Reading) -> None:
    """``test EXPR``, ``[ EXPR ]``, ``[[ EXPR ]]``: stats the files it names, nothing else."""
    closing = {"[": "]", "[[": "]]"}.get(reading.invoked)
    if closing:
        if not words or words[-1].text != closing or unknown(words[-1]):
            reading.walk.doubt(f"{reading.invoked} without its closing {closing}")
            return
        words = words[:-1]
    parser = _TestExpression(words, reading)
    parser.expression()
    if parser.pos < len(words):
        parser.doubt(f"cannot read the expression past {words[parser.pos].text}")


READERS: dict[str, Callable[[list[Word], Reading], None]] = {
    "awk-program": awk_programs,
    "awk-input": awk_inputs,
    "sed-script": sed_scripts,
    "jq-filter": jq_filters,
    "test-expression": test_expression,
    "git-arg": git_arguments,
}
