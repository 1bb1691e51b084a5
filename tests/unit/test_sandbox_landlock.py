"""Landlock rules: read granted around hidden paths, the right rights per ABI, honest gaps."""

from __future__ import annotations

import os
from pathlib import Path

from agent_core.sandbox.landlock import (
    READ,
    READ_DIR,
    REFER,
    TRUNCATE,
    LandlockBackend,
    handled_fs,
    landlock_rules,
    read_grants,
)
from agent_core.sandbox.orphans import OrphanSweeper
from agent_core.sandbox.policy import SandboxPolicy
from agent_core.sandbox.status import status_report


def tree(root: Path) -> Path:
    for d in ("home/.ssh", "home/code", "etc", "usr/bin"):
        (root / d).mkdir(parents=True)
    for f in ("home/.ssh/id_rsa", "home/.bashrc", "etc/hosts", "usr/bin/tool"):
        (root / f).write_text("x")
    os.symlink(root / "home/.ssh", root / "home/keys")
    return root


def test_read_is_granted_around_a_hidden_directory(tmp_path: Path) -> None:
    root = tree(tmp_path)
    grants = dict(read_grants(str(root), [str(root / "home/.ssh")]))
    assert grants == {
        str(root): READ_DIR,
        str(root / "etc"): READ,
        str(root / "usr"): READ,
        str(root / "home"): READ_DIR,
        str(root / "home/code"): READ,
        str(root / "home/.bashrc"): READ,
    }
    # Neither the hidden directory nor the symlink that leads into it is granted.


def test_nothing_hidden_is_one_grant(tmp_path: Path) -> None:
    root = tree(tmp_path)
    assert list(read_grants(str(root), [str(root.parent / "elsewhere")])) == [(str(root), READ)]


def test_a_hidden_file_leaves_its_siblings_readable(tmp_path: Path) -> None:
    root = tree(tmp_path)
    grants = dict(read_grants(str(root / "home"), [str(root / "home/.ssh/id_rsa")]))
    assert grants[str(root / "home/.ssh")] == READ_DIR
    assert str(root / "home/.ssh/id_rsa") not in grants
    assert grants[str(root / "home/.bashrc")] == READ


def test_rules_for_a_policy(tmp_path: Path) -> None:
    root = tree(tmp_path)
    project = root / "home/code"
    policy = SandboxPolicy(writable=(str(project),), hidden=(str(root / "home/.ssh"),))
    rules = landlock_rules(policy, abi=3, root=str(root))
    assert (str(project), handled_fs(3)) in rules
    assert all(not path.startswith(str(root / "home/.ssh")) for path, _ in rules)
    devices = [path for path, _ in rules if path.startswith(str(root / "dev"))]
    assert str(root / "dev/null") in devices and str(root / "dev/sda") not in devices


def test_handled_rights_follow_the_abi() -> None:
    assert handled_fs(1) == (1 << 13) - 1
    assert handled_fs(2) & REFER and not handled_fs(2) & TRUNCATE
    assert handled_fs(7) == handled_fs(3)  # ioctl on devices is left unhandled


def test_status_names_what_landlock_cannot_do(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    policy = SandboxPolicy(writable=(str(home),), hidden=(str(home / ".ssh"),), network=False)
    old = LandlockBackend(3, OrphanSweeper()).status(policy)
    assert any("network: not restricted (needs Landlock ABI 4" in gap for gap in old.missing)
    new = LandlockBackend(6, OrphanSweeper()).status(policy)
    assert "network off: TCP connect and bind are denied" in new.enforced
    assert any("UDP" in gap for gap in new.missing)
    assert any(".git/hooks" in gap for gap in new.missing)
    assert f"{home}/.ssh is inside writable {home}: it stays readable" in new.missing
    assert "Unix sockets: refused (no socket(AF_UNIX)); socketpair allowed" in new.enforced
    assert any(fact.startswith("io_uring: refused") for fact in new.enforced)
    assert not any("Unix socket" in gap for gap in new.missing)


def test_status_says_an_allowlist_opens_every_unix_socket(tmp_path: Path) -> None:
    policy = SandboxPolicy(writable=(str(tmp_path),), unix_sockets=("/run/pg.sock",))
    status = LandlockBackend(7, OrphanSweeper()).status(policy)
    assert not any(fact.startswith("Unix sockets") for fact in status.enforced)
    assert any(fact.startswith("io_uring: refused") for fact in status.enforced)
    (gap,) = [gap for gap in status.missing if gap.startswith("Unix sockets")]
    assert "sandbox.allowUnixSockets" in gap and "tmux" in gap
    assert "bypassPermissions is refused" in gap
    report = status_report(status, policy)
    assert "socket:    /run/pg.sock (sandbox.allowUnixSockets)" in report
