"""How well each skill fits a prompt (pure): explicit mention, then name > tags > description.

Latin text is matched by words (a shared prefix of four letters or more counts:
"tests" finds "testing"); Chinese and Japanese text, which has no spaces, by
character bigrams and trigrams.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

EXPLICIT = 10_000  # "/name" or the name itself in the prompt: always first
NAME_WEIGHT = 100
TAG_WEIGHT = 10
DESCRIPTION_WEIGHT = 1
# Hits in a lower field are capped so they never add up to one hit in a higher field.
_FIELD_CAP = 9
_PREFIX_MIN = 4

_WORD = re.compile(r"[a-z0-9]+")
_CJK_RUN = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+")
_STOPWORDS = frozenset(
    "a an and are as at be by can do for from how i in is it me my of on or our please "
    "so that the this to use using we what when with you your".split()
)


@dataclass(frozen=True)
class SkillCard:
    """What scoring and the index see of a skill."""

    name: str
    description: str
    tags: tuple[str, ...] = ()


def terms(text: str) -> set[str]:
    """Words (without stopwords) and CJK bigrams and trigrams of ``text``, lower-cased."""
    lowered = text.lower()
    found = {w for w in _WORD.findall(lowered) if w not in _STOPWORDS}
    for run in _CJK_RUN.findall(lowered):
        if len(run) == 1:
            found.add(run)
        for size in (2, 3):
            found.update(run[i : i + size] for i in range(len(run) - size + 1))
    return found


def _matches(prompt_term: str, field_term: str) -> bool:
    if prompt_term == field_term:
        return True
    short, long = sorted((prompt_term, field_term), key=len)
    return short.isascii() and len(short) >= _PREFIX_MIN and long.startswith(short)


def _hits(prompt_terms: set[str], field_terms: set[str]) -> int:
    """How many of the prompt's terms the field has."""
    return sum(1 for p in prompt_terms if any(_matches(p, f) for f in field_terms))


def mentions(prompt: str, name: str) -> bool:
    """``/name`` or the whole name as a word in the prompt."""
    pattern = rf"(?<![a-z0-9-]){re.escape(name)}(?![a-z0-9-])"
    return re.search(pattern, prompt.lower()) is not None


def score(card: SkillCard, prompt: str) -> int:
    """0 when nothing matches; an explicit mention outranks any amount of matching."""
    prompt_terms = terms(prompt)
    name_hits = _hits(prompt_terms, terms(card.name.replace("-", " ")))
    tag_hits = _hits(prompt_terms, terms(" ".join(card.tags)))
    description_hits = _hits(prompt_terms, terms(card.description))
    return (
        (EXPLICIT if mentions(prompt, card.name) else 0)
        + NAME_WEIGHT * name_hits
        + TAG_WEIGHT * min(tag_hits, _FIELD_CAP)
        + DESCRIPTION_WEIGHT * min(description_hits, _FIELD_CAP)
    )


def rank(cards: Iterable[SkillCard], prompt: str) -> list[SkillCard]:
    """The cards that match at all, best first (ties by name, so the order is stable)."""
    scored = [(score(card, prompt), card) for card in cards]
    return [card for s, card in sorted(scored, key=lambda x: (-x[0], x[1].name)) if s > 0]
