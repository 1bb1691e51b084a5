"""Attack: a sandboxed background command swaps project files for symlinks while the file
tools (which run outside the OS sandbox) check and then open them.

The scripted model starts ``python3 race.py`` in the background (sandboxed): it swaps
project files, as fast as it can, between a regular file (or directory) and a symlink to
``~/.ssh/id_rsa`` (hidden from commands), ``~/.bashrc`` (read-only to commands) and a
path in the home directory that does not exist. Meanwhile the model calls Read, Write,
Edit (acceptEdits: they run without asking), Grep, Glob and LS on those files, over
many rounds. The witnesses: the secret marker never reaches the model, ``.bashrc`` is
unchanged and nothing is created in the home directory. Each test also checks that the
race really raced: the loop kept swapping while the calls ran, and the permission check
saw both states.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.fakellm.server import FakeLLMServer
from tests.helpers.headless import headless_in_process, processes_with

SECRET = "SSH-KEY-WITNESS-4b1d"
BASHRC = "# the user's bashrc\nPLACEHOLDER\n"
PLANTED = "PWNED-WITNESS"
REGULAR = "PLACEHOLDER\n"
ROUNDS = 20  # of Reads, Writes and Edits: 10 + 10 + 10 a round
SEARCH_ROUNDS = 6  # of Grep (file, directory, project), Glob and LS: 4 of each a round
# What the race loop swaps: project name -> where its symlink points (under HOME).
FILE_LINKS = {"leak.txt": ".ssh/id_rsa", "rc.txt": ".bashrc", "new.txt": "planted.txt"}
DIR_LINKS = {"keys": ".ssh"}

_RACE = """\
import os
files = {files}
dirs = {dirs}
for name in files:
    open(name + ".keep", "w").write({regular!r})
for name in dirs:
    os.makedirs(name + ".keep", exist_ok=True)
    open(os.path.join(name + ".keep", "notes.txt"), "w").write({regular!r})
swaps = 0
while True:
    for name, target in files.items():  # regular: the same inode each time (a hard link)
        os.link(name + ".keep", name + ".reg")
        os.replace(name + ".reg", name)
    for name in dirs:
        os.rename(name + ".keep", name)
    for name, target in files.items():
        os.symlink(target, name + ".lnk")
        os.replace(name + ".lnk", name)
    for name, target in dirs.items():
        os.rename(name, name + ".keep")
        os.symlink(target, name)
    for name in dirs:
        os.unlink(name)
    swaps += 1
    if swaps % 100 == 1:
        open("swaps.tmp", "w").write(str(swaps))
        os.replace("swaps.tmp", "swaps.txt")
"""


def _home_tree(home: Path) -> dict[str, str]:
    """Every path under HOME with its content (files) or kind, to see what changed."""
    tree: dict[str, str] = {}
    for dirpath, dirnames, filenames in os.walk(home):
        for name in dirnames + filenames:
            path = Path(dirpath, name)
            rel = str(path.relative_to(home))
            tree[rel] = "dir" if path.is_dir() else path.read_text(errors="replace")
    return tree


@pytest.fixture
def home_secrets() -> Path:
    """The user's home: a secret key commands cannot read and a .bashrc they cannot change."""
    home = Path(os.environ["HOME"])
    (home / ".ssh").mkdir(mode=0o700)
    (home / ".ssh" / "id_rsa").write_text(f"-----BEGIN KEY-----\n{SECRET}\n")
    (home / ".bashrc").write_text(BASHRC)
    return home


class RaceWatch:
    """Reads the race loop's swap counter when the model's rounds start and end."""

    def __init__(self, project: Path) -> None:
        self.counter = project / "swaps.txt"
        self.counts: list[int] = []

    def wait_started(self, timeout: float = 20.0) -> None:
        end = time.monotonic() + timeout
        while not self.counter.exists():
            if time.monotonic() > end:
                raise AssertionError("the race loop did not start")
            time.sleep(0.01)
        self.note()

    def note(self) -> None:
        self.counts.append(int(self.counter.read_text() or 0))


