"""OutputCapture: bounded head + tail, byte-exact spill file, split characters, unwritable spill."""

from __future__ import annotations

from pathlib import Path

from agent_core.tools.capture import OutputCapture, spill_path


def test_small_output_is_kept_whole_without_a_file(tmp_path: Path) -> None:
    cap = OutputCapture(1000, tmp_path / "out.txt")
    cap.feed(b"hello ")
    cap.feed(b"world")
    cap.finish()
    assert cap.text() == "hello world"
    assert not cap.spilled and not (tmp_path / "out.txt").exists()


def test_character_split_across_chunks_is_decoded(tmp_path: Path) -> None:
    cap = OutputCapture(1000, tmp_path / "out.txt")
    data = "héllo → ok".encode()
    for i in range(len(data)):
        cap.feed(data[i : i + 1])
    cap.finish()
    assert cap.text() == "héllo → ok"
    assert cap.total_chars == len("héllo → ok")


def test_large_output_keeps_head_and_tail_and_spills_everything(tmp_path: Path) -> None:
    target = tmp_path / "deep" / "out.txt"
    cap = OutputCapture(1000, target)
    lines = [f"line {i:05d}\n".encode() for i in range(5000)]
    for line in lines:
        cap.feed(line)
    cap.finish()
    text = cap.text()
    assert text.startswith("line 00000\n")
    assert text.endswith("line 04999\n")
    assert len(text) < 1300
    assert f"full output ({5000 * 11} chars) saved to {target}" in text
    assert target.read_bytes() == b"".join(lines)


def test_unwritable_spill_still_gives_head_and_tail(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    cap = OutputCapture(200, blocker / "out.txt")
    cap.feed(b"A" * 150 + b"B" * 500 + b"C" * 150)
    cap.finish()
    text = cap.text()
    assert text.startswith("A" * 80) and text.endswith("C" * 120)
    assert "could not be saved" in text


def test_spill_names_are_safe_and_distinct(tmp_path: Path) -> None:
    assert spill_path(tmp_path, "toolu_01").name == "bash-toolu_01.txt"
    odd = spill_path(tmp_path, "../../etc/x")
    assert odd.parent == tmp_path / "tool-results"
    assert "/" not in odd.name and odd.name.startswith("bash-")
