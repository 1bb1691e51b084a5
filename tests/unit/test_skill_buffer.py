"""The next-round buffer of loaded skill bodies (docs/configuration.md#skills): the 3 most recent, taken once."""

from __future__ import annotations

from pathlib import Path

from agent_core.skills.buffer import LoadedSkill, SkillBuffer


def loaded(name: str) -> LoadedSkill:
    return LoadedSkill(name, Path(f"/skills/{name}"), f"body of {name}")


def test_keeps_the_three_most_recent_oldest_first() -> None:
    buffer = SkillBuffer()
    for name in ("a", "b", "c", "d"):
        buffer.add(loaded(name))
    assert [s.name for s in buffer.pending()] == ["b", "c", "d"]
    blocks = buffer.take_blocks()
    assert [b.text.split('"')[1] for b in blocks] == ["b", "c", "d"]
    assert "body of d" in blocks[-1].text and "/skills/d" in blocks[-1].text


def test_taking_empties_it() -> None:
    buffer = SkillBuffer()
    buffer.add(loaded("a"))
    assert len(buffer.take_blocks()) == 1
    assert buffer.take_blocks() == [] and buffer.pending() == []


def test_loading_again_moves_a_skill_to_the_newest_place_once() -> None:
    buffer = SkillBuffer()
    for name in ("a", "b", "c", "a", "d"):
        buffer.add(loaded(name))
    assert [s.name for s in buffer.pending()] == ["c", "a", "d"]