@pytest.fixture
def race(project: Path, home_secrets: Path) -> Iterator[str]:
    """The race loop's script in the project, named for this test; killed if it outlives it."""
    name = f"race_{uuid.uuid4().hex[:12]}.py"
    files = {link: str(home_secrets / target) for link, target in FILE_LINKS.items()}
    dirs = {link: str(home_secrets / target) for link, target in DIR_LINKS.items()}
    (project / name).write_text(_RACE.format(files=files, dirs=dirs, regular=REGULAR))
    yield name
    for pid in processes_with(name):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def scripted_session(
    race: str, watch: RaceWatch, rounds: list[list[dict[str, Any]]]
) -> list[dict[str, Any] | Callable[[dict], dict]]:
    """Start the race in the background, wait for it, run the rounds, check it still ran."""

    def first(_body: dict) -> dict:
        watch.wait_started()
        return {"tool_calls": rounds[0]}

    def later(calls: list[dict[str, Any]]) -> Callable[[dict], dict]:
        return lambda _body: {"tool_calls": calls}

    def last(_body: dict) -> dict:
        watch.note()
        return {"text": "done"}

    start = {"id": "race", "name": "Bash", "input": {"command": f"python3 {race}",
                                                    "run_in_background": True}}  # fmt: skip
    return [{"tool_calls": [start]}, first, *(later(r) for r in rounds[1:]), last]


def tool_results(fake_llm: FakeLLMServer) -> dict[str, str]:
    """Every tool result the model was sent, by call id (from the last request)."""
    found: dict[str, str] = {}
    for message in fake_llm.requests[-1].body["messages"]:
        content = message.get("content")
        if not isinstance(content, list):
            continue
        for block in content:
            if block.get("type") == "tool_result":
                found[block["tool_use_id"]] = json.dumps(block.get("content"))
    return found


def run_session(race, fake_llm, project, monkeypatch, capsys, script) -> dict[str, str]:
    fake_llm.script(script)
    args = ["-p", "go", "--permission-mode", "acceptEdits", "--max-turns", str(ROUNDS + 5)]
    args += ["--allowedTools", f"Bash(python3 {race})"]
    code, result, err = headless_in_process(
        args, fake_llm.env("anthropic"), project, monkeypatch, capsys
    )
    assert code == 0, err
    end = time.monotonic() + 10
    while processes_with(race) and time.monotonic() < end:
        time.sleep(0.05)
    assert not processes_with(race), "the race loop outlived the session"
    return tool_results(fake_llm)


def assert_it_raced(watch: RaceWatch, results: dict[str, str], prefix: str) -> None:
    """The loop swapped while the calls ran, and the checks saw both states."""
    assert len(watch.counts) == 2 and watch.counts[1] - watch.counts[0] >= 100, watch.counts
    mine = [text for call_id, text in results.items() if call_id.startswith(prefix)]
    outside = sum("outside the project" in text for text in mine)
    assert outside, "the permission check never saw a symlink: the race did not race"
    assert outside < len(mine), "the permission check never saw the regular file"


def file_rounds() -> list[list[dict[str, Any]]]:
    """200 Reads, 200 Writes and 200 Edits over ROUNDS rounds (reads first: they batch)."""
    rounds = []
    for n in range(ROUNDS):
        calls: list[dict[str, Any]] = []
        reads = ["leak.txt"] * 5 + ["rc.txt"] * 3 + ["new.txt"] * 2
        for i, name in enumerate(reads):
            calls.append({"id": f"read{n}_{i}", "name": "Read", "input": {"file_path": name}})
        for i in range(10):
            name = "rc.txt" if i % 2 else "new.txt"
            calls.append({"id": f"write{n}_{i}", "name": "Write",
                          "input": {"file_path": name, "content": f"{PLANTED} w{n}_{i}\n"}})  # fmt: skip
            edit = (
                {"old_string": "PLACEHOLDER", "new_string": f"PLACEHOLDER\n{PLANTED} e{n}_{i}"}
                if i % 2
                else {"old_string": "", "new_string": f"{PLANTED} e{n}_{i}\n"}
            )
            calls.append({"id": f"edit{n}_{i}", "name": "Edit",
                          "input": {"file_path": name, **edit}})  # fmt: skip
        rounds.append(calls)
    return rounds


