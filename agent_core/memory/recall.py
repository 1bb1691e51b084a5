"""Long-term memory decisions (docs/configuration.md#long-term-memory): normalising, hashing, tokenising, scoring, eviction, TTL.

Pure: facts and the clock come in as data, rankings and orders come out. The
SQLite adapter (``store.py``) and the per-project view (``long_term.py``) do the I/O.
"""

from __future__ import annotations

import functools
import hashlib
import math
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

DAY = 86_400.0

# Common English words that carry no topic: "which port is the db on" matches on port and db.
STOP_WORDS = frozenset(
    """a about after all also am an and any are as at be because been before being but by
    can could did do does doing done for from had has have having he her here hers him his how
    i if in into is it its itself just let me my myself no not now of off on once only or other
    our ours out over please remember same she should so some such than that the their them
    then there these they this those through to too under until up us very was we were what
    when where which while who whom why will with would you your yours""".split()
)

# Chinese function characters: an n-gram made only of them ("怎么", "吗") names no topic.
CJK_STOP_CHARS = frozenset("的了是在我你他她它们这那吗呢吧啊么怎什哪请把被和与或也都就个")

# Han, kana, Hangul: text with no spaces between words, matched by character n-grams.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_TOKEN = re.compile(rf"[{_CJK}]+|[^\W_{_CJK}]+")
_CJK_RUN = re.compile(rf"[{_CJK}]+")
_TRAILING_PUNCT = re.compile(r"[\s\.,;:!?…。，、；：！？]+$")


def normalise(text: str) -> str:
    """The form two facts share when they say the same thing: NFKC, casefolded, spaces
    collapsed, trailing punctuation dropped."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return _TRAILING_PUNCT.sub("", " ".join(folded.split()))


def content_hash(text: str) -> str:
    """sha256 of the normalised text: one row per hash and scope."""
    return hashlib.sha256(normalise(text).encode("utf-8")).hexdigest()


def _stem(word: str) -> str:
    # "ports" and "port" are one topic; "class" and "status" keep their s.
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def tokens(text: str) -> frozenset[str]:
    """Topic tokens: Latin words without stop-words, CJK runs as bigrams and trigrams."""
    out: set[str] = set()
    for run in _TOKEN.findall(normalise(text)):
        if _CJK_RUN.fullmatch(run):
            grams = {run} if len(run) == 1 else set()
            for n in (2, 3):
                grams.update(run[i : i + n] for i in range(len(run) - n + 1))
            out.update(g for g in grams if not CJK_STOP_CHARS.issuperset(g))
        elif run not in STOP_WORDS and (len(run) > 1 or run.isdigit()):
            out.add(_stem(run))
    return frozenset(out)


class Fact(NamedTuple):
    """One remembered fact as recall sees it (a tuple: a thousand are built per prompt)."""

    id: int
    scope: str  # "global" or a project key
    content: str
    importance: float = 0.5
    confidence: float = 1.0
    access_count: int = 0
    created_at: float = 0.0
    last_access_at: float | None = None
    expires_at: float | None = None


@dataclass(frozen=True)
class RecallWeights:
    """How recall ranks: what is relevant enough, and how much age and use count."""

    threshold: float = 0.2  # below this a fact is not offered (one shared word rarely is)
    limit: int = 6
    half_life_days: float = 90.0  # freshness halves (towards its floor) every this many days
    freshness_floor: float = 0.5  # an old fact still counts half
    access_weight: float = 0.1  # per natural-log unit of recalls


@functools.lru_cache(maxsize=4096)
def fact_tokens(content: str) -> frozenset[str]:
    """``tokens`` of a stored fact, kept: the same facts are scored on every prompt."""
    return tokens(content)


def overlap(query: frozenset[str], fact: frozenset[str]) -> float:
    """Shared tokens over the geometric mean of both sizes (0..1): a long fact that
    happens to share one word with a short prompt scores low."""
    if not query or not fact:
        return 0.0
    return len(query & fact) / math.sqrt(len(query) * len(fact))


def score(query: frozenset[str], fact: Fact, now: float, w: RecallWeights) -> float:
    """Lexical overlap weighted by importance, freshness and how often the fact was recalled."""
    lexical = overlap(query, fact_tokens(fact.content))
    if lexical == 0.0:
        return 0.0
    importance = 0.5 + 0.5 * min(max(fact.importance, 0.0), 1.0)
    age_days = max(now - fact.created_at, 0.0) / DAY
    decay = 0.5 ** (age_days / w.half_life_days)
    freshness = w.freshness_floor + (1.0 - w.freshness_floor) * decay
    use = 1.0 + w.access_weight * math.log1p(max(fact.access_count, 0))
    return lexical * importance * freshness * use


def is_expired(fact: Fact, now: float) -> bool:
    return fact.expires_at is not None and fact.expires_at <= now


def recall(prompt: str, facts: Iterable[Fact], now: float, w: RecallWeights) -> list[Fact]:
    """The best ``w.limit`` unexpired facts scoring at least ``w.threshold``, best first."""
    query = tokens(prompt)
    scored = [(score(query, f, now, w), f) for f in facts if not is_expired(f, now)]
    ranked = sorted((p for p in scored if p[0] >= w.threshold), key=lambda p: (-p[0], -p[1].id))
    return [f for _, f in ranked[: w.limit]]


def search(text: str, facts: Iterable[Fact], now: float, w: RecallWeights) -> list[Fact]:
    """Facts matching ``text`` at all (a shared token or a substring), best first."""
    query, needle = tokens(text), normalise(text)
    hits: list[tuple[float, Fact]] = []
    for fact in facts:
        if is_expired(fact, now):
            continue
        value = score(query, fact, now, w) + (
            1.0 if needle and needle in normalise(fact.content) else 0.0
        )
        if value > 0.0:
            hits.append((value, fact))
    return [f for _, f in sorted(hits, key=lambda p: (-p[0], -p[1].id))]


def eviction_order(facts: Sequence[Fact]) -> list[Fact]:
    """Who goes first over the cap: lowest importance, then confidence, then access count;
    among equals the oldest."""
    return sorted(
        facts, key=lambda f: (f.importance, f.confidence, f.access_count, f.created_at, f.id)
    )


def to_evict(facts: Sequence[Fact], cap: int, keep: int | None = None) -> list[int]:
    """Ids to delete so at most ``cap`` remain; ``keep`` (the fact just added) is never chosen."""
    excess = len(facts) - cap
    if excess <= 0:
        return []
    order = [f.id for f in eviction_order(facts) if f.id != keep]
    return order[:excess]


_TTL = re.compile(r"(\d+)\s*([smhdw])")
_UNIT = {"s": 1, "m": 60, "h": 3_600, "d": 86_400, "w": 604_800}


def parse_ttl(text: str) -> int:
    """'90s', '30m', '12h', '7d', '2w' -> seconds; ValueError naming the problem."""
    match = _TTL.fullmatch(text.strip().lower())
    if not match or int(match[1]) == 0:
        raise ValueError(
            f"ttl {text!r}: expected a positive number and a unit s, m, h, d or w (e.g. 12h, 7d)"
        )
    return int(match[1]) * _UNIT[match[2]]
