"""A syntax-highlighted diff, unified or side by side, built on textual-diff-view.

The runtime hands us unified diffs (``FileDiff.diff``, ``ApprovalRequested.diff``)
while ``DiffView`` wants before/after text. We rebuild both sides from the hunks,
padding the gaps between hunks with blank lines so line numbers stay true, and
give the view the hunk structure as its opcodes so only what the diff holds is
shown. The file's lines and name are shown through ``visible_text``: a file may
hold escape sequences.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.reactive import var
from textual.widget import Widget
from textual.widgets import Static

from agent_core.protocol.diff_counts import DiffCounts, diff_counts
from agent_core.terminal_text import visible_text

if TYPE_CHECKING:
    from textual_diff_view import DiffView

DEFAULT_MAX_LINES = 400
_HUNK_HEADER = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")

Opcode = tuple[str, int, int, int, int]


@dataclass
class Hunk:
    """One ``@@`` block: where it starts on each side and its tagged lines."""

    old_start: int
    old_length: int
    new_start: int
    new_length: int
    lines: list[tuple[str, str]] = field(default_factory=list)  # (" "|"-"|"+", text)


@dataclass
class ParsedDiff:
    """Hunks of a unified diff, possibly cut short at ``max_lines`` body lines."""

    hunks: list[Hunk]
    shown_lines: int
    total_lines: int

    @property
    def hidden_lines(self) -> int:
        return self.total_lines - self.shown_lines


def parse_unified_diff(text: str, max_lines: int = DEFAULT_MAX_LINES) -> ParsedDiff:
    """Read the hunks of a unified diff; body lines past ``max_lines`` are counted, not kept."""
    hunks: list[Hunk] = []
    shown = total = 0
    current: Hunk | None = None
    old_left = new_left = 0
    for line in text.splitlines():
        if current is not None and (old_left > 0 or new_left > 0):
            tag, body = (line[:1] or " "), line[1:]
            if tag == "\\":  # "\ No newline at end of file"
                continue
            if tag not in " -+":
                current = None  # malformed: the hunk ended early
            else:
                old_left -= tag in " -"
                new_left -= tag in " +"
                total += 1
                if shown < max_lines:
                    current.lines.append((tag, body))
                    shown += 1
                continue
        match = _HUNK_HEADER.match(line)
        if match:
            old_len = int(match.group(2) if match.group(2) is not None else 1)
            new_len = int(match.group(4) if match.group(4) is not None else 1)
            current = Hunk(int(match.group(1)), old_len, int(match.group(3)), new_len)
            old_left, new_left = old_len, new_len
            hunks.append(current)
    return ParsedDiff([h for h in hunks if h.lines], shown, total)


@dataclass
class HunkSides:
    """One hunk split into its before and after lines, placed at 0-based file offsets."""

    old_at: int
    new_at: int
    before: list[str]
    after: list[str]
    opcodes: list[Opcode]  # indices into whole-file line lists, as difflib groups them


def split_hunks(hunks: list[Hunk]) -> list[HunkSides]:
    """Before/after lines and opcodes per hunk, keeping true line numbers."""
    sides: list[HunkSides] = []
    old_end = new_end = 0
    for hunk in hunks:
        # A zero-length side names the line *after which* the hunk applies; a
        # malformed hunk that overlaps the previous one is pushed past it.
        old_at = max(old_end, hunk.old_start - 1 if hunk.old_length else hunk.old_start)
        new_at = max(new_end, hunk.new_start - 1 if hunk.new_length else hunk.new_start)
        side = HunkSides(old_at, new_at, [], [], [])
        lines = hunk.lines
        index = 0
        while index < len(lines):
            i, j = old_at + len(side.before), new_at + len(side.after)
            if lines[index][0] == " ":
                while index < len(lines) and lines[index][0] == " ":
                    side.before.append(lines[index][1])
                    side.after.append(lines[index][1])
                    index += 1
                kind = "equal"
            else:
                while index < len(lines) and lines[index][0] != " ":
                    tag, text = lines[index]
                    (side.before if tag == "-" else side.after).append(text)
                    index += 1
                removed = old_at + len(side.before) > i
                added = new_at + len(side.after) > j
                kind = "replace" if removed and added else ("delete" if removed else "insert")
            side.opcodes.append((kind, i, old_at + len(side.before), j, new_at + len(side.after)))
        old_end, new_end = old_at + len(side.before), new_at + len(side.after)
        sides.append(side)
    return sides


def unified_diff_of(before: str, after: str, path: str) -> str:
    """A unified diff of two texts, for callers that hold whole files."""
    lines = difflib.unified_diff(
        before.splitlines(), after.splitlines(), f"a/{path}", f"b/{path}", lineterm=""
    )
    return "\n".join(lines)


@cache
def _hunk_diff_view_class() -> type[DiffView]:
    """``DiffView`` that shows our hunks instead of re-diffing (imported lazily).

    Only hunk lines are highlighted; the rest of each side is one shared empty
    line, so a hunk at line 200 000 costs no more than one at line 1. Its title
    counts the whole diff (``diff_counts``), not the part of it shown.
    """
    from textual import highlight
    from textual.content import Content
    from textual_diff_view import DiffView

    class HunkDiffView(DiffView):
        def __init__(
            self, sides: list[HunkSides], path: str, counts: DiffCounts, **kwargs: Any
        ) -> None:
            super().__init__(path, path, "", "", **kwargs)
            self._sides = sides
            self._groups = [side.opcodes for side in sides]
            self._counts = counts

        @property
        def counts(self) -> tuple[int, int]:
            return self._counts

        @property
        def grouped_opcodes(self) -> list[list[Opcode]]:
            return self._groups

        @property
        def highlighted_code_lines(self) -> tuple[list[Content], list[Content]]:
            if self._highlighted_code_lines is None:
                self._highlighted_code_lines = self._highlight_hunks()
            return self._highlighted_code_lines

        def _highlight_hunks(self) -> tuple[list[Content], list[Content]]:
            theme = self.app.current_theme
            sample = "\n".join(line for side in self._sides for line in side.after)
            language = highlight.guess_language(sample, self.path_modified)
            last = self._sides[-1] if self._sides else HunkSides(0, 0, [], [], [])
            empty = Content("")
            lines_a = [empty] * (last.old_at + len(last.before))
            lines_b = [empty] * (last.new_at + len(last.after))
            for side in self._sides:
                for at, text, target in (
                    (side.old_at, side.before, lines_a),
                    (side.new_at, side.after, lines_b),
                ):
                    if text:
                        code = self.highlight(
                            "\n".join(text),
                            self.path_modified,
                            language,
                            ansi=getattr(theme, "ansi", False),
                            dark=theme.dark,
                        )
                        target[at : at + len(text)] = code.split("\n")
            added = self.get_visual_style("diff-view--inline-added")
            removed = self.get_visual_style("diff-view--inline-removed")
            for group in self._groups:
                for tag, i1, i2, j1, j2 in group:
                    # Character-level marks only where lines pair up one to one.
                    if tag == "replace" and i2 - i1 == j2 - j1:
                        lines_a[i1:i2], lines_b[j1:j2] = self._highlight_diff_lines(
                            lines_a[i1:i2], lines_b[j1:j2], added, removed
                        )
            return lines_a, lines_b

    return HunkDiffView


class DiffPanel(Widget):
    """A bounded, syntax-highlighted diff of one file; ``split`` switches the layout."""

    DEFAULT_CSS = """
    DiffPanel {
        height: auto;
        width: 1fr;
    }
    DiffPanel > .diff-panel--note {
        color: $text-warning;
        padding: 0 1;
    }
    DiffPanel > .diff-panel--empty {
        color: $text-muted;
        padding: 0 1;
    }
    """

    split: var[bool] = var(False)

    def __init__(
        self,
        unified_diff: str,
        path: str | None,
        split: bool = False,
        *,
        max_lines: int = DEFAULT_MAX_LINES,
        wrap: bool = False,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.path = visible_text(path or "file")
        self.counts = diff_counts(unified_diff)  # of the whole diff, however much is shown
        self.parsed = parse_unified_diff(unified_diff, max_lines)
        for hunk in self.parsed.hunks:  # lines hold no newline: keep their tabs
            hunk.lines = [(tag, visible_text(body, multiline=True)) for tag, body in hunk.lines]
        self._wrap = wrap
        self.set_reactive(DiffPanel.split, split)

    @classmethod
    def from_texts(cls, before: str, after: str, path: str, split: bool = False) -> DiffPanel:
        """A panel for two whole texts rather than a unified diff."""
        return cls(unified_diff_of(before, after, path), path, split)

    @property
    def added(self) -> int:
        return self.counts.added

    @property
    def removed(self) -> int:
        return self.counts.removed

    def compose(self) -> ComposeResult:
        if not self.parsed.hunks:
            yield Static(f"{self.path}: no changes to show", classes="diff-panel--empty")
            return
        view_class = _hunk_diff_view_class()
        yield view_class(
            split_hunks(self.parsed.hunks),
            self.path,
            self.counts,
            split=self.split,
            annotations=True,
            wrap=self._wrap,
        )
        if self.parsed.hidden_lines:
            yield Static(
                f"… {self.parsed.hidden_lines:,} more diff lines not shown",
                classes="diff-panel--note",
            )

    def watch_split(self, split: bool) -> None:
        for view in self.query(_hunk_diff_view_class()):
            view.split = split

    def toggle_split(self) -> None:
        """Switch between unified and side-by-side layouts."""
        self.split = not self.split