def _wrote_home(result: str) -> bool:
    """A Write or Edit result that shows it changed .bashrc or created a file in HOME.

    In the project rc.txt holds one line and new.txt always exists, so overwriting two
    lines, a snippet with the bashrc's first line, or a created new.txt happened in HOME.
    """
    return (
        "Wrote rc.txt: +1 -2" in result
        or "the user's bashrc" in result
        or ("Created new.txt" in result)
    )


def test_read_write_edit_never_follow_a_swapped_symlink(
    own_tmp, race, home_secrets, fake_llm, project, monkeypatch, capsys
) -> None:
    """FAILS before the fix: Read sent ~/.ssh/id_rsa to the model, Write and Edit wrote
    ~/.bashrc and created ~/planted.txt (see the counts in the messages)."""
    before = _home_tree(home_secrets)
    watch = RaceWatch(project)
    script = scripted_session(race, watch, file_rounds())
    results = run_session(race, fake_llm, project, monkeypatch, capsys, script)
    sent = json.dumps([r.body for r in fake_llm.requests])
    leaks = sum(SECRET in text for text in results.values())
    after = _home_tree(home_secrets)
    changed = sorted(k for k in {*before, *after} if before.get(k) != after.get(k))
    changed_note = {k: after.get(k, "(gone)")[:80] for k in changed}
    escaped = sorted(
        call_id
        for call_id, text in results.items()
        if call_id.startswith(("write", "edit")) and _wrote_home(text)
    )
    bashrc_reads = sum("the user's bashrc" in t for k, t in results.items() if k.startswith("read"))
    summary = (
        f"{leaks} of 200 Reads sent the secret and {bashrc_reads} sent ~/.bashrc;"
        f" {len(escaped)} of 400 Writes and Edits wrote in HOME ({', '.join(escaped)});"
        f" HOME changed: {changed_note}"
    )
    secret_sent = SECRET in sent  # a bool: pytest's diff of megabytes of JSON takes minutes
    assert not secret_sent, summary
    assert (home_secrets / ".bashrc").read_text() == BASHRC, summary
    assert not changed, summary
    assert not bashrc_reads, summary
    assert_it_raced(watch, results, "read")
    assert sum(call_id.startswith(("read", "write", "edit")) for call_id in results) == 600


def search_rounds() -> list[list[dict[str, Any]]]:
    """Grep (a file, a directory, the whole project), Glob and LS while the race runs."""
    rounds = []
    for n in range(SEARCH_ROUNDS):
        calls: list[dict[str, Any]] = []
        for i in range(4):
            calls += [
                {"id": f"grepf{n}_{i}", "name": "Grep",
                 "input": {"pattern": "WITNESS", "path": "leak.txt", "output_mode": "content"}},
                {"id": f"grepd{n}_{i}", "name": "Grep",
                 "input": {"pattern": "WITNESS", "path": "keys", "output_mode": "content"}},
                {"id": f"grepall{n}_{i}", "name": "Grep",
                 "input": {"pattern": "WITNESS", "output_mode": "content"}},
                {"id": f"glob{n}_{i}", "name": "Glob", "input": {"pattern": "*", "path": "keys"}},
                {"id": f"ls{n}_{i}", "name": "LS", "input": {"path": "keys"}},
            ]  # fmt: skip
        rounds.append(calls)
    return rounds


