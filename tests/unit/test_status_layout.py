"""The status bar's layout: fields and a width in, the whole fields that fit out."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.text import Text

from mewcode_tui.widgets.status_bar import LINE_2_RANKS, StatusField, fit_line, shorten


def field(name: str, text: str, rank: int, joiner: str = "  ") -> StatusField:
    return StatusField(name, Text(text), rank, Text(joiner))


def line_2(**texts: str) -> list[StatusField]:
    """Line 2's fields in the widget's order, with its ranks and joiners."""
    order = ["model", "phase", "detail", "context", "tokens", "cache", "cost", "elapsed", "cwd"]
    return [
        field(name, texts[name], LINE_2_RANKS[name], " " if name == "detail" else "  ")
        for name in order
        if name in texts
    ]


APPROVAL = line_2(
    model="claude-sonnet-4-5",
    phase="approval",
    detail="rm -rf build/ && make dist &&…",
    context="ctx ▰▰▰▱▱▱▱▱▱▱ 31%",
    tokens="↑18.4k ↓920",
    cache="cache 12.0k",
    cost="$0.0100",
    elapsed="⏱ 42s",
    cwd="~/src/a-project-with-a-long-name",
)


@pytest.mark.parametrize(
    ("width", "shown"),
    [
        (
            200,
            "claude-sonnet-4-5  approval rm -rf build/ && make dist &&…  ctx ▰▰▰▱▱▱▱▱▱▱ 31%  "
            "↑18.4k ↓920  cache 12.0k  $0.0100  ⏱ 42s  ~/src/a-project-with-a-long-name",
        ),
        # 80 columns less the bar's padding: the detail, cache and cwd go, cost and time stay.
        (78, "claude-sonnet-4-5  approval  ctx ▰▰▰▱▱▱▱▱▱▱ 31%  ↑18.4k ↓920  $0.0100  ⏱ 42s"),
        (64, "claude-sonnet-4-5  approval  ctx ▰▰▰▱▱▱▱▱▱▱ 31%  $0.0100  ⏱ 42s"),
        (58, "claude-sonnet-4-5  approval  ctx ▰▰▰▱▱▱▱▱▱▱ 31%  $0.0100"),
        (48, "claude-sonnet-4-5  approval  ctx ▰▰▰▱▱▱▱▱▱▱ 31%"),
        (30, "approval  ctx ▰▰▰▱▱▱▱▱▱▱ 31%"),
        (12, "approval"),
        (7, ""),  # not even the phase fits: nothing, rather than "appro…"
    ],
)
def test_a_narrow_line_drops_whole_fields_worst_ranked_first(width, shown):
    assert fit_line(APPROVAL, width).plain == shown


def test_a_field_that_fits_is_not_left_out_because_of_its_neighbours_joiner():
    fields = line_2(phase="idle", context="ctx 5%", cost="$0.01")
    assert fit_line(fields, len("idle  ctx 5%  $0.01")).plain == "idle  ctx 5%  $0.01"
    assert fit_line(fields, len("idle  ctx 5%  $0.01") - 1).plain == "idle  ctx 5%"


def test_fields_keep_their_styles():
    styled = [StatusField("a", Text("red", style="red"), 0, Text("  "))]
    assert fit_line(styled, 10).spans[0].style == "red"


def test_shorten_cuts_long_text_with_an_ellipsis_within_the_cells():
    assert shorten("git status", 30) == "git status"
    cut = shorten("echo " + "x" * 50, 30)
    assert cut.endswith("…") and len(cut) == 30
    assert shorten("中文" * 20, 9) == "中文中文…"  # wide characters count as two cells


# Field bodies with wide characters, so cells and characters differ; each field is
# written "<i:body>" so the pieces of a line can be read back unambiguously.
bodies = st.text(alphabet=st.sampled_from("ab ▰中$⏱"), min_size=0, max_size=12)
fields_strategy = st.lists(
    st.tuples(bodies, st.integers(0, 5), st.sampled_from([" ", "  ", "  ·  "])), max_size=8
)
PIECE = re.compile(r"<(\d+):[^<>]*>")


def width_of(fields: list[StatusField], shown: list[int]) -> int:
    return sum(fields[i].text.cell_len for i in shown) + sum(
        fields[i].joiner.cell_len for i in sorted(shown)[1:]
    )


@given(fields_strategy, st.integers(0, 80))
def test_no_field_is_cut_and_a_better_field_is_never_dropped_for_a_worse_one(spec, width):
    fields = [
        field(f"f{i}", f"<{i}:{body}>", rank, joiner) for i, (body, rank, joiner) in enumerate(spec)
    ]
    line = fit_line(fields, width).plain
    assert Text(line).cell_len <= width
    shown = [int(m.group(1)) for m in PIECE.finditer(line)]
    # Whole fields only, in their order, joined by their own joiners: nothing else.
    rebuilt = "".join(
        (fields[i].joiner.plain if n else "") + fields[i].text.plain for n, i in enumerate(shown)
    )
    assert shown == sorted(shown) and line == rebuilt
    dropped = [i for i in range(len(fields)) if i not in shown]
    key = {i: (fields[i].rank, i) for i in range(len(fields))}
    for d in dropped:
        assert all(key[s] < key[d] for s in shown), (line, fields[d])
    if dropped:  # and the best dropped field really did not fit
        best = min(dropped, key=key.__getitem__)
        assert width_of(fields, [*shown, best]) > width
