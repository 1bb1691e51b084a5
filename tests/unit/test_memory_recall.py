"""Long-term memory decisions (docs/configuration.md#long-term-memory): normalising, ranking, threshold, weights, eviction, TTL."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent_core.memory.recall import (
    DAY,
    Fact,
    RecallWeights,
    content_hash,
    eviction_order,
    is_expired,
    normalise,
    parse_ttl,
    recall,
    score,
    search,
    to_evict,
    tokens,
)

NOW = 1_800_000_000.0
W = RecallWeights()


def fact(i: int, content: str, **kw) -> Fact:
    return Fact(id=i, scope="p", content=content, created_at=kw.pop("created_at", NOW), **kw)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("The staging DB is on port 5433.", "the staging db is on port 5433"),
        ("Use  tabs\tnot\nspaces!", "use tabs not spaces"),
        ("ＡＰＩ key lives in vault…", "api key lives in vault"),  # NFKC: full-width letters
        ("预发布数据库端口是5433。", "预发布数据库端口是5433"),
        ("Straße", "STRASSE"),  # casefold, not lower
    ],
)
def test_equal_facts_share_a_hash(a: str, b: str) -> None:
    assert normalise(a) == normalise(b)
    assert content_hash(a) == content_hash(b)


def test_different_facts_differ() -> None:
    assert content_hash("port 5433") != content_hash("port 5432")
    assert content_hash("don't use tabs") != content_hash("use tabs")


def test_tokens_drop_stop_words_and_split_cjk_into_bigrams_and_trigrams() -> None:
    assert tokens("Which port is the staging DB on?") == {"port", "staging", "db"}
    assert tokens("数据库端口") == {"数据", "据库", "库端", "端口", "数据库", "据库端", "库端口"}
    assert tokens("用 vim 5433") == {"用", "vim", "5433"}
    assert tokens("ports") == tokens("port")


FACTS = [
    fact(1, "The staging DB is on port 5433"),
    fact(2, "Always run the tests with pytest -x before committing"),
    fact(3, "The user prefers tabs over spaces in Go files"),
    fact(4, "预发布环境的数据库端口是5433"),
    fact(5, "部署脚本在 scripts/deploy.sh，需要先登录 VPN"),
    fact(6, "Production DB is read-only for the team"),
]


@pytest.mark.parametrize(
    ("prompt", "first"),
    [
        ("which port is the staging db on", 1),
        ("connect to the staging database port", 1),
        ("how do I run the tests before a commit", 2),
        ("tabs or spaces in this Go file?", 3),
        ("预发布数据库的端口是多少", 4),
        ("怎么部署？需要VPN吗", 5),
        ("can I write to the production db", 6),
    ],
)
def test_the_relevant_fact_ranks_first(prompt: str, first: int) -> None:
    chosen = recall(prompt, FACTS, NOW, W)
    assert chosen and chosen[0].id == first


@pytest.mark.parametrize(
    "prompt", ["write a haiku about autumn", "你好", "", "refactor the parser into two files"]
)
def test_an_unrelated_prompt_recalls_nothing(prompt: str) -> None:
    assert recall(prompt, FACTS, NOW, W) == []


def test_at_most_limit_facts_above_the_threshold() -> None:
    many = [fact(i, f"deploy note {i}: the deploy runs from CI") for i in range(10)]
    chosen = recall("how does the deploy run", many, NOW, W)
    assert len(chosen) == 6
    assert recall("how does the deploy run", many, NOW, RecallWeights(threshold=0.99)) == []


def test_a_fact_just_below_the_threshold_is_left_out() -> None:
    f = fact(1, "staging db port 5433")
    value = score(tokens("staging db"), f, NOW, W)
    assert recall("staging db", [f], NOW, RecallWeights(threshold=value)) == [f]
    assert recall("staging db", [f], NOW, RecallWeights(threshold=value + 1e-9)) == []


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        (dict(importance=0.9), dict(importance=0.1)),
        (dict(created_at=NOW - DAY), dict(created_at=NOW - 400 * DAY)),
        (dict(access_count=20), dict(access_count=0)),
    ],
)
def test_weights_order_equal_matches(better: dict, worse: dict) -> None:
    a, b = fact(1, "staging db port 5433", **better), fact(2, "staging db port 5433", **worse)
    query = tokens("staging db port")
    assert score(query, a, NOW, W) > score(query, b, NOW, W)
    assert recall("staging db port", [b, a], NOW, W)[0] is a


def test_an_old_fact_still_counts_at_the_freshness_floor() -> None:
    query = tokens("staging db port")
    new, ancient = fact(1, "staging db port"), fact(2, "staging db port", created_at=0.0)
    assert score(query, ancient, NOW, W) == pytest.approx(score(query, new, NOW, W) * 0.5, rel=1e-3)


def test_expired_facts_are_never_recalled_or_found() -> None:
    gone = fact(1, "staging db port 5433", expires_at=NOW)
    alive = fact(2, "staging db port 5433 today", expires_at=NOW + 1)
    assert is_expired(gone, NOW) and not is_expired(alive, NOW)
    assert recall("staging db port", [gone, alive], NOW, W) == [alive]
    assert search("5433", [gone, alive], NOW, W) == [alive]


def test_search_finds_substrings_that_are_not_tokens() -> None:
    f = fact(1, "Deploy with scripts/deploy.sh --prod")
    assert search("sh --pro", [f], NOW, W) == [f]
    assert search("kubernetes", [f], NOW, W) == []


def f_(i: int, imp: float, conf: float, acc: int, age: float = 0.0) -> Fact:
    return fact(
        i, f"fact {i}", importance=imp, confidence=conf, access_count=acc, created_at=NOW - age
    )


@pytest.mark.parametrize(
    ("facts", "order"),
    [
        # importance first, whatever the rest says
        ([f_(1, 0.9, 0.1, 0), f_(2, 0.1, 1.0, 99)], [2, 1]),
        # then confidence
        ([f_(1, 0.5, 0.9, 0), f_(2, 0.5, 0.2, 99)], [2, 1]),
        # then access count
        ([f_(1, 0.5, 1.0, 7), f_(2, 0.5, 1.0, 3)], [2, 1]),
        # then the oldest
        ([f_(1, 0.5, 1.0, 0, age=10), f_(2, 0.5, 1.0, 0, age=99)], [2, 1]),
    ],
)
def test_eviction_order(facts: list[Fact], order: list[int]) -> None:
    assert [f.id for f in eviction_order(facts)] == order


def test_to_evict_brings_the_count_to_the_cap_and_spares_the_new_fact() -> None:
    rows = [f_(1, 0.1, 1.0, 0), f_(2, 0.2, 1.0, 0), f_(3, 0.9, 1.0, 0), f_(4, 0.0, 1.0, 0)]
    assert to_evict(rows, cap=4) == []
    assert to_evict(rows, cap=2) == [4, 1]
    assert to_evict(rows, cap=2, keep=4) == [1, 2]


@given(
    st.lists(
        st.tuples(st.floats(0, 1), st.floats(0, 1), st.integers(0, 50), st.floats(0, 1e6)),
        max_size=30,
    ),
    st.integers(0, 30),
)
def test_to_evict_keeps_exactly_the_cap_and_never_a_better_fact(raw, cap: int) -> None:
    rows = [f_(i, *r[:3], age=r[3]) for i, r in enumerate(raw)]
    doomed = set(to_evict(rows, cap))
    kept = [f for f in rows if f.id not in doomed]
    assert len(kept) == min(len(rows), cap)
    key = lambda f: (f.importance, f.confidence, f.access_count, f.created_at, f.id)  # noqa: E731
    if doomed and kept:
        assert max(key(f) for f in rows if f.id in doomed) < min(key(f) for f in kept)


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("90s", 90),
        ("30m", 1_800),
        ("12h", 43_200),
        ("7d", 604_800),
        ("2w", 1_209_600),
        (" 1D ", 86_400),
    ],
)
def test_parse_ttl(text: str, seconds: int) -> None:
    assert parse_ttl(text) == seconds


@pytest.mark.parametrize("text", ["", "7", "d", "0d", "-1d", "1.5h", "7 days", "1y", "1d2h"])
def test_parse_ttl_rejects_with_the_value_named(text: str) -> None:
    with pytest.raises(ValueError, match=r"ttl .*s, m, h, d or w"):
        parse_ttl(text)
