"""`mewcode --demo -p` works in a scratch copy: the real project stays byte-identical."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.helpers.tree_digest import tree_digest


def test_headless_demo_edits_a_scratch_copy_and_removes_it(
    project: Path, mewcode_home: Path, tmp_path: Path
) -> None:
    (project / "README.md").write_text("# Demo project\nTODO: try mewcode\n")
    (project / ".mewcode").mkdir()
    (project / "notes.txt").write_text("keep me\n")
    before = tree_digest(project)
    scratch_root = tmp_path / "tmp"
    scratch_root.mkdir()
    env = {**os.environ, "MEWCODE_HOME": str(mewcode_home), "TMPDIR": str(scratch_root)}
    proc = subprocess.run(
        [sys.executable, "-m", "mewcode_tui.cli", "--demo", "-p", "show me", "--cwd", str(project)]
        + ["--output-format", "stream-json", "--permission-mode", "acceptEdits"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    cwd = Path(lines[0]["cwd"])
    assert cwd != project and cwd.is_relative_to(scratch_root.resolve())
    results = [c for line in lines if line["type"] == "user" for c in line["message"]["content"]]
    write = next(r for r in results if "MEWCODE_DEMO.md" in str(r["content"]))
    assert not write["is_error"], write  # the edit really ran, in the copy
    assert tree_digest(project) == before
    assert list(scratch_root.iterdir()) == []  # the copy is gone at exit
    assert list((mewcode_home / "projects").glob("*mewcode-demo*")) == []