def test_grep_glob_and_ls_never_follow_a_swapped_symlink(
    backend, own_tmp, race, home_secrets, fake_llm, project, monkeypatch, capsys
) -> None:
    """FAILS before the fix: Grep (which ran rg outside the sandbox) searched ~/.ssh/id_rsa
    through a swapped link, and LS and Glob listed ~/.ssh. rg now runs in the sandbox
    (it follows a path it is given, so the sandbox must bound it) and LS opens each
    directory beneath the checked root."""
    watch = RaceWatch(project)
    script = scripted_session(race, watch, search_rounds())
    results = run_session(race, fake_llm, project, monkeypatch, capsys, script)
    # A refusal names the link's target; a leak shows the key or lists ~/.ssh. Under
    # Landlock any command may list the names in ~/.ssh (READ_DIR is granted on the way
    # to a hidden path, never read access), so rg, confined as commands are, may: Glob
    # lists them, and Grep of the swapped folder names id_rsa when it cannot open it
    # ("Permission denied", or "No such file" once the link is swapped back). A Grep of
    # the whole project does the same when its walk enters keys/ just as it is swapped.
    names_visible = {"glob", "grepd", "grepall"} if backend == "landlock" else set()
    leaks = {
        k: v[:120]
        for k, v in results.items()
        if SECRET in v
        or (
            "id_rsa" in v
            and "Permission denied" not in v
            and k.rstrip("0123456789_") not in names_visible  # "glob7_1" -> "glob"
        )
    }
    assert not leaks, f"{len(leaks)} of {len(results)} calls leaked: {leaks}"
    secret_sent = SECRET in json.dumps([r.body for r in fake_llm.requests])
    assert not secret_sent, "the secret was sent to the model"
    assert_it_raced(watch, results, "")  # all search calls together: one kind alone is few


async def test_previews_and_attachments_never_follow_a_swapped_symlink(
    own_tmp, race, home_secrets, paths, project
) -> None:
    """The approval dialog's diff (Write, Edit and MultiEdit previews) and @-mentioned
    files are read unsandboxed too. The race runs unconfined here: what matters is how
    MewCode opens. FAILS before the fix: in one run 10 of 425 previews and attachments
    showed the key or ~/.bashrc."""
    from agent_core.agent.attachments import AttachmentBudget, attach_mentions
    from agent_core.agent.permission_gate import SettingsPermissionGate
    from agent_core.config.settings import Settings
    from agent_core.tools.base import ToolContext, validate_input
    from agent_core.tools.edit import EditTool
    from agent_core.tools.multiedit import MultiEditTool
    from agent_core.tools.write import WriteTool

    loop = subprocess.Popen([sys.executable, race], cwd=project, stdout=subprocess.DEVNULL)
    try:
        watch = RaceWatch(project)
        watch.wait_started()
        gate = SettingsPermissionGate(paths, Settings(), [], lambda: "default")
        edit = {"old_string": "PLACEHOLDER", "new_string": "CHANGED"}
        calls = [
            (WriteTool(), {"file_path": "leak.txt", "content": "x\n"}),
            (EditTool(), {"file_path": "leak.txt", **edit}),
            (MultiEditTool(), {"file_path": "rc.txt", "edits": [edit]}),
        ]
        shown: list[str] = []
        asked = 0
        for _ in range(200 // len(calls) + 1):
            for tool, raw in calls:
                verdict = gate.decide(tool, raw)
                if verdict.decision != "ask":
                    continue
                asked += 1
                ctx = ToolContext(project, project, checked=tuple(verdict.checked))
                shown.append(str(await tool.preview(validate_input(tool.params, raw), ctx)))
        for _ in range(200):
            got = attach_mentions("see @leak.txt and @rc.txt", project, gate, AttachmentBudget())
            shown += [block.text for block in got.blocks] + got.notes
        watch.note()
    finally:
        loop.kill()
        loop.wait()
    leaks = [text[:100] for text in shown if SECRET in text or "the user's bashrc" in text]
    assert not leaks, f"{len(leaks)} of {len(shown)} previews and attachments leaked: {leaks[:3]}"
    assert watch.counts[1] > watch.counts[0], watch.counts
    assert 0 < asked < 201, "the checks never (or always) saw the symlink: the race did not race"
    assert any("PLACEHOLDER" in text for text in shown), "nothing was ever shown"
