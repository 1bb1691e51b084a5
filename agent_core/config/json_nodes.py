"""JSON text as YAML nodes with line marks, so Claude Code's settings.json files go
through the same entry-by-entry checks as our YAML files.

JSON is not fed to the YAML parser: YAML 1.1 reads valid JSON differently (a tab
before a key is an error, ``1e5`` is text, ``"<<"`` is a merge key). The text is
checked by Python's strict JSON parser (exact JSON, with its line and column on an
error), then walked once more to build nodes whose values mean what JSON says.
Duplicate keys are kept as pairs: the reader reports them.
"""

from __future__ import annotations

import json
import re
from json.decoder import scanstring  # type: ignore[attr-defined]
from json.scanner import NUMBER_RE
from typing import Any

_WS = re.compile(r"[ \t\n\r]*")
_STR = "tag:yaml.org,2002:str"
_CONSTANTS = {"true": "tag:yaml.org,2002:bool", "false": "tag:yaml.org,2002:bool"}


class JsonSyntaxError(ValueError):
    """Not JSON: where (1-based line and column) and why."""

    def __init__(self, line: int, column: int, reason: str) -> None:
        super().__init__(f"line {line}:{column}: {reason}")
        self.line = line
        self.column = column
        self.reason = reason


def compose_json(text: str) -> Any:
    """The root node of a JSON document; raises JsonSyntaxError."""
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        raise JsonSyntaxError(exc.lineno, exc.colno, exc.msg) from None
    except RecursionError:
        raise JsonSyntaxError(1, 1, "nested too deeply") from None
    composer = _Composer(text)
    try:
        node, _ = composer.node(composer.ws(0))
    except RecursionError:
        raise JsonSyntaxError(1, 1, "nested too deeply") from None
    return node


class _Composer:
    """Builds nodes from text the strict parser accepted (so no syntax checks but NaN's)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def mark(self, pos: int) -> Any:
        from yaml.error import Mark

        line = self.text.count("\n", 0, pos)
        column = pos - (self.text.rfind("\n", 0, pos) + 1)
        return Mark("json", pos, line, column, None, None)  # type: ignore[arg-type]

    def ws(self, pos: int) -> int:
        match = _WS.match(self.text, pos)
        return match.end() if match else pos

    def node(self, pos: int) -> tuple[Any, int]:
        from yaml.nodes import MappingNode, ScalarNode, SequenceNode

        text = self.text
        char = text[pos]
        if char == "{":
            pairs: list[tuple[Any, Any]] = []
            end = self._items(pos, "}", lambda p: self._pair(p, pairs))
            return MappingNode("tag:yaml.org,2002:map", pairs, self.mark(pos), self.mark(end)), end
        if char == "[":
            items: list[Any] = []
            end = self._items(pos, "]", lambda p: self._item(p, items))
            return SequenceNode("tag:yaml.org,2002:seq", items, self.mark(pos), self.mark(end)), end
        if char == '"':
            value, end = scanstring(text, pos + 1)
            return ScalarNode(_STR, value, self.mark(pos), self.mark(end)), end
        for word in ("true", "false", "null"):
            if text.startswith(word, pos):
                tag = _CONSTANTS.get(word, "tag:yaml.org,2002:null")
                end = pos + len(word)
                return ScalarNode(tag, word, self.mark(pos), self.mark(end)), end
        number = NUMBER_RE.match(text, pos)
        if number is None:  # NaN, Infinity: Python reads them, JSON has no such values
            line = text.count("\n", 0, pos) + 1
            column = pos - text.rfind("\n", 0, pos)
            raise JsonSyntaxError(line, column, "NaN and Infinity are not JSON numbers")
        _, fraction, exponent = number.groups()
        tag = "tag:yaml.org,2002:float" if fraction or exponent else "tag:yaml.org,2002:int"
        end = number.end()
        return ScalarNode(tag, number.group(0), self.mark(pos), self.mark(end)), end

    def _items(self, pos: int, close: str, one: Any) -> int:
        pos = self.ws(pos + 1)
        if self.text[pos] == close:
            return pos + 1
        while True:
            pos = self.ws(one(pos))
            if self.text[pos] == close:
                return pos + 1
            pos = self.ws(pos + 1)  # the comma

    def _pair(self, pos: int, pairs: list[tuple[Any, Any]]) -> int:
        key, end = self.node(pos)
        value, end = self.node(self.ws(self.ws(end) + 1))  # past the colon
        pairs.append((key, value))
        return end

    def _item(self, pos: int, items: list[Any]) -> int:
        value, end = self.node(pos)
        items.append(value)
        return end
