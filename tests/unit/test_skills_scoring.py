"""Which skills a prompt names (docs/configuration.md#skills): scoring table, CJK n-grams, every budget at its edge."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent_core.skills.buffer import BODY_CHARS, BODY_CUT, bounded_body
from agent_core.skills.index import FOOTER, HEADER, IndexBudget, entry, skills_index
from agent_core.skills.scoring import SkillCard, rank, score, terms

CARDS = [
    SkillCard("commit-message", "Write git commit messages.", ("git",)),
    SkillCard("release", "Cut a release of the package.", ("changelog", "version")),
    SkillCard("code-review", "Review a diff for bugs and write a changelog note."),
    SkillCard("pdf", "Fill in forms in PDF files.", ("forms",)),
    SkillCard("zh-docs", "编写中文技术文档和说明", ("文档",)),
    SkillCard("data-clean", "清洗数据表格中的重复记录"),
]


@pytest.mark.parametrize(
    ("prompt", "expected"),
    [
        # An explicit mention wins over anything the other skills match.
        ("/pdf: write a commit message", ["pdf", "commit-message", "code-review"]),
        ("use code-review on this, then the commit message", ["code-review", "commit-message"]),
        # Name beats tags beats description: 'changelog' is release's tag, code-review's text.
        ("update the changelog", ["release", "code-review"]),
        ("draft a commit", ["commit-message"]),
        ("review my diff", ["code-review"]),
        ("fill these forms", ["pdf"]),  # a tag (pdf) above no match at all
        # A shared prefix of four letters or more matches: "releases" finds "release"..
        ("two releases today", ["release"]),
        # Chinese has no spaces: bigrams and trigrams find the skill.
        ("帮我写一份技术文档", ["zh-docs"]),
        ("请清洗这些重复数据", ["data-clean"]),
        ("what is the weather", []),
        ("", []),
    ],
)
def test_ranking_table(prompt: str, expected: list[str]) -> None:
    assert [c.name for c in rank(CARDS, prompt)] == expected


def test_name_outweighs_any_amount_of_tag_and_description_matching() -> None:
    by_name = SkillCard("deploy", "x")
    by_tags = SkillCard("a", "x", tuple(f"t{i}" for i in range(20)) + ("deploy",))
    by_text = SkillCard("b", " ".join(f"w{i}" for i in range(20)), ("deploy",))
    prompt = "deploy " + " ".join(f"t{i} w{i}" for i in range(20))
    assert [c.name for c in rank([by_tags, by_text, by_name], prompt)] == ["deploy", "a", "b"]
    assert score(by_name, "/deploy") > score(by_tags, prompt)


def test_cjk_terms_are_bigrams_and_trigrams() -> None:
    assert terms("文档写") == {"文档", "档写", "文档写"}
    assert terms("x 字") == {"x", "字"}


def test_a_mention_is_a_whole_name() -> None:
    card = SkillCard("pdf", "nothing")
    assert score(card, "pdfs and stuff") < score(card, "the pdf skill") == score(card, "/pdf")


def test_entry_budget_is_exact() -> None:
    fits = SkillCard("n", "d" * (300 - len("- n: ")))
    assert entry(fits, 300) == f"- n: {fits.description}" and len(entry(fits, 300)) == 300
    over = SkillCard("n", fits.description + "d")
    assert len(entry(over, 300)) == 300 and entry(over, 300).endswith("…")


def test_only_the_top_five_are_listed() -> None:
    cards = [SkillCard(f"s{i}", "d") for i in range(7)]
    index = skills_index(cards)
    assert [ln.split(":")[0] for ln in index.splitlines() if ln.startswith("- ")] == [
        f"- s{i}" for i in range(5)
    ]


def test_index_budget_is_exact_and_entries_are_never_cut_by_it() -> None:
    budget = IndexBudget(top=50, entry_chars=300, index_chars=4_000)
    room = 4_000 - len(HEADER) - len(FOOTER)
    # Entries of 300 characters plus a newline; the last one sized to end exactly at 4 000.
    whole, rest = divmod(room, 301)
    cards = [SkillCard(f"s{i:02d}", "d" * (300 - len("- s00: "))) for i in range(whole)]
    cards.append(SkillCard("last", "d" * (rest - 1 - len("- last: "))))
    assert len(skills_index(cards, budget)) == 4_000
    cards[-1] = SkillCard("last", cards[-1].description + "d")
    index = skills_index(cards, budget)
    assert "- last:" not in index and len(index) == 4_000 - rest
    assert skills_index([]) == ""


def test_default_index_of_five_long_skills_fits() -> None:
    cards = [SkillCard(f"s{i}", "x" * 2_000) for i in range(9)]
    index = skills_index(cards)
    assert index.count("\n- ") == 5 and len(index) <= 4_000


def test_body_budget_is_exact() -> None:
    assert bounded_body("b" * BODY_CHARS) == "b" * BODY_CHARS
    cut = bounded_body("b" * (BODY_CHARS + 1))
    assert len(cut) == BODY_CHARS and cut.endswith(BODY_CUT)


@given(st.text(max_size=200), st.lists(st.text(min_size=1, max_size=40), max_size=5))
def test_scores_never_fail_and_rank_keeps_only_matches(prompt: str, names: list[str]) -> None:
    cards = [SkillCard(f"s{i}", n) for i, n in enumerate(names)]
    ranked = rank(cards, prompt)
    assert all(score(c, prompt) > 0 for c in ranked)
    assert len(skills_index(ranked)) <= 4_000
