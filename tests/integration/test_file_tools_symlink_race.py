"""The file tools open what they checked: a symlink swapped in meanwhile leads nowhere.

A sandboxed background command keeps swapping a project file between a regular file
and a symlink (to ~/.ssh/id_rsa, which commands cannot read; to ~/.bashrc; to a file
that does not exist in the read-only home). Read, Write and Edit run unsandboxed, 200
times each, through `mewcode -p` in acceptEdits mode (edits need no approval). Not
once may the key reach the model, ~/.bashrc change, or a file appear in the home.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.helpers.headless import headless_in_process

TRIES = 200
PER_ROUND = 20
SECRET = "PRIVATE-KEY-RACE-WITNESS"

# The swapper: regular file, link, regular file, link..., each swap one atomic rename;
# it says it started, and stops when told or after a while.
SWAPPER = """
import os, time
home = os.environ["HOME"]
targets = [home + "/.ssh/id_rsa", home + "/.bashrc", home + "/created-by-race"]
open("swapper-started", "w").close()
end = time.monotonic() + 120
n = 0
while time.monotonic() < end and not os.path.exists("swapper-stop"):
    with open("a.tmp", "w") as fh:
        fh.write("harmless\\n")
    os.rename("a.tmp", "a.txt")
    try:
        os.unlink("a.lnk")
    except OSError:
        pass
    os.symlink(targets[n % 3], "a.lnk")
    os.rename("a.lnk", "a.txt")
    n += 1
"""
WAIT_STARTED = (
    "python3 -c 'import os, time\n"
    "end = time.monotonic() + 30\n"
    'while not os.path.exists("swapper-started") and time.monotonic() < end:\n'
    "    time.sleep(0.01)'"
)


def _round(n: int, calls: list[tuple[str, dict]]) -> dict:
    return {
        "tool_calls": [
            {"id": f"r{n}c{i}", "name": name, "input": data} for i, (name, data) in enumerate(calls)
        ]
    }


def _script(kind: str) -> list[dict]:
    steps = [
        _round(0, [("Bash", {"command": f"python3 -c '{SWAPPER}'", "run_in_background": True})]),
        _round(1, [("Bash", {"command": WAIT_STARTED})]),
    ]
    read = ("Read", {"file_path": "a.txt"})
    write = ("Write", {"file_path": "a.txt", "content": "PWNED\n"})
    edit = ("Edit", {"file_path": "a.txt", "old_string": "harmless", "new_string": "PWNED"})
    rounds = TRIES // (PER_ROUND // 2) if kind != "Read" else TRIES // PER_ROUND
    for n in range(rounds):
        if kind == "Read":
            calls = [read] * PER_ROUND
        else:  # a Read before each edit, so the stamp exists and the edit can get through
            calls = [read, write if kind == "Write" else edit] * (PER_ROUND // 2)
        steps.append(_round(n + 2, calls))
    steps.append(_round(999, [("Bash", {"command": "touch swapper-stop"})]))
    steps.append({"text": "done"})
    return steps


@pytest.fixture
def home() -> Path:
    home = Path(os.environ["HOME"])
    (home / ".ssh").mkdir()
    (home / ".ssh" / "id_rsa").write_text(SECRET + "\n")
    (home / ".bashrc").write_text("harmless\n")
    return home


@pytest.mark.parametrize("kind", ["Read", "Write", "Edit"])
def test_a_symlink_swapped_in_never_leads_the_file_tools_outside(
    kind, backend, own_tmp, fake_llm, project, home, monkeypatch, capsys
) -> None:
    (project / "a.txt").write_text("harmless\n")
    fake_llm.script(_script(kind))
    code, result, err = headless_in_process(
        [
            "-p",
            "go",
            "--permission-mode",
            "acceptEdits",
            "--max-turns",
            "1000",
            "--allowedTools",
            "Bash(python3:*) Bash(touch:*)",
        ],  # fmt: skip
        fake_llm.env("anthropic"),
        project,
        monkeypatch,
        capsys,
    )
    assert code == 0, err
    # Each request ends with the results of the round before: together, every result.
    results = [json.dumps(r.body["messages"][-1]) for r in fake_llm.requests]
    assert not any(SECRET in text for text in results), "the key reached the model"
    assert (home / ".bashrc").read_text() == "harmless\n", "~/.bashrc was written through a link"
    assert not (home / "created-by-race").exists(), "a file was created in the home"
    # The attack raced for real: some calls met the link (refused at the check, or at the
    # open), and some got through to the regular file.
    met_link = sum(
        text.count("changed while it was being opened") + text.count("outside the project")
        for text in results
    )
    assert met_link > 0, "the swapper never raced the tools"
    if kind != "Read":
        assert (project / "a.txt").exists() or (project / "a.txt").is_symlink()
