"""SVG snapshot of the trust dialog at 80x24, the smallest terminal we support.

Update after an intended visual change with ``pytest tests/snapshots --snapshot-update``.
"""

from __future__ import annotations

import pytest

from mewcode_tui.screens.trust import TrustQuestion, TrustScreen, WaitingSettings
from tests.snapshots.test_modal_snapshots import ScreenHost


@pytest.fixture(autouse=True)
def colors_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)


def test_trust_dialog_80x24(snap_compare, paths) -> None:
    question = TrustQuestion(
        "~/code/shop",
        "~/.mewcode/settings.yaml",
        (
            WaitingSettings(
                ".mewcode/settings.yaml",
                (
                    "permissions.allow (3 rules)",
                    "permissions.defaultMode (bypassPermissions)",
                    "hooks",
                ),
            ),
            WaitingSettings(".mewcode/settings.local.yaml", ("permissions.additionalDirectories",)),
        ),
    )
    screen = TrustScreen(question, key_guard=0)
    assert snap_compare(ScreenHost(paths, screen), terminal_size=(80, 24))
